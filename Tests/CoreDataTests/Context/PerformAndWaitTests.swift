import CoreData
import Testing

/// Queues (MOC-36, MOC-37): performAndWait is synchronous and re-entrant, returns values and
/// rethrows; perform is asynchronous, serial and FIFO on a private queue, and processes pending
/// changes at the end of each block; NSFetchRequest.execute() runs in the current block's context.
///
/// Tests do not run on the main thread, so main-queue contexts are only checked for their type.
@Suite struct PerformAndWaitTests {
    private struct Failure: Error, Equatable {
        let code: Int
    }

    private func movies() throws -> CtxStack {
        try CtxStack(model: MovieModel.make())
    }

    @Test func concurrencyTypes() {
        #expect(NSManagedObjectContextConcurrencyType.confinementConcurrencyType.rawValue == 0)
        #expect(NSManagedObjectContextConcurrencyType.privateQueueConcurrencyType.rawValue == 1)
        #expect(NSManagedObjectContextConcurrencyType.mainQueueConcurrencyType.rawValue == 2)
        #expect(NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType).concurrencyType == .privateQueueConcurrencyType)
        #expect(NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType).concurrencyType == .mainQueueConcurrencyType)
    }

    @Test func performAndWaitIsSynchronous() throws {
        let stack = try movies()
        var ran = false
        stack.context.performAndWait { ran = true }
        #expect(ran)
    }

    @Test func performAndWaitIsReentrant() throws {
        let stack = try movies()
        var log: [String] = []
        stack.context.performAndWait {
            log.append("outer start")
            stack.context.performAndWait {
                log.append("inner")
                stack.context.performAndWait { log.append("innermost") }
            }
            log.append("outer end")
        }
        #expect(log == ["outer start", "inner", "innermost", "outer end"])
    }

    @Test func performAndWaitInsideAPerformBlockRunsInline() async throws {
        let stack = try movies()
        let context = stack.context
        let log = CtxLog<String>()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            context.perform {
                log.append("perform start")
                context.performAndWait { log.append("nested") }
                log.append("perform end")
                continuation.resume()
            }
        }
        #expect(log.elements == ["perform start", "nested", "perform end"])
    }

    @Test func performAndWaitReturnsValues() throws {
        let stack = try movies()
        let answer = stack.context.performAndWait { 6 * 7 }
        #expect(answer == 42)
        let title: String? = try stack.context.performAndWait { () throws in
            ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            try stack.context.save()
            return try ctxFetch("Movie", in: stack.context).first?.value(forKey: "title") as? String
        }
        #expect(title == "Alien")
    }

    @Test func performAndWaitRethrows() throws {
        let stack = try movies()
        #expect(throws: Failure(code: 7)) {
            try stack.context.performAndWait { () throws -> Int in
                throw Failure(code: 7)
            }
        }
        // A save error comes out of performAndWait as it was thrown.
        let error = ctxError {
            try stack.context.performAndWait { () throws in
                ctxInsert("Movie", into: stack.context)
                try stack.context.save()
            }
        }
        #expect(error?.code == 1570)
    }

    @Test func nestedThrowingPerformAndWaitPropagates() throws {
        let stack = try movies()
        var afterInner = false
        #expect(throws: Failure(code: 1)) {
            try stack.context.performAndWait { () throws in
                try stack.context.performAndWait { () throws in throw Failure(code: 1) }
                afterInner = true
            }
        }
        #expect(!afterInner)
    }

    @Test func performIsAsynchronous() async throws {
        let stack = try movies()
        let context = stack.context
        let gate = DispatchSemaphore(value: 0)
        let outcome = CtxLog<DispatchTimeoutResult>()
        let done = DispatchSemaphore(value: 0)
        enqueue(on: context) {
            // If perform ran the block synchronously, the caller could not open the gate yet.
            outcome.append(gate.wait(timeout: .now() + 5))
            done.signal()
        }
        gate.signal()
        await Task.detached { done.wait() }.value
        #expect(outcome.elements == [.success])
    }

    @Test func performRunsBlocksInOrderOneAtATime() async throws {
        let stack = try movies()
        let context = stack.context
        let log = CtxLog<Int>()
        let running = CtxLog<Int>()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            for index in 0..<50 {
                context.perform {
                    running.append(index)
                    log.append(index)
                    if index == 49 { continuation.resume() }
                }
            }
        }
        #expect(log.elements == Array(0..<50))
    }

    @Test func performRunsOffTheCallingThreadForPrivateQueues() async throws {
        let stack = try movies()
        let context = stack.context
        let isMain = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            context.perform { continuation.resume(returning: Thread.isMainThread) }
        }
        #expect(!isMain)
    }

    @Test func performWorkIsSeenByALaterPerformAndWait() async throws {
        let stack = try movies()
        let context = stack.context
        enqueue(on: context) {
            ctxInsert("Movie", into: context, ["title": "Alien"])
            try? context.save()
        }
        // performAndWait queues behind the asynchronous block on the same serial queue.
        let count = try context.performAndWait { () throws in try ctxStoredCount("Movie", in: context) }
        #expect(count == 1)
    }

    @Test func fetchRequestExecuteUsesTheCurrentContext() throws {
        let stack = try movies()
        try stack.context.performAndWait { () throws in
            ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            try stack.context.save()
            let request = NSFetchRequest<NSManagedObject>(entityName: "Movie")
            let results = try request.execute()
            #expect(results.count == 1)
            #expect(results.first?.managedObjectContext === stack.context)
        }
    }

    @Test func fetchRequestExecuteInANestedContextUsesTheInnermost() throws {
        let stack = try movies()
        try stack.context.performAndWait { () throws in
            ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            try stack.context.save()
        }
        let other = stack.newContext()
        try stack.context.performAndWait { () throws in
            try other.performAndWait { () throws in
                let results = try NSFetchRequest<NSManagedObject>(entityName: "Movie").execute()
                #expect(results.first?.managedObjectContext === other)
            }
            let results = try NSFetchRequest<NSManagedObject>(entityName: "Movie").execute()
            #expect(results.first?.managedObjectContext === stack.context)
        }
    }

    @Test func confinementContextsRunBlocksInline() throws {
        let context = NSManagedObjectContext(concurrencyType: .confinementConcurrencyType)
        #expect(context.concurrencyType == .confinementConcurrencyType)
        var log: [String] = []
        context.performAndWait {
            log.append("a")
            context.performAndWait { log.append("b") }
        }
        #expect(log == ["a", "b"])
        #expect(context.performAndWait { 1 } == 1)
    }

    @Test func severalBackgroundContextsSaveConcurrently() async throws {
        let stack = try movies()
        let coordinator = stack.coordinator
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<4 {
                group.addTask {
                    let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
                    context.persistentStoreCoordinator = coordinator
                    try context.performAndWait { () throws in
                        for index in 0..<25 {
                            ctxInsert("Movie", into: context, ["title": "w\(worker)-\(index)"])
                        }
                        try context.save()
                    }
                }
            }
            try await group.waitForAll()
        }
        let count = try stack.context.performAndWait { () throws in try ctxStoredCount("Movie", in: stack.context) }
        #expect(count == 100)
        let reopened = try stack.reopened()
        let titles = try reopened.context.performAndWait { () throws in
            Set(try ctxFetch("Movie", in: reopened.context).compactMap { $0.value(forKey: "title") as? String })
        }
        #expect(titles.count == 100)
    }
}

/// Calls the completion-block `perform(_:)`; from async code a bare `context.perform { }` picks
/// the async overload, as it does with Apple's SDK.
private func enqueue(on context: NSManagedObjectContext, _ block: @escaping @Sendable () -> Void) {
    context.perform(block)
}

@Suite struct AsyncPerformTests {
    private struct Refused: Error {}

    @Test func asyncPerformReturnsTheBlocksResultAndRethrows() async throws {
        let stack = try CtxStack(model: MovieModel.make(), storeType: NSInMemoryStoreType)
        let context = stack.context
        let title = try await context.perform {
            let movie = ctxInsert("Movie", into: context, ["title": "Alien"])
            try context.save()
            return movie.value(forKey: "title") as? String
        }
        #expect(title == "Alien")
        await #expect(throws: Refused.self) {
            try await context.perform(schedule: .enqueued) { throw Refused() }
        }
    }
}
