import CoreData
import Dispatch
import Testing

/// Asynchronous fetches through `NSManagedObjectContext.execute(_:)`: the result comes back at
/// once and the fetch runs afterwards on the context's queue; completion with registered objects,
/// cancellation, progress, failures, and requests the context cannot execute.
@Suite struct AsynchronousFetchTests {
    /// A saved store of three people, and a new private-queue context on it.
    private func people() throws -> (CtxStack, NSManagedObjectContext) {
        let stack = try CtxStack(model: CtxGraphModel.make())
        try stack.context.performAndWait {
            for name in ["Ann", "Bob", "Cid"] { ctxInsert("Person", into: stack.context, ["name": name]) }
            try stack.context.save()
        }
        return (stack, stack.newContext())
    }

    /// Executes `request` in `context` and waits for its completion block.
    private func run<T>(_ request: (@escaping (NSAsynchronousFetchResult<T>) -> Void) -> NSAsynchronousFetchRequest<T>,
                        in context: NSManagedObjectContext, cancelling: Bool = false) throws -> (returned: NSPersistentStoreResult, completed: NSAsynchronousFetchResult<T>) {
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var completed: NSAsynchronousFetchResult<T>?
        let asynchronous = request { result in
            completed = result
            done.signal()
        }
        let returned = try context.performAndWait {
            let returned = try context.execute(asynchronous)
            #expect((returned as? NSAsynchronousFetchResult<T>)?.finalResult == nil, "the fetch runs after execute returns")
            if cancelling { (returned as? NSPersistentStoreAsynchronousResult)?.cancel() }
            return returned
        }
        #expect(done.wait(timeout: .now() + 60) == .success)
        return (returned, try #require(completed))
    }

    @Test func theFetchRunsOnTheContextsQueueAndCompletesWithRegisteredObjects() throws {
        let (stack, context) = try people()
        defer { withExtendedLifetime(stack) {} }
        let (returned, completed) = try run({ completion in
            let request = NSFetchRequest<NSManagedObject>(entityName: "Person")
            request.predicate = NSPredicate(format: "name != %@", "Bob")
            request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
            return NSAsynchronousFetchRequest(fetchRequest: request, completionBlock: completion)
        }, in: context)
        #expect(returned === completed)
        #expect(completed.operationError == nil)
        #expect(completed.managedObjectContext === context)
        let people = try #require(completed.finalResult)
        context.performAndWait {
            #expect(people.map { $0.value(forKey: "name") as? String } == ["Ann", "Cid"])
            #expect(people.allSatisfy { $0.managedObjectContext === context })
        }
        #expect(completed.progress?.completedUnitCount == 1)
    }

    @Test func theProgressIsAChildOfTheCurrentProgress() throws {
        let (stack, context) = try people()
        defer { withExtendedLifetime(stack) {} }
        let parent = Progress(totalUnitCount: 1)
        parent.becomeCurrent(withPendingUnitCount: 1)
        defer { parent.resignCurrent() }
        _ = try run({ NSAsynchronousFetchRequest(fetchRequest: NSFetchRequest<NSManagedObjectID>(entityName: "Person"), completionBlock: $0) }, in: context)
        #expect(parent.fractionCompleted == 1)
    }

    @Test func aCancelledFetchCompletesWithoutResultsAndWithNSUserCancelledError() throws {
        let (stack, context) = try people()
        defer { withExtendedLifetime(stack) {} }
        let (_, completed) = try run({ NSAsynchronousFetchRequest(fetchRequest: NSFetchRequest<NSManagedObject>(entityName: "Person"), completionBlock: $0) },
                                    in: context, cancelling: true)
        #expect(completed.finalResult == nil)
        #expect((completed.operationError as NSError?)?.code == NSUserCancelledError)
    }

    @Test func aFailingFetchReportsItsErrorAndTheUntypedBlockSeesTheSameResult() throws {
        let (stack, context) = try people()
        defer { withExtendedLifetime(stack) {} }
        let (_, completed) = try run({ completion in
            let request = NSFetchRequest<NSManagedObject>(entityName: "Person")
            request.predicate = NSPredicate(format: "noSuchKey == 1")
            return NSAsynchronousFetchRequest(fetchRequest: request, completionBlock: completion)
        }, in: context)
        #expect(completed.finalResult == nil)
        #expect((completed.operationError as NSError?)?.domain == NSCocoaErrorDomain)

        nonisolated(unsafe) var untyped: [NSManagedObject]?
        let request = NSAsynchronousFetchRequest(fetchRequest: NSFetchRequest<NSManagedObject>(entityName: "Person")) { untyped = $0.finalResult }
        let (_, anyResult) = try run({ completion in
            NSAsynchronousFetchRequest(fetchRequest: NSFetchRequest<NSFetchRequestResult>(entityName: "Person"), completionBlock: completion)
        }, in: context)
        request.completionBlock?(anyResult)
        #expect(untyped?.count == 3)
    }

    @Test func aRequestTheContextCannotExecuteIsRefusedWith134091() throws {
        let (stack, context) = try people()
        defer { withExtendedLifetime(stack) {} }
        context.performAndWait {
            let save = NSSaveChangesRequest(inserted: nil, updated: nil, deleted: nil, locked: nil)
            #expect(save.requestType == .saveRequestType)
            #expect { try context.execute(save) } throws: { ($0 as NSError).code == NSPersistentStoreUnsupportedRequestTypeError }
        }
    }
}
