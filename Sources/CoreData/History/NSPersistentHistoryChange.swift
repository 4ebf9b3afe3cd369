import Foundation

/// One change of persistent history: an object inserted, updated or deleted by a transaction.
// Immutable once read.
open class NSPersistentHistoryChange: NSObject, NSCopying, @unchecked Sendable {
    private let record: HistoryChangeRecord
    private let owner: NSPersistentHistoryTransaction

    /// A change of `transaction`, which makes its changes anew each time they are asked for, so
    /// that this reference to it makes no cycle.
    init(_ record: HistoryChangeRecord, transaction: NSPersistentHistoryTransaction) {
        self.record = record
        owner = transaction
        super.init()
    }

    /// The change's number, unique in its store.
    open var changeID: Int64 { record.number }

    /// The object that changed.
    open var changedObjectID: NSManagedObjectID { record.objectID }

    /// Whether the object was inserted, updated or deleted.
    open var changeType: NSPersistentHistoryChangeType {
        NSPersistentHistoryChangeType(rawValue: record.kind) ?? .update
    }

    /// For a deleted object, the values of its attributes whose
    /// `preservesValueInHistoryOnDeletion` is true, by attribute name; nil for other changes.
    open var tombstone: [AnyHashable: Any]? {
        record.tombstone.map { Dictionary(uniqueKeysWithValues: $0.map { (AnyHashable($0.key), $0.value) }) }
    }

    /// The transaction that made the change.
    open var transaction: NSPersistentHistoryTransaction? { owner }

    /// For an update, the attributes and relationships that changed; nil for other changes.
    open var updatedProperties: Set<NSPropertyDescription>? {
        record.updatedProperties.map(Set.init)
    }

    open func copy(with zone: NSZone? = nil) -> Any {
        self
    }

    /// The entity of changes, for a fetch request that filters them.
    open class var entityDescription: NSEntityDescription? {
        PersistentHistoryEntities.change()
    }

    /// The entity of changes, for a fetch request that filters them.
    open class func entityDescription(with context: NSManagedObjectContext) -> NSEntityDescription? {
        entityDescription
    }

    /// A fetch request for changes, to give a predicate to (for example on `changedEntity` or
    /// `changeType`) and set as an `NSPersistentHistoryChangeRequest`'s `fetchRequest`.
    open class var fetchRequest: NSFetchRequest<NSFetchRequestResult>? {
        PersistentHistoryEntities.fetchRequest(for: entityDescription)
    }

    open override var description: String {
        "<NSPersistentHistoryChange: \(record.number), type \(record.kind), \(record.objectID)>"
    }
}

extension NSPersistentHistoryChange: KeyValueCodingReadable {
    func keyValue(forKey key: String) throws -> Any? {
        switch key {
        case "changeID": NSNumber(value: changeID)
        case "changedObjectID": changedObjectID
        case "changedEntity": changedObjectID.entity
        case "changeType": NSNumber(value: changeType.rawValue)
        case "tombstone": tombstone
        case "transaction": transaction
        case "updatedProperties": updatedProperties
        default: throw PredicateEvaluationError.unknownKey(key, typeName: "NSPersistentHistoryChange")
        }
    }
}
