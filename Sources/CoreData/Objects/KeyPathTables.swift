/// Each class's `propertyNamesByKeyPath`, read once: a generated table is built anew on each read.
// The tables are guarded by `lock`.
final class KeyPathTables: @unchecked Sendable {
    static let shared = KeyPathTables()

    private let lock = NSLock()
    private var tables: [ObjectIdentifier: [AnyKeyPath: String]] = [:]

    func table(of type: NSManagedObject.Type) -> [AnyKeyPath: String] {
        if let known = lock.withLock({ tables[ObjectIdentifier(type)] }) { return known }
        let table = type.propertyNamesByKeyPath
        lock.withLock { tables[ObjectIdentifier(type)] = table }
        return table
    }
}
