// Queue confinement: perform runs blocks asynchronously on the context's queue, performAndWait
// synchronously and re-entrantly. The context whose block is running is "current" on its thread,
// which is how NSFetchRequest.execute() finds it.
extension NSManagedObjectContext {
    func performImplementation(_ block: @escaping @Sendable () -> Void) {
        let work: @Sendable () -> Void = { [self] in
            self.runAsCurrent(block)
            self.processPendingChanges()
        }
        switch concurrencyType {
        case .privateQueueConcurrencyType:
            queue?.async(execute: work)
        case .mainQueueConcurrencyType:
            DispatchQueue.main.async(execute: work)
        case .confinementConcurrencyType:
            work()
        }
    }

    func performAndWaitImplementation(_ block: () -> Void) {
        if isOnOwnQueue {
            runAsCurrent(block)
            return
        }
        withoutActuallyEscaping(block) { block in
            // The caller waits for the block, so it never runs concurrently with the caller's code.
            let work = UncheckedSendable(block)
            switch concurrencyType {
            case .privateQueueConcurrencyType:
                queue?.sync { self.runAsCurrent(work.value) }
            case .mainQueueConcurrencyType:
                DispatchQueue.main.sync { self.runAsCurrent(work.value) }
            case .confinementConcurrencyType:
                runAsCurrent(work.value)
            }
        }
    }

    /// Whether the calling code already runs on the context's queue (so a nested call runs inline).
    ///
    /// A block of this context further up the thread's stack counts too: a parent's block that
    /// waits for its child's block, which reads through the parent, must not wait for itself.
    var isOnOwnQueue: Bool {
        switch concurrencyType {
        case .privateQueueConcurrencyType:
            return DispatchQueue.getSpecific(key: queueKey) == ObjectIdentifier(self) || CurrentContext.contains(self)
        case .mainQueueConcurrencyType:
            return Thread.isMainThread
        case .confinementConcurrencyType:
            return true
        }
    }

    private func runAsCurrent(_ block: () -> Void) {
        CurrentContext.push(self)
        defer { CurrentContext.pop() }
        block()
    }

    /// The context whose `perform` or `performAndWait` block is running on this thread.
    static var current: NSManagedObjectContext? {
        CurrentContext.top
    }
}

/// A per-thread stack of the contexts whose blocks are running, innermost last.
private enum CurrentContext {
    private static let key = "org.opencoredata.currentContexts"

    private final class Stack {
        var contexts: [Weak] = []
    }

    private struct Weak {
        weak var context: NSManagedObjectContext?
    }

    private static var stack: Stack {
        let dictionary = Thread.current.threadDictionary
        if let stack = dictionary[key] as? Stack { return stack }
        let stack = Stack()
        dictionary[key] = stack
        return stack
    }

    static func push(_ context: NSManagedObjectContext) {
        stack.contexts.append(Weak(context: context))
    }

    static func pop() {
        _ = stack.contexts.popLast()
    }

    static var top: NSManagedObjectContext? {
        stack.contexts.last?.context
    }

    static func contains(_ context: NSManagedObjectContext) -> Bool {
        stack.contexts.contains { $0.context === context }
    }
}

extension NSManagedObjectContext {
    /// When an asynchronous `perform` runs its block.
    public enum ScheduledTaskType: Sendable {
        /// At once when the caller already runs on the context's queue, otherwise enqueued.
        case immediate
        /// Always after the blocks already on the context's queue.
        case enqueued
    }

    /// Runs a block on the context's queue and returns its result, suspending until it has run.
    public func perform<T>(schedule: ScheduledTaskType = .immediate, _ block: @escaping @Sendable () throws -> T) async rethrows -> T {
        try await perform(schedule: schedule, block, rescue: { throw $0 })
    }

    /// Runs `block` through `perform`, handing an error it threw to `rescue`, whose only job is to
    /// rethrow it: that keeps the public method `rethrows`.
    private func perform<T>(schedule: ScheduledTaskType, _ block: @escaping @Sendable () throws -> T, rescue: (Error) throws -> T) async rethrows -> T {
        let outcome: UncheckedSendable<Result<T, Error>>
        if schedule == .immediate && isOnOwnQueue {
            outcome = UncheckedSendable(Result { try block() })
        } else {
            outcome = await withCheckedContinuation { continuation in
                perform {
                    // The result crosses back to the awaiting task only once the block is done.
                    continuation.resume(returning: UncheckedSendable(Result { try block() }))
                }
            }
        }
        switch outcome.value {
        case .success(let value): return value
        case .failure(let error): return try rescue(error)
        }
    }
}
