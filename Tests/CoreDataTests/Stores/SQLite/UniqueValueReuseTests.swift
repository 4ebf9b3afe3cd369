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

    /// A store holding "a" (remoteID 1) and "b" (remoteID 2).
    private static func makeStore(in directory: SQLiteScratchDirectory) throws -> URL {
        let url = directory.file("Items.sqlite")
        let stack = try SQLiteTestStack(model: model(), url: url)
        defer { stack.close() }
        try stack.context.performAndWait {
            ctxInsert("Item", into: stack.context, ["name": "a", "remoteID": NSNumber(value: Int32(1))])
            ctxInsert("Item", into: stack.context, ["name": "b", "remoteID": NSNumber(value: Int32(2))])
            try stack.context.save()
        }
        return url
    }

    /// Every stored item as "name=remoteID", read through a new coordinator.
    private static func storedItems(at url: URL) throws -> [String] {
        let stack = try SQLiteTestStack(model: model(), url: url)
        defer { stack.close() }
        return try stack.context.performAndWait {
            try ctxFetch("Item", in: stack.context, sortedBy: "name").map { item in
                "\(item.value(forKey: "name") as? String ?? "nil")=\((item.value(forKey: "remoteID") as? NSNumber)?.stringValue ?? "nil")"
            }
        }
    }

    @Test(arguments: [NSMergePolicyType.errorMergePolicyType, .mergeByPropertyObjectTrumpMergePolicyType])
    func aFetchedObjectTakesTheUniqueValueOfAnObjectDeletedInTheSameSave(policy: NSMergePolicyType) throws {
        let directory = try SQLiteScratchDirectory("unique-reuse-update")
        defer { directory.remove() }
        let url = try Self.makeStore(in: directory)
        let stack = try SQLiteTestStack(model: Self.model(), url: url)
        stack.context.mergePolicy = NSMergePolicy(merge: policy)
        try stack.context.performAndWait {
            let a = try #require(try ctxFetch("Item", in: stack.context, "name == 'a'").first)
            let b = try #require(try ctxFetch("Item", in: stack.context, "name == 'b'").first)
            a.setValue(NSNumber(value: Int32(2)), forKey: "remoteID")
            stack.context.delete(b)
            try stack.context.save()
        }
        stack.close()
        #expect(try Self.storedItems(at: url) == ["a=2"])
    }

    @Test func anInsertedObjectTakesTheUniqueValueOfAnObjectDeletedInTheSameSave() throws {
        let directory = try SQLiteScratchDirectory("unique-reuse-insert")
        defer { directory.remove() }
        let url = try Self.makeStore(in: directory)
        let stack = try SQLiteTestStack(model: Self.model(), url: url)
        try stack.context.performAndWait {
            let b = try #require(try ctxFetch("Item", in: stack.context, "name == 'b'").first)
            stack.context.delete(b)
            ctxInsert("Item", into: stack.context, ["name": "c", "remoteID": NSNumber(value: Int32(2))])
            try stack.context.save()
        }
        stack.close()
        #expect(try Self.storedItems(at: url) == ["a=1", "c=2"])
    }
}
