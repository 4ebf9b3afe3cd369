@testable import CoreData
import Testing

/// `NSBatchDeleteRequest` in the relational stores (SQLite, and PostgreSQL when there is a
/// server): rows deleted with SQL, relationships following their delete rules.
@Suite struct BatchDeleteTests {
    @Test(arguments: MigrationScenario.relationalStoreTypes)
    func aDeleteByFetchRequestReturnsEachResultType(storeType: String) throws {
        let store = try BatchTestStore(storeType)
        defer { store.close() }
        let ids = try store.insert("Item", (1...6).map { ["name": "item \($0)", "count": $0] })
        func request(_ predicate: String, _ type: NSBatchDeleteRequestResultType) -> NSBatchDeleteRequest {
            let fetch = NSFetchRequest<NSFetchRequestResult>(entityName: "Item")
            fetch.predicate = NSPredicate(format: predicate)
            let request = NSBatchDeleteRequest(fetchRequest: fetch)
            request.resultType = type
            return request
        }
        let status = try #require(store.execute(request("count <= 1", .resultTypeStatusOnly)) as? NSBatchDeleteResult)
        #expect(status.resultType == .resultTypeStatusOnly)
        #expect((status.result as? NSNumber)?.boolValue == true)
        let count = try #require(store.execute(request("count <= 3", .resultTypeCount)) as? NSBatchDeleteResult)
        #expect((count.result as? NSNumber)?.intValue == 2)
        let identifiers = try #require(store.execute(request("count == 5", .resultTypeObjectIDs)) as? NSBatchDeleteResult)
        #expect(identifiers.result as? [NSManagedObjectID] == [ids[4]])
        #expect(try store.column("ZCOUNT", of: "ZITEM") == [.integer(4), .integer(6)])
    }

    @Test(arguments: MigrationScenario.relationalStoreTypes)
    func aDeleteByObjectIDsClearsJoinRowsAndForeignKeys(storeType: String) throws {
        let store = try BatchTestStore(storeType)
        defer { store.close() }
        let context = store.context
        let (itemIDs, shelfID, tagID) = try context.performAndWait { () throws -> ([NSManagedObjectID], NSManagedObjectID, NSManagedObjectID) in
            let shelf = NSEntityDescription.insertNewObject(forEntityName: "Shelf", into: context)
            let tag = NSEntityDescription.insertNewObject(forEntityName: "Tag", into: context)
            tag.setValue("red", forKey: "name")
            let items = (1...3).map { index -> NSManagedObject in
                let item = NSEntityDescription.insertNewObject(forEntityName: "Item", into: context)
                item.setValue("item \(index)", forKey: "name")
                item.setValue(shelf, forKey: "shelf")
                item.setValue(NSSet(object: tag), forKey: "tags")
                return item
            }
            try context.save()
            return (items.map(\.objectID), shelf.objectID, tag.objectID)
        }
        let joinTable = try #require(try store.joinTable(of: "Item", "tags"))
        #expect(try store.rowCount(of: joinTable) == 3)

        let shelfDelete = NSBatchDeleteRequest(objectIDs: [shelfID])
        try _ = store.execute(shelfDelete)
        #expect(try store.column("ZSHELF", of: "ZITEM") == [.null, .null, .null])
        #expect(try store.column("Z_OPT", of: "ZITEM") == [.integer(2), .integer(2), .integer(2)])

        let itemDelete = NSBatchDeleteRequest(objectIDs: Array(itemIDs[0...1]))
        itemDelete.resultType = .resultTypeCount
        let result = try #require(store.execute(itemDelete) as? NSBatchDeleteResult)
        #expect((result.result as? NSNumber)?.intValue == 2)
        #expect(try store.rowCount(of: joinTable) == 1)
        let fresh = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        fresh.persistentStoreCoordinator = store.stack.coordinator
        let remaining = try fresh.performAndWait {
            try (fresh.existingObject(with: tagID).value(forKey: "items") as? Set<NSManagedObject>)?.map(\.objectID)
        }
        #expect(remaining == [itemIDs[2]])
    }

    @Test(arguments: MigrationScenario.relationalStoreTypes)
    func badRequestsFailClearlyAndDeleteNothing(storeType: String) throws {
        let store = try BatchTestStore(storeType)
        defer { store.close() }
        let item = try store.insert("Item", [["name": "a"]])[0]
        let shelf = try store.insert("Shelf", [["label": "s"]])[0]
        let missingKey = NSFetchRequest<NSFetchRequestResult>(entityName: "Item")
        missingKey.predicate = NSPredicate(format: "colour == 'red'")
        let requests = [
            (NSBatchDeleteRequest(objectIDs: [item, shelf]), "one entity"),
            (NSBatchDeleteRequest(fetchRequest: NSFetchRequest(entityName: "Nothing")), "Nothing"),
            (NSBatchDeleteRequest(fetchRequest: missingKey), "colour"),
        ]
        for (request, words) in requests {
            let error = #expect(throws: NSError.self) { try store.execute(request) }
            #expect(error?.domain == NSCocoaErrorDomain)
            #expect(error.map { CoreDataError.reason(of: $0).contains(words) } == true)
        }
        #expect(try store.column("Z_PK", of: "ZITEM").count == 1)
        #expect(try store.column("Z_PK", of: "ZSHELF").count == 1)
    }

    @Test(arguments: MigrationScenario.relationalStoreTypes)
    func cascadeDeletesDestinationsAndDenyRefusesTheWholeRequest(storeType: String) throws {
        let store = try BatchTestStore(storeType, model: MovieModel.make())
        defer { store.close() }
        let context = store.context
        try context.performAndWait {
            let movie = NSEntityDescription.insertNewObject(forEntityName: "Movie", into: context)
            movie.setValue("Alien", forKey: "title")
            let actor = NSEntityDescription.insertNewObject(forEntityName: "Actor", into: context)
            actor.setValue("Sigourney", forKey: "name")
            let lonely = NSEntityDescription.insertNewObject(forEntityName: "Actor", into: context)
            lonely.setValue("Nobody", forKey: "name")
            let character = NSEntityDescription.insertNewObject(forEntityName: "Character", into: context)
            character.setValue("Ripley", forKey: "name")
            character.setValue(movie, forKey: "movie")
            character.setValue(actor, forKey: "actor")
            try context.save()
        }
        let actors = NSBatchDeleteRequest(fetchRequest: NSFetchRequest(entityName: "Actor"))
        let error = #expect(throws: NSError.self) { try store.execute(actors) }
        #expect(error?.code == NSValidationRelationshipDeniedDeleteError)
        #expect(try store.column("ZNAME", of: "ZACTOR") == [.text("Sigourney"), .text("Nobody")])

        let movies = NSBatchDeleteRequest(fetchRequest: NSFetchRequest(entityName: "Movie"))
        movies.resultType = .resultTypeObjectIDs
        let result = try #require(store.execute(movies) as? NSBatchDeleteResult)
        #expect((result.result as? [NSManagedObjectID])?.compactMap(\.entity.name).sorted() == ["Character", "Movie"])
        #expect(try store.column("Z_PK", of: "ZMOVIE").isEmpty)
        #expect(try store.column("Z_PK", of: "ZCHARACTER").isEmpty)
        try _ = store.execute(actors)
        #expect(try store.column("Z_PK", of: "ZACTOR").isEmpty)
    }

    @Test(arguments: MigrationScenario.relationalStoreTypes)
    func registeredObjectsAreDeletedOnlyOnceTheResultIsMerged(storeType: String) throws {
        let store = try BatchTestStore(storeType)
        defer { store.close() }
        let context = store.context
        let id = try store.insert("Item", [["name": "a"]])[0]
        let item = try context.performAndWait { try context.existingObject(with: id) }
        let request = NSBatchDeleteRequest(objectIDs: [id])
        request.resultType = .resultTypeObjectIDs
        let result = try #require(store.execute(request) as? NSBatchDeleteResult)
        context.performAndWait {
            #expect(context.registeredObject(for: id) === item)
            #expect(!item.isDeleted)
        }
        NSManagedObjectContext.mergeChanges(fromRemoteContextSave: [NSDeletedObjectsKey: result.result as? [NSManagedObjectID] ?? []], into: [context])
        let count = try context.performAndWait { try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Item")) }
        #expect(count == 0)
        context.performAndWait { #expect(item.isDeleted) }
    }

    /// A delete whose result only counts runs as SQL alone, without listing the rows: the
    /// coordinator then forgets every cached row of the store, so that no other context reads a
    /// deleted row from its cache, and the rows referring to the deleted ones lose their keys.
    @Test(arguments: MigrationScenario.relationalStoreTypes)
    func aCountedDeleteLeavesNoCachedRowOrReferenceBehind(storeType: String) throws {
        let store = try BatchTestStore(storeType)
        defer { store.close() }
        let shelf = try store.insert("Shelf", [["label": "s"]])[0]
        let ids = try store.insert("Item", [["name": "a"], ["name": "b"], ["name": "c"]])
        try store.context.performAndWait {
            for id in ids { try store.context.existingObject(with: id).setValue(try store.context.existingObject(with: shelf), forKey: "shelf") }
            try store.context.save()
            // Reading the rows puts them in the coordinator's row cache.
            let items = try store.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Item"))
            #expect(items.count == 3)
        }
        let fetch = NSFetchRequest<NSFetchRequestResult>(entityName: "Item")
        fetch.predicate = NSPredicate(format: "name != %@", "c")
        let request = NSBatchDeleteRequest(fetchRequest: fetch)
        request.resultType = .resultTypeCount
        let result = try #require(store.execute(request) as? NSBatchDeleteResult)
        #expect((result.result as? NSNumber)?.intValue == 2)

        let other = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        other.persistentStoreCoordinator = store.stack.coordinator
        try other.performAndWait {
            #expect(throws: NSError.self) { try other.existingObject(with: ids[0]) }
            // A fault reads its row through the coordinator's cache, which must not hold it.
            let fault = other.object(with: ids[1])
            #expect(fault.value(forKey: "name") == nil)
            #expect(try other.existingObject(with: ids[2]).value(forKey: "name") as? String == "c")
            let items = try other.existingObject(with: shelf).value(forKey: "items") as? Set<NSManagedObject>
            #expect(items?.map(\.objectID) == [ids[2]])
        }
        #expect(try store.column("ZSHELF", of: "ZITEM") == [.integer(shelf.primaryKey ?? 0)])
    }
}
