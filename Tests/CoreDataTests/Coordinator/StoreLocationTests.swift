@testable import CoreData
import Testing

/// `setURL(_:for:)`, `managedObjectID(for:)` and the will-remove-store notification.
@Suite struct StoreLocationTests {
    /// Writes a store file holding people of the given names.
    private func writeStore(at url: URL, names: [String]) throws {
        let stack = try SQLiteTestStack(model: CtxGraphModel.make(), url: url)
        defer { stack.close() }
        try stack.context.performAndWait {
            for name in names { ctxInsert("Person", into: stack.context, ["name": name]) }
            try stack.context.save()
        }
    }

    private func names(in context: NSManagedObjectContext) throws -> [String] {
        try context.performAndWait {
            try ctxFetch("Person", in: context, sortedBy: "name").compactMap { $0.value(forKey: "name") as? String }
        }
    }

    @Test func aSQLiteStoreMovesToAnExistingStoreFileAndReadsIt() throws {
        let stack = try CtxStack(model: CtxGraphModel.make())
        try stack.context.performAndWait {
            ctxInsert("Person", into: stack.context, ["name": "Ann"])
            try stack.context.save()
        }
        let moved = stack.directory.url.appendingPathComponent("Moved.sqlite")
        try writeStore(at: moved, names: ["Bob", "Cy"])

        #expect(stack.coordinator.setURL(moved, for: stack.store))
        #expect(stack.store.url == moved)
        #expect(stack.coordinator.url(for: stack.store) == moved)
        #expect(stack.coordinator.persistentStore(for: moved) === stack.store)
        let reader = stack.newContext()
        #expect(try names(in: reader) == ["Bob", "Cy"])

        // Saves go to the new file; the old one keeps what it had.
        try reader.performAndWait {
            ctxInsert("Person", into: reader, ["name": "Dee"])
            try reader.save()
        }
        let original = stack.directory.url.appendingPathComponent("Test.sqlite")
        let check = try SQLiteTestStack(model: CtxGraphModel.make(), url: original)
        defer { check.close() }
        #expect(try names(in: check.context) == ["Ann"])
        check.close()
        #expect(stack.coordinator.setURL(original, for: stack.store))
        #expect(try names(in: stack.newContext()) == ["Ann"])
        let movedCheck = try SQLiteTestStack(model: CtxGraphModel.make(), url: moved)
        defer { movedCheck.close() }
        #expect(try names(in: movedCheck.context) == ["Bob", "Cy", "Dee"])
    }

    @Test func noStoreIsCreatedAndTheStoreStaysWhereItWasWhenTheDestinationIsNoStore() throws {
        let stack = try CtxStack(model: CtxGraphModel.make())
        try stack.context.performAndWait {
            ctxInsert("Person", into: stack.context, ["name": "Ann"])
            try stack.context.save()
        }
        let original = try #require(stack.store.url)
        let missing = stack.directory.url.appendingPathComponent("Missing.sqlite")
        #expect(!stack.coordinator.setURL(missing, for: stack.store))
        #expect(!FileManager.default.fileExists(atPath: missing.path))

        let text = stack.directory.url.appendingPathComponent("Notes.txt")
        try Data("not a store".utf8).write(to: text)
        #expect(!stack.coordinator.setURL(text, for: stack.store))
        #expect(try Data(contentsOf: text) == Data("not a store".utf8))

        let otherModel = stack.directory.url.appendingPathComponent("Other.sqlite")
        let other = try SQLiteTestStack(model: MovieModel.make(), url: otherModel)
        other.close()
        #expect(!stack.coordinator.setURL(otherModel, for: stack.store))

        #expect(stack.store.url == original)
        #expect(try names(in: stack.newContext()) == ["Ann"])
    }

    @Test func aStoreOfAnotherCoordinatorIsNotMoved() throws {
        let stack = try CtxStack(model: CtxGraphModel.make())
        let other = try CtxStack(model: CtxGraphModel.make())
        let destination = other.directory.url.appendingPathComponent("Copy.sqlite")
        try writeStore(at: destination, names: ["Bob"])
        #expect(!stack.coordinator.setURL(destination, for: other.store))
        #expect(other.store.url != destination)
    }

    @Test func anInMemoryStoreTakesTheNewURL() throws {
        let stack = try CtxStack(model: CtxGraphModel.make(), storeType: NSInMemoryStoreType)
        try stack.context.performAndWait {
            ctxInsert("Person", into: stack.context, ["name": "Ann"])
            try stack.context.save()
        }
        let url = URL(string: "memory://elsewhere")!
        #expect(stack.coordinator.setURL(url, for: stack.store))
        #expect(stack.store.url == url)
        #expect(try names(in: stack.newContext()) == ["Ann"])
    }

    @Test func managedObjectIDForAURIStringFindsTheObject() throws {
        let stack = try CtxStack(model: CtxGraphModel.make())
        let id = try stack.context.performAndWait { () throws in
            let person = ctxInsert("Person", into: stack.context, ["name": "Ann"])
            try stack.context.save()
            return person.objectID
        }
        let string = id.uriRepresentation().absoluteString
        #expect(stack.coordinator.managedObjectID(for: string) == id)
        #expect(stack.coordinator.managedObjectID(for: "not a uri") == nil)
        #expect(stack.coordinator.managedObjectID(for: "") == nil)
        #expect(stack.coordinator.managedObjectID(for: string.replacingOccurrences(of: "Person", with: "Nobody")) == nil)
    }

    @Test func removingAStorePostsWillRemoveStoreFirst() throws {
        let stack = try CtxStack(model: CtxGraphModel.make())
        let seen = CtxLog<(object: AnyObject?, info: Int, stores: Int)>()
        let observer = NotificationCenter.default.addObserver(forName: .NSPersistentStoreCoordinatorWillRemoveStore, object: stack.coordinator, queue: nil) { note in
            seen.append((note.object as AnyObject?, note.userInfo?.count ?? 0, stack.coordinator.persistentStores.count))
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        try stack.coordinator.remove(stack.store)
        #expect(seen.elements.count == 1)
        #expect(seen.elements.first?.object === stack.coordinator)
        #expect(seen.elements.first?.info == 0)
        #expect(seen.elements.first?.stores == 1, "posted before the store leaves")
        #expect(ctxError { try stack.coordinator.remove(stack.store) } != nil)
        #expect(seen.elements.count == 1, "not posted for a store the coordinator does not have")
    }
}
