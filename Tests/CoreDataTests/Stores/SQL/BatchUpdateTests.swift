@testable import CoreData
import Testing

/// `NSBatchUpdateRequest` in the relational stores (SQLite, and PostgreSQL when there is a
/// server): SQL over the matching rows, in one transaction.
@Suite struct BatchUpdateTests {
    @Test(arguments: MigrationScenario.relationalStoreTypes)
    func aConstantUpdateReturnsEachResultType(storeType: String) throws {
        let store = try BatchTestStore(storeType)
        defer { store.close() }
        let ids = try store.insert("Item", [["name": "a", "count": 1], ["name": "b", "count": 2], ["name": "c", "count": 3]])
        let request = NSBatchUpdateRequest(entityName: "Item")
        request.predicate = NSPredicate(format: "count >= 2")
        request.propertiesToUpdate = ["price": 9.5]

        let status = try #require(store.execute(request) as? NSBatchUpdateResult)
        #expect(status.resultType == .statusOnlyResultType)
        #expect((status.result as? NSNumber)?.boolValue == true)

        request.resultType = .updatedObjectsCountResultType
        let count = try #require(store.execute(request) as? NSBatchUpdateResult)
        #expect((count.result as? NSNumber)?.intValue == 2)

        request.resultType = .updatedObjectIDsResultType
        let identifiers = try #require(store.execute(request) as? NSBatchUpdateResult)
        #expect(Set(identifiers.result as? [NSManagedObjectID] ?? []) == Set(ids[1...]))
        #expect(try store.column("ZPRICE", of: "ZITEM") == [.null, .real(9.5), .real(9.5)])
    }

    @Test(arguments: MigrationScenario.relationalStoreTypes)
    func anExpressionIsComputedFromEachRowAndTheVersionAdvances(storeType: String) throws {
        let store = try BatchTestStore(storeType)
        defer { store.close() }
        try store.insert("Item", [["name": "a", "count": 1], ["name": "b", "count": 5]])
        #expect(try store.column("Z_OPT", of: "ZITEM") == [.integer(1), .integer(1)])
        let request = NSBatchUpdateRequest(entityName: "Item")
        request.propertiesToUpdate = ["count": NSExpression(format: "count + 1"), "name": "renamed"]
        request.resultType = .updatedObjectsCountResultType
        let result = try #require(store.execute(request) as? NSBatchUpdateResult)
        #expect((result.result as? NSNumber)?.intValue == 2)
        #expect(try store.column("ZCOUNT", of: "ZITEM") == [.integer(2), .integer(6)])
        #expect(try store.column("ZNAME", of: "ZITEM") == [.text("renamed"), .text("renamed")])
        #expect(try store.column("Z_OPT", of: "ZITEM") == [.integer(2), .integer(2)])
    }

    @Test(arguments: MigrationScenario.relationalStoreTypes)
    func anExpressionMayReadThroughAToOneRelationship(storeType: String) throws {
        let store = try BatchTestStore(storeType)
        defer { store.close() }
        let context = store.context
        try context.performAndWait {
            let shelf = NSEntityDescription.insertNewObject(forEntityName: "Shelf", into: context)
            shelf.setValue("top", forKey: "label")
            for name in ["on", "off"] {
                let item = NSEntityDescription.insertNewObject(forEntityName: "Item", into: context)
                item.setValue(name, forKey: "name")
                if name == "on" { item.setValue(shelf, forKey: "shelf") }
            }
            try context.save()
        }
        let request = NSBatchUpdateRequest(entityName: "Item")
        request.predicate = NSPredicate(format: "shelf != nil")
        request.propertiesToUpdate = ["name": NSExpression(forKeyPath: "shelf.label")]
        try _ = store.execute(request)
        #expect(try store.column("ZNAME", of: "ZITEM", where: "ZSHELF IS NOT NULL") == [.text("top")])
        #expect(try store.column("ZNAME", of: "ZITEM", where: "ZSHELF IS NULL") == [.text("off")])
    }

    @Test(arguments: MigrationScenario.relationalStoreTypes)
    func subentitiesAreUpdatedOnlyWhenIncluded(storeType: String) throws {
        let store = try BatchTestStore(storeType)
        defer { store.close() }
        try store.insert("Item", [["name": "plain"]])
        try store.insert("SpecialItem", [["name": "special"]])
        let request = NSBatchUpdateRequest(entityName: "Item")
        request.propertiesToUpdate = ["count": 100]
        request.includesSubentities = false
        try _ = store.execute(request)
        #expect(try store.column("ZCOUNT", of: "ZITEM") == [.integer(100), .integer(7)])
        request.includesSubentities = true
        request.propertiesToUpdate = ["count": 200]
        try _ = store.execute(request)
        #expect(try store.column("ZCOUNT", of: "ZITEM") == [.integer(200), .integer(200)])
    }

    @Test(arguments: MigrationScenario.relationalStoreTypes)
    func badRequestsFailClearlyAndWriteNothing(storeType: String) throws {
        let store = try BatchTestStore(storeType)
        defer { store.close() }
        try store.insert("Item", [["name": "a", "count": 1]])
        let unknownEntity = NSBatchUpdateRequest(entityName: "Nothing")
        unknownEntity.propertiesToUpdate = ["count": 2]
        let missingKey = NSBatchUpdateRequest(entityName: "Item")
        missingKey.predicate = NSPredicate(format: "colour == 'red'")
        missingKey.propertiesToUpdate = ["count": 2]
        let wrongType = NSBatchUpdateRequest(entityName: "Item")
        wrongType.propertiesToUpdate = ["count": "many"]
        let unknownProperty = NSBatchUpdateRequest(entityName: "Item")
        unknownProperty.propertiesToUpdate = ["weight": 2]
        for (request, code, words) in [(unknownEntity, NSCoreDataError, "Nothing"), (missingKey, NSCoreDataError, "colour"),
                                      (wrongType, NSManagedObjectValidationError, "count"), (unknownProperty, NSCoreDataError, "weight")] {
            let error = #expect(throws: NSError.self) { try store.execute(request) }
            #expect(error?.domain == NSCocoaErrorDomain)
            #expect(error?.code == code)
            #expect(error.map { CoreDataError.reason(of: $0).contains(words) || $0.userInfo[NSValidationKeyErrorKey] as? String == words } == true)
        }
        #expect(try store.column("ZCOUNT", of: "ZITEM") == [.integer(1)])
        #expect(try store.column("Z_OPT", of: "ZITEM") == [.integer(1)])
    }

    @Test(arguments: MigrationScenario.relationalStoreTypes)
    func registeredObjectsChangeOnlyOnceTheResultIsMerged(storeType: String) throws {
        let store = try BatchTestStore(storeType)
        defer { store.close() }
        let context = store.context
        let id = try store.insert("Item", [["name": "a", "count": 1]])[0]
        let item = try context.performAndWait { try context.existingObject(with: id) }
        let request = NSBatchUpdateRequest(entityName: "Item")
        request.propertiesToUpdate = ["count": 42]
        request.resultType = .updatedObjectIDsResultType
        let result = try #require(store.execute(request) as? NSBatchUpdateResult)
        context.performAndWait { #expect((item.value(forKey: "count") as? NSNumber)?.intValue == 1) }
        NSManagedObjectContext.mergeChanges(fromRemoteContextSave: [NSUpdatedObjectsKey: result.result as? [NSManagedObjectID] ?? []], into: [context])
        context.performAndWait { #expect((item.value(forKey: "count") as? NSNumber)?.intValue == 42) }
    }

    @Test(arguments: MigrationScenario.relationalStoreTypes)
    func anotherContextReadsTheUpdatedRowNotTheCachedOne(storeType: String) throws {
        let store = try BatchTestStore(storeType)
        defer { store.close() }
        let id = try store.insert("Item", [["name": "a", "count": 1]])[0]
        let request = NSBatchUpdateRequest(entityName: "Item")
        request.propertiesToUpdate = ["count": 42]
        try _ = store.execute(request)
        let other = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        other.persistentStoreCoordinator = store.stack.coordinator
        let count = try other.performAndWait { try other.existingObject(with: id).value(forKey: "count") as? NSNumber }
        #expect(count?.intValue == 42)
    }

    @Test(arguments: MigrationScenario.relationalStoreTypes)
    func aContextSavingOlderValuesMeetsAConflict(storeType: String) throws {
        let store = try BatchTestStore(storeType)
        defer { store.close() }
        let context = store.context
        let id = try store.insert("Item", [["name": "a", "count": 1]])[0]
        let request = NSBatchUpdateRequest(entityName: "Item")
        request.propertiesToUpdate = ["count": 42]
        try context.performAndWait {
            let item = try context.existingObject(with: id)
            _ = item.value(forKey: "count")
            _ = try context.execute(request)
            item.setValue("changed", forKey: "name")
            let error = #expect(throws: NSError.self) { try context.save() }
            #expect(error?.code == NSManagedObjectMergeError)
        }
    }
}
