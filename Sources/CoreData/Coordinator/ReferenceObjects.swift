/// The keys of incremental stores' reference objects, by store identity: an integer from 1 is its
/// own key; any other reference object gets the next negative key, so that the two never meet.
/// Shared by the process, so that every store with one identifier gives one object one ID.
// `tables` is guarded by `lock`; reference objects are immutable strings and numbers.
final class ReferenceObjects: @unchecked Sendable {
    static let shared = ReferenceObjects()

    private struct Table {
        var keys: [AnyHashable: Int64] = [:]
        var objects: [Int64: AnyHashable] = [:]
    }

    private let lock = NSLock()
    private var tables: [UInt32: Table] = [:]

    /// The key of a reference object in a store.
    func key(for object: Any, inStore store: UInt32) -> Int64 {
        if let integer = Self.positiveInteger(object) { return integer }
        let hashable = (object as? AnyHashable) ?? AnyHashable(String(describing: object))
        return lock.withLock {
            if let known = tables[store]?.keys[hashable] { return known }
            var table = tables[store] ?? Table()
            let key = -Int64(table.keys.count + 1)
            table.keys[hashable] = key
            table.objects[key] = hashable
            tables[store] = table
            return key
        }
    }

    /// The reference object of a key in a store, nil for a key it never gave.
    func object(for key: Int64, inStore store: UInt32) -> Any? {
        if key > 0 { return NSNumber(value: key) }
        return lock.withLock { tables[store]?.objects[key]?.base }
    }

    /// How a URI names the reference object of a key: an integer as itself, another reference
    /// object by its description (a string as it is).
    func name(of key: Int64, inStore store: UInt32) -> String {
        object(for: key, inStore: store).map { "\($0)" } ?? "\(key)"
    }

    private static func positiveInteger(_ object: Any) -> Int64? {
        let value: Int64?
        switch object {
        case let integer as Int: value = Int64(integer)
        case let integer as Int64: value = integer
        case let integer as Int32: value = Int64(integer)
        case let number as NSNumber where !number.isFloatingPointNumber && !(number is NSDecimalNumber):
            value = number.int64Value
        default: value = nil
        }
        return value.flatMap { $0 > 0 ? $0 : nil }
    }
}
