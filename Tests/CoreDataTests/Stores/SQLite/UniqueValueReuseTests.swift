@testable import CoreData
import Testing

/// A save may give a row the value of a uniqueness constraint that a row it deletes held: the
/// uniqueness check leaves the save's deleted rows out, so the store must write the deletes before
/// the rows that take their values (the store's unique index would otherwise refuse them).
@Suite struct UniqueValueReuseTests {
    /// Item (remoteID: Integer 32, unique; name).
    private static func model() -> NSManagedObjectModel {
        let item = ModelFixtureKit.entity("Item", [
            ModelFixtureKit.attribute("remoteID", .integer32AttributeType),
            ModelFixtureKit.attribute("name", .stringAttributeType),
        ])
        item.uniquenessConstraints = [["remoteID"]]
        return ModelFixtureKit.model([item])
    }

    /// A store (SQLite, or PostgreSQL when there is a server) holding "a" (remoteID 1) and "b" (remoteID 2).
    private static func makeStore(_ storeType: String) throws -> CtxStack {
        let stack = try CtxStack(model: model(), storeType: storeType)
        try stack.context.performAndWait {
            ctxInsert("Item", into: stack.context, ["name": "a", "remoteID": NSNumber(value: Int32(1))])
            ctxInsert("Item", into: stack.context, ["name": "b", "remoteID": NSNumber(value: Int32(2))])
            try stack.context.save()
        }
        return try stack.reopened()
    }

    /// Every stored item as "name=remoteID", read through a new coordinator.
    private static func storedItems(of stack: CtxStack) throws -> [String] {
        let reader = try stack.reopened()
        return try reader.context.performAndWait {
            try ctxFetch("Item", in: reader.context, sortedBy: "name").map { item in
                "\(item.value(forKey: "name") as? String ?? "nil")=\((item.value(forKey: "remoteID") as? NSNumber)?.stringValue ?? "nil")"
            }
        }
    }

    @Test(arguments: [NSMergePolicyType.errorMergePolicyType, .mergeByPropertyObjectTrumpMergePolicyType], MigrationScenario.relationalStoreTypes)
    func aFetchedObjectTakesTheUniqueValueOfAnObjectDeletedInTheSameSave(policy: NSMergePolicyType, storeType: String) throws {
        let stack = try Self.makeStore(storeType)
        stack.context.mergePolicy = NSMergePolicy(merge: policy)
        try stack.context.performAndWait {
            let a = try #require(try ctxFetch("Item", in: stack.context, "name == 'a'").first)
            let b = try #require(try ctxFetch("Item", in: stack.context, "name == 'b'").first)
            a.setValue(NSNumber(value: Int32(2)), forKey: "remoteID")
            stack.context.delete(b)
            try stack.context.save()
        }
        #expect(try Self.storedItems(of: stack) == ["a=2"])
    }

    @Test(arguments: MigrationScenario.relationalStoreTypes)
    func anInsertedObjectTakesTheUniqueValueOfAnObjectDeletedInTheSameSave(storeType: String) throws {
        let stack = try Self.makeStore(storeType)
        try stack.context.performAndWait {
            let b = try #require(try ctxFetch("Item", in: stack.context, "name == 'b'").first)
            stack.context.delete(b)
            ctxInsert("Item", into: stack.context, ["name": "c", "remoteID": NSNumber(value: Int32(2))])
            try stack.context.save()
        }
        #expect(try Self.storedItems(of: stack) == ["a=1", "c=2"])
    }
}
