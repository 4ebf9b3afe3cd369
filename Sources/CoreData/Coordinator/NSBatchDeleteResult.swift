/// What a batch delete request returns: a status, a count, or the identifiers of the
/// deleted objects, as its `resultType` asked.
open class NSBatchDeleteResult: NSPersistentStoreResult {
    private let value: Any
    private let type: NSBatchDeleteRequestResultType

    init(_ value: Any, resultType: NSBatchDeleteRequestResultType) {
        self.value = value
        self.type = resultType
        super.init()
    }

    /// The result: an `NSNumber` holding a Boolean or a count, or an array of `NSManagedObjectID`s.
    open var result: Any? { value }

    /// The kind of result the request asked for.
    open var resultType: NSBatchDeleteRequestResultType { type }
}
