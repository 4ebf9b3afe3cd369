import CoreData
import Testing

/// `NSManagedObjectContext.ConcurrencyType` and `init(_:)`, the forms Apple added in iOS 15, next
/// to the older `NSManagedObjectContextConcurrencyType` and `init(concurrencyType:)`.
@Suite struct ConcurrencyTypeTests {
    @Test func theNestedTypeWrapsTheOlderEnumeration() {
        #expect(NSManagedObjectContext.ConcurrencyType.privateQueue.rawValue == .privateQueueConcurrencyType)
        #expect(NSManagedObjectContext.ConcurrencyType.mainQueue.rawValue == .mainQueueConcurrencyType)
        #expect(NSManagedObjectContext.ConcurrencyType(rawValue: .mainQueueConcurrencyType) == .mainQueue)
        #expect(NSManagedObjectContext.ConcurrencyType.privateQueue != .mainQueue)
        #expect(Set([NSManagedObjectContext.ConcurrencyType.privateQueue, .mainQueue, .privateQueue]).count == 2)
    }

    @Test func theUnlabeledInitializerGivesThatConcurrencyType() throws {
        let privateContext = NSManagedObjectContext(.privateQueue)
        let mainContext = NSManagedObjectContext(.mainQueue)
        #expect(privateContext.concurrencyType == .privateQueueConcurrencyType)
        #expect(mainContext.concurrencyType == .mainQueueConcurrencyType)
    }

    @Test func aPrivateQueueContextMadeWithItSavesThroughItsQueue() throws {
        let stack = try CtxStack(model: CtxGraphModel.make(), storeType: NSInMemoryStoreType)
        let context = NSManagedObjectContext(.privateQueue)
        context.persistentStoreCoordinator = stack.coordinator
        try context.performAndWait {
            ctxInsert("Person", into: context, ["name": "Ann"])
            try context.save()
        }
        #expect(try stack.context.performAndWait { try ctxFetch("Person", in: stack.context).count } == 1)
    }
}

/// `userInfo`: a dictionary the program keeps with the context.
@Suite struct ContextUserInfoTests {
    @Test func userInfoIsOneMutableDictionaryThatKeepsWhatTheProgramPutsInIt() {
        let context = NSManagedObjectContext(.privateQueue)
        #expect(context.userInfo.count == 0)
        context.userInfo["role"] = "importer"
        context.userInfo.setObject(3, forKey: "batch" as NSString)
        #expect(context.userInfo === context.userInfo)
        #expect(context.userInfo["role"] as? String == "importer")
        #expect(context.userInfo["batch"] as? Int == 3)
        #expect(NSManagedObjectContext(.privateQueue).userInfo.count == 0)
    }
}
