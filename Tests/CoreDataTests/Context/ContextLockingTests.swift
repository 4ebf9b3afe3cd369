import CoreData
import Testing

/// Whether another thread can take a lock now (it releases it at once).
func ctxLockIsFreeOnAnotherThread(tryLock: @escaping @Sendable () -> Bool, unlock: @escaping @Sendable () -> Void) -> Bool {
    let result = CtxLog<Bool>()
    let done = DispatchSemaphore(value: 0)
    Thread {
        let acquired = tryLock()
        if acquired { unlock() }
        result.append(acquired)
        done.signal()
    }.start()
    done.wait()
    return result.elements == [true]
}

/// The deprecated lock of a context (`NSLocking`): a recursive lock that other threads wait for.
@Suite struct ContextLockingTests {
    @Test @available(*, deprecated) func aContextLockKeepsOtherThreadsOutUntilItIsUnlockedAsOftenAsLocked() {
        let context = NSManagedObjectContext(.privateQueue)
        let isFree = { ctxLockIsFreeOnAnotherThread(tryLock: { context.tryLock() }, unlock: { context.unlock() }) }
        #expect(isFree())
        context.lock()
        #expect(context.tryLock())
        #expect(!isFree())
        context.unlock()
        #expect(!isFree())
        context.unlock()
        #expect(isFree())
        #expect(context.withLock { 42 } == 42)
        #expect(isFree())
    }
}
