/// What a batch insert request returns: a status, a count, or the identifiers of the
/// inserted objects, as its `resultType` asked.
open class NSBatchInsertResult: NSPersistentStoreResult {
    private let value: Any
    private let type: NSBatchInsertRequestResultType

    init(_ value: Any, resultType: NSBatchInsertRequestResultType) {
        self.value = value
        self.type = resultType
        super.init()
    }

    /// The result: an `NSNumber` holding a Boolean or a count, or an array of `NSManagedObjectID`s.
    open var result: Any? { value }

    /// The kind of result the request asked for.
    open var resultType: NSBatchInsertRequestResultType { type }
}
