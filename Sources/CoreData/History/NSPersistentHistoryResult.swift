/// The result of executing an `NSPersistentHistoryChangeRequest`.
open class NSPersistentHistoryResult: NSPersistentStoreResult {
    private let value: Any
    private let type: NSPersistentHistoryResultType

    init(_ value: Any, resultType: NSPersistentHistoryResultType) {
        self.value = value
        self.type = resultType
        super.init()
    }

    /// The request's answer, of the kind `resultType` names.
    open var result: Any? { value }

    /// The kind of answer `result` holds.
    open var resultType: NSPersistentHistoryResultType { type }
}
