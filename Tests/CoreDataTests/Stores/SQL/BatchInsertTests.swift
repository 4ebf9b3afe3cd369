@testable import CoreData
import Testing

/// `NSBatchInsertRequest` in the relational stores (SQLite, and PostgreSQL when there is a
/// server): rows inserted with SQL, values checked, defaults applied, primary keys taken from
/// `Z_PRIMARYKEY`, uniqueness constraints updating rows.
@Suite struct BatchInsertTests {
    @Test(arguments: MigrationScenario.relationalStoreTypes)
    func dictionariesAreInsertedWithEachResultType(storeType: String) throws {
        let store = try BatchTestStore(storeType)
        defer { store.close() }
        try store.insert("Item", [["name": "saved"]])
        let status = try #require(store.execute(NSBatchInsertRequest(entityName: "Item", objects: [["name": "a", "count": 1]])) as? NSBatchInsertResult)
        #expect(status.resultType == .statusOnly)
        #expect((status.result as? NSNumber)?.boolValue == true)
        let counted = NSBatchInsertRequest(entityName: "Item", objects: [["name": "b"], ["name": "c"]])
        counted.resultType = .count
        #expect(((try store.execute(counted) as? NSBatchInsertResult)?.result as? NSNumber)?.intValue == 2)
        let entity = try #require(store.stack.coordinator.managedObjectModel.entitiesByName["Item"])
        let listed = NSBatchInsertRequest(entity: entity, objects: [["name": "d", "price": 1.5]])
        listed.resultType = .objectIDs
        let identifiers = try #require((try store.execute(listed) as? NSBatchInsertResult)?.result as? [NSManagedObjectID])
        #expect(try store.column("ZNAME", of: "ZITEM") == ["saved", "a", "b", "c", "d"].map(SQLValue.text))
        // Keys follow one another, the batch's included: a context's next insert takes the key
        // after the batch's.
        #expect(identifiers.map(\.primaryKey) == [5])
        let next = try store.insert("Item", [["name": "e"]])
        #expect(next.map(\.primaryKey) == [6])
        // Z_MAX covers every key handed out, so that no coordinator hands one out again: exactly,
        // as Apple's SQLite layout keeps it; the PostgreSQL store reserves keys in blocks.
        let maximum = try #require(try store.primaryKeyMaximum(of: "Item"))
        #expect(storeType == NSSQLiteStoreType ? maximum == 6 : maximum >= 6)
        let fetched = try store.context.performAndWait { try store.context.existingObject(with: identifiers[0]) }
        store.context.performAndWait { #expect(fetched.value(forKey: "price") as? Double == 1.5) }
    }

    @Test(arguments: MigrationScenario.relationalStoreTypes)
    func defaultsFillTheAttributesADictionaryLeavesOut(storeType: String) throws {
        let store = try BatchTestStore(storeType)
        defer { store.close() }
        try _ = store.execute(NSBatchInsertRequest(entityName: "Item", objects: [["name": "a"], ["name": "b", "count": 3]]))
        #expect(try store.column("ZCOUNT", of: "ZITEM") == [.integer(7), .integer(3)])
        #expect(try store.column("ZPRICE", of: "ZITEM") == [.null, .null])
        #expect(try store.column("Z_ENT", of: "ZITEM").count == 2)
    }

    @Test(arguments: MigrationScenario.relationalStoreTypes)
    func aDictionaryHandlerRunsUntilItReturnsTrue(storeType: String) throws {
        let store = try BatchTestStore(storeType)
        defer { store.close() }
        var produced = 0
        let request = NSBatchInsertRequest(entityName: "Item") { (dictionary: NSMutableDictionary) -> Bool in
            guard produced < 3 else { return true }
            produced += 1
            dictionary["name"] = "item \(produced)"
            dictionary["count"] = produced * 10
            return false
        }
        request.resultType = .count
        let result = try #require(store.execute(request) as? NSBatchInsertResult)
        #expect((result.result as? NSNumber)?.intValue == 3)
        #expect(try store.column("ZCOUNT", of: "ZITEM") == [.integer(10), .integer(20), .integer(30)])
    }

    @Test(arguments: MigrationScenario.relationalStoreTypes)
    func aManagedObjectHandlerRunsUntilItReturnsTrue(storeType: String) throws {
        let store = try BatchTestStore(storeType)
        defer { store.close() }
        var produced = 0
        let request = NSBatchInsertRequest(entityName: "Item") { (object: NSManagedObject) -> Bool in
            guard produced < 2 else { return true }
            produced += 1
            object.setValue("object \(produced)", forKey: "name")
            return false
        }
        try _ = store.execute(request)
        #expect(try store.column("ZNAME", of: "ZITEM") == [.text("object 1"), .text("object 2")])
    }

    @Test(arguments: MigrationScenario.relationalStoreTypes)
    func aValueOfTheWrongTypeFailsAndWritesNothing(storeType: String) throws {
        let store = try BatchTestStore(storeType)
        defer { store.close() }
        let request = NSBatchInsertRequest(entityName: "Item", objects: [["name": "fine"], ["name": "bad", "count": "many"]])
        let error = #expect(throws: NSError.self) { try store.execute(request) }
        #expect(error?.domain == NSCocoaErrorDomain)
        #expect(error?.code == NSManagedObjectValidationError)
        #expect(error?.userInfo[NSValidationKeyErrorKey] as? String == "count")
        #expect(try store.column("Z_PK", of: "ZITEM").isEmpty)
        #expect(try store.primaryKeyMaximum(of: "Item") == 0)
    }

    @Test(arguments: MigrationScenario.relationalStoreTypes)
    func unknownEntitiesKeysAndMissingValuesFailAndWriteNothing(storeType: String) throws {
        let store = try BatchTestStore(storeType)
        defer { store.close() }
        let requests = [
            (NSBatchInsertRequest(entityName: "Nothing", objects: [["name": "a"]]), NSCoreDataError),
            (NSBatchInsertRequest(entityName: "Item", objects: [["name": "a", "colour": "red"]]), NSCoreDataError),
            (NSBatchInsertRequest(entityName: "Item", objects: [["count": 1]]), NSValidationMissingMandatoryPropertyError),
        ]
        for (request, code) in requests {
            let error = #expect(throws: NSError.self) { try store.execute(request) }
            #expect(error?.code == code)
        }
        #expect(try store.column("Z_PK", of: "ZITEM").isEmpty)
    }

    @Test(arguments: MigrationScenario.relationalStoreTypes)
    func aUniquenessConstraintUpdatesTheExistingRow(storeType: String) throws {
        let store = try BatchTestStore(storeType)
        defer { store.close() }
        let existing = try store.insert("Tag", [["name": "red", "note": "old"]])[0]
        let request = NSBatchInsertRequest(entityName: "Tag", objects: [["name": "red", "note": "new"], ["name": "blue"], ["name": "blue", "note": "second"]])
        request.resultType = .objectIDs
        let identifiers = try #require((try store.execute(request) as? NSBatchInsertResult)?.result as? [NSManagedObjectID])
        #expect(identifiers.first == existing)
        #expect(identifiers[1] == identifiers[2])
        #expect(try store.column("ZNAME", of: "ZTAG") == [.text("red"), .text("blue")])
        #expect(try store.column("ZNOTE", of: "ZTAG") == [.text("new"), .text("second")])
        #expect(try store.column("Z_OPT", of: "ZTAG") == [.integer(2), .integer(2)])
    }

    @Test(arguments: MigrationScenario.relationalStoreTypes)
    func registeredObjectsSeeUpsertedValuesOnlyOnceTheResultIsMerged(storeType: String) throws {
        let store = try BatchTestStore(storeType)
        defer { store.close() }
        let context = store.context
        let id = try store.insert("Tag", [["name": "red", "note": "old"]])[0]
        let tag = try context.performAndWait { try context.existingObject(with: id) }
        let request = NSBatchInsertRequest(entityName: "Tag", objects: [["name": "red", "note": "new"]])
        request.resultType = .objectIDs
        let identifiers = try #require((try store.execute(request) as? NSBatchInsertResult)?.result as? [NSManagedObjectID])
        context.performAndWait { #expect(tag.value(forKey: "note") as? String == "old") }
        NSManagedObjectContext.mergeChanges(fromRemoteContextSave: [NSUpdatedObjectsKey: identifiers], into: [context])
        context.performAndWait { #expect(tag.value(forKey: "note") as? String == "new") }
    }
}
