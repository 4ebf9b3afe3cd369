// The context's side of the seam its objects use (`ObjectContext`): the requirements the
// context's other extensions do not already meet.
extension NSManagedObjectContext: ObjectContext {
    var recordsUndo: Bool { undoRecord != nil }

    func recordedSlotStates(of object: NSManagedObject) -> [SlotUndoState]? {
        undoRecord?.slotStates(of: object)
    }

    /// Stops the program (or calls the context's test handler) when the context checks its uses
    /// (`ConcurrencyDebug`) and the calling code does not run on its queue.
    func checkConcurrency(of operation: @autoclosure () -> String) {
        guard checksConcurrency, !isOnOwnQueue else { return }
        let name = name.map { "\"\($0)\"" } ?? "\(ObjectIdentifier(self))"
        let queue = concurrencyType == .mainQueueConcurrencyType ? "main queue" : "private queue"
        let thread = Thread.isMainThread ? "the main thread" : "thread \(ConcurrencyDebug.currentThreadName)"
        let message = "CoreData concurrency violation: \(operation()) on context \(name) (\(queue)) from \(thread), outside the context's queue; use perform or performAndWait."
        guard let handler = concurrencyViolationHandler else { fatalError(message) }
        handler(message)
    }
}
