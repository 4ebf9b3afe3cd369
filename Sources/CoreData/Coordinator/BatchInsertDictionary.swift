import Foundation

/// The dictionary an `NSBatchInsertRequest`'s dictionary handler fills: an
/// `NSMutableDictionary` that keeps the values of the entity's attributes in an array, by their
/// position in the insert's row, so that neither the handler's writes nor the insert's reads go
/// through Linux Foundation's dictionary storage, which boxes and hashes every key and value.
/// Keys that name no attribute are kept aside, for the error they cause.
// Used only by the handler that fills it and the insert that reads it, on one thread.
final class BatchInsertDictionary: NSMutableDictionary, @unchecked Sendable {
    /// The position in `values` of each attribute name.
    private let positions: [String: Int]
    /// The attribute names, by position.
    private let names: [String]
    /// The values the handler set, by position.
    private(set) var values: [Any?]
    /// The entries whose keys name no attribute.
    private(set) var otherEntries: [AnyHashable: Any] = [:]
    private var valueCount = 0

    /// The attribute names of a batch insert's rows and their positions, made once per request.
    struct Keys {
        let names: [String]
        let positions: [String: Int]

        init(_ names: [String]) {
            self.names = names
            positions = Dictionary(names.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        }
    }

    /// An empty dictionary for rows with these attribute names.
    init(keys: Keys) {
        names = keys.names
        positions = keys.positions
        values = Array(repeating: nil, count: keys.names.count)
        super.init(objects: nil, forKeys: nil, count: 0)
    }

    required init(objects: UnsafePointer<AnyObject>!, forKeys keys: UnsafePointer<NSObject>!, count: Int) {
        names = []
        positions = [:]
        values = []
        super.init(objects: nil, forKeys: nil, count: 0)
        for index in 0..<count {
            setObject(objects[index], forKey: AnyHashable(keys[index]))
        }
    }

    private func position(of key: Any) -> Int? {
        (key as? String).flatMap { positions[$0] }
    }

    override var count: Int {
        valueCount + otherEntries.count
    }

    override func object(forKey aKey: Any) -> Any? {
        if let position = position(of: aKey) { return values[position] }
        return (aKey as? AnyHashable).flatMap { otherEntries[$0] }
    }

    override func keyEnumerator() -> NSEnumerator {
        let keys: [Any] = names.indices.filter { values[$0] != nil }.map { names[$0] } + otherEntries.keys.map(\.base)
        return NSArray(array: keys).objectEnumerator()
    }

    override func setObject(_ anObject: Any, forKey aKey: AnyHashable) {
        guard let position = position(of: aKey.base) else {
            otherEntries[aKey] = anObject
            return
        }
        if values[position] == nil { valueCount += 1 }
        values[position] = anObject
    }

    override func removeObject(forKey aKey: Any) {
        if let position = position(of: aKey) {
            if values[position] != nil { valueCount -= 1 }
            values[position] = nil
        } else if let key = aKey as? AnyHashable {
            otherEntries[key] = nil
        }
    }
}
