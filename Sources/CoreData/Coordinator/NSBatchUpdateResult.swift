/// What a batch update request returns: a status, a count, or the identifiers of the
/// updated objects, as its `resultType` asked.
open class NSBatchUpdateResult: NSPersistentStoreResult {
    private let value: Any
    private let type: NSBatchUpdateRequestResultType

    init(_ value: Any, resultType: NSBatchUpdateRequestResultType) {
        self.value = value
        self.type = resultType
        super.init()
    }

    /// The result: an `NSNumber` holding a Boolean or a count, or an array of `NSManagedObjectID`s.
    open var result: Any? { value }

    /// The kind of result the request asked for.
    open var resultType: NSBatchUpdateRequestResultType { type }
}
