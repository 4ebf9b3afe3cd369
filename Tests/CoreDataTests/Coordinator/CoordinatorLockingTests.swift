import CoreData
import Testing

/// The deprecated lock of a coordinator (`NSLocking`): the lock of its stores, so that while one
/// thread holds it no other thread reads or writes them.
@Suite struct CoordinatorLockingTests {
    @Test @available(*, deprecated) func aCoordinatorLockKeepsOtherThreadsAwayFromItsStores() throws {
        let stack = try CtxStack(model: CtxGraphModel.make())
        let coordinator = stack.coordinator
        let isFree = { ctxLockIsFreeOnAnotherThread(tryLock: { coordinator.tryLock() }, unlock: { coordinator.unlock() }) }
        coordinator.lock()
        #expect(!isFree())

        // A save on another queue waits for the lock: it has written nothing while the lock is
        // held, and completes once it is released.
        let other = stack.newContext()
        let saved = DispatchSemaphore(value: 0)
        other.perform {
            ctxInsert("Person", into: other, ["name": "Ann"])
            try? other.save()
            saved.signal()
        }
        // The holder of the lock still uses the coordinator on its own thread (the lock is
        // recursive), through a context confined to that thread.
        let reader = NSManagedObjectContext(concurrencyType: .confinementConcurrencyType)
        reader.persistentStoreCoordinator = coordinator
        #expect(try ctxStoredCount("Person", in: reader) == 0)
        // However long the holder keeps the lock, the other save cannot finish meanwhile.
        #expect(saved.wait(timeout: .now() + 0.3) == .timedOut)
        coordinator.unlock()
        saved.wait()
        #expect(try ctxStoredCount("Person", in: reader) == 1)
        #expect(isFree())
        #expect(coordinator.withLock { coordinator.persistentStores.count } == 1)
    }
}
