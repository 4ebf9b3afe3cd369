@testable import CoreData
import Foundation
import Testing

@Suite struct PersistentHistoryTests {
    @Test(arguments: MigrationScenario.relationalStoreTypes)
    func everySaveRecordsATransactionWithItsAuthorContextAndChanges(storeType: String) throws {
        let store = try HistoryTestStore("history-saves", storeType: storeType)
        defer { store.close() }
        store.context.performAndWait {
            store.context.name = "editor"
            store.context.transactionAuthor = "app"
        }
        let ids = try store.insertItems(["a", "b"])
        try store.context.performAndWait {
            let first = try store.context.existingObject(with: ids[0])
            first.setValue(2.5, forKey: "price")
            store.context.delete(try store.context.existingObject(with: ids[1]))
            try store.context.save()
        }

        let transactions = try store.transactions()
        try #require(transactions.count == 2)
        #expect(transactions.map(\.author) == ["app", "app"])
        #expect(transactions.map(\.contextName) == ["editor", "editor"])
        #expect(transactions[0].processID == ProcessInfo.processInfo.processName)
        #expect(transactions[0].storeID == store.stack.store.identifier)
        #expect(transactions[0].transactionNumber < transactions[1].transactionNumber)
        #expect(transactions[0].changes?.map(\.changeType) == [.insert, .insert])
        #expect(Set(transactions[0].changes?.map(\.changedObjectID) ?? []) == Set(ids))
        let changes = try #require(transactions[1].changes)
        let update = try #require(changes.first { $0.changeType == .update })
        #expect(update.changedObjectID == ids[0])
        #expect(update.updatedProperties?.map(\.name) == ["price"])
        #expect(update.transaction === transactions[1])
        let delete = try #require(changes.first { $0.changeType == .delete })
        #expect(delete.changedObjectID == ids[1])
        #expect(delete.tombstone?["name"] as? String == "b")
    }

    @Test func aTransactionsObjectIDNotificationIsADidSaveObjectIDsNotificationOfItsChanges() throws {
        let store = try HistoryTestStore("history-notification")
        defer { store.close() }
        let ids = try store.insertItems(["a", "b", "c"])
        try store.context.performAndWait {
            try store.context.existingObject(with: ids[0]).setValue(1.5, forKey: "price")
            store.context.delete(try store.context.existingObject(with: ids[1]))
            try store.context.save()
        }

        let transactions = try store.transactions()
        try #require(transactions.count == 2)
        // As Apple documents the method's return value.
        let notification = transactions[1].objectIDNotification()
        #expect(notification.name == NSManagedObjectContext.didSaveObjectIDsNotification)
        #expect(notification.userInfo?[NSInsertedObjectIDsKey] as? Set<NSManagedObjectID> == [])
        #expect(notification.userInfo?[NSUpdatedObjectIDsKey] as? Set<NSManagedObjectID> == [ids[0]])
        #expect(notification.userInfo?[NSDeletedObjectIDsKey] as? Set<NSManagedObjectID> == [ids[1]])
        #expect(transactions[0].objectIDNotification().userInfo?[NSInsertedObjectIDsKey] as? Set<NSManagedObjectID> == Set(ids))
    }

    @Test func theTablesAreApplesHistoryTables() throws {
        let store = try HistoryTestStore("history-tables")
        defer { store.close() }
        let ids = try store.insertItems(["a"])
        try store.context.performAndWait {
            try store.context.existingObject(with: ids[0]).setValue(3.0, forKey: "price")
            try store.context.save()
        }
        let keys = try RawStoreSQL.rows(store.url, "SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT > 16000 ORDER BY Z_ENT")
        #expect(keys == [
            [.integer(16001), .text("CHANGE"), .integer(0), .integer(2)],
            [.integer(16002), .text("TRANSACTION"), .integer(0), .integer(2)],
            // The bundle ID and the process ID are both the process name on Linux: one string.
            [.integer(16003), .text("TRANSACTIONSTRING"), .integer(0), .integer(1)],
        ])
        let changes = try RawStoreSQL.rows(store.url, "SELECT Z_ENT, Z_OPT, ZCHANGETYPE, ZENTITYPK, ZTRANSACTIONID, ZCOLUMNS FROM ACHANGE ORDER BY Z_PK")
        // Item's bitmap positions: shelf (to-one), then count, name, price, then tags (to-many),
        // most significant bit first: price is the fourth.
        #expect(changes == [
            [.integer(16001), .null, .integer(0), ids[0].primaryKey.map(SQLValue.integer) ?? .null, .integer(1), .null],
            [.integer(16001), .null, .integer(1), ids[0].primaryKey.map(SQLValue.integer) ?? .null, .integer(2), .blob(Data([0x10]))],
        ])
        let strings = try RawStoreSQL.rows(store.url, "SELECT ZNAME FROM ATRANSACTIONSTRING ORDER BY Z_PK").map { $0[0] }
        #expect(strings == [.text(ProcessInfo.processInfo.processName)])
        let transaction = try RawStoreSQL.rows(store.url, "SELECT Z_OPT, ZAUTHORTS, ZBUNDLEIDTS, ZPROCESSIDTS, typeof(ZTIMESTAMP) FROM ATRANSACTION WHERE Z_PK = 1")
        #expect(transaction == [[.null, .null, .integer(1), .integer(1), .text("real")]])
        let metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: store.url)
        let ancillary = metadata["_NSStoreAncillaryModelVersionHashesMetadataKey"] as? [String: Any]
        let hashes = ancillary?[NSPersistentHistoryTrackingKey] as? [String: Data]
        #expect(hashes?.keys.sorted() == ["CHANGE", "TRANSACTION", "TRANSACTIONSTRING"])
        #expect(hashes?["TRANSACTIONSTRING"]?.prefix(4) == Data([0x96, 0x81, 0x5c, 0xbd]))
    }

    @Test(arguments: MigrationScenario.relationalStoreTypes)
    func aTokenReadsWhatFollowsItAndSurvivesSecureArchiving(storeType: String) throws {
        let store = try HistoryTestStore("history-token", storeType: storeType)
        defer { store.close() }
        #expect(store.stack.coordinator.currentPersistentHistoryToken(fromStores: nil) == nil)
        try store.insertItems(["a"])
        let token = try #require(store.stack.coordinator.currentPersistentHistoryToken(fromStores: nil))
        try store.insertItems(["b"])
        try store.insertItems(["c"])

        let data = try NSKeyedArchiver.archivedData(withRootObject: token, requiringSecureCoding: true)
        let restored = try #require(try NSKeyedUnarchiver.unarchivedObject(ofClass: NSPersistentHistoryToken.self, from: data))
        #expect(restored == token)
        let after = try store.transactions(after: restored)
        #expect(after.count == 2)
        #expect(after.first?.token != token)
        #expect(try store.transactions(after: after[0].token).count == 1)
        #expect(store.stack.coordinator.currentPersistentHistoryToken(fromStores: [store.stack.store]) == after.last?.token)
        #expect(try store.history(.fetchHistory(after: after[1])) as? [NSPersistentHistoryTransaction] == [])
    }

    @Test(arguments: MigrationScenario.relationalStoreTypes)
    func deletedHistoryIsGoneAndATokenBeforeItHasExpired(storeType: String) throws {
        let store = try HistoryTestStore("history-delete", storeType: storeType)
        defer { store.close() }
        try store.insertItems(["a"])
        let first = try #require(store.stack.coordinator.currentPersistentHistoryToken(fromStores: nil))
        try store.insertItems(["b"])
        let second = try #require(store.stack.coordinator.currentPersistentHistoryToken(fromStores: nil))
        try store.insertItems(["c"])

        let request = NSPersistentHistoryChangeRequest.deleteHistory(before: second)
        request.resultType = .count
        #expect((try store.history(request) as? NSNumber)?.intValue == 2)
        #expect(try store.transactions().count == 1)
        #expect(try store.transactions(after: second).count == 1)
        if storeType == NSSQLiteStoreType {
            #expect(try RawStoreSQL.rows(store.url, "SELECT COUNT(*) FROM ACHANGE") == [[.integer(1)]])
        }
        let error = #expect(throws: NSError.self) { try store.transactions(after: first) }
        #expect(error?.domain == NSCocoaErrorDomain)
        #expect(error?.code == NSPersistentHistoryTokenExpiredError)

        _ = try store.history(.deleteHistory(before: Date.distantFuture))
        #expect(try store.transactions().isEmpty)
        #expect(throws: NSError.self) { try store.transactions(after: second) }
    }

    @Test func eachResultTypeShapesTheResult() throws {
        let store = try HistoryTestStore("history-results")
        defer { store.close() }
        let ids = try store.insertItems(["a", "b"])
        func result(_ type: NSPersistentHistoryResultType) throws -> Any? {
            let request = NSPersistentHistoryChangeRequest.fetchHistory(after: nil as NSPersistentHistoryToken?)
            request.resultType = type
            return try store.history(request)
        }
        #expect(NSPersistentHistoryChangeRequest.fetchHistory(after: Date()).resultType == .transactionsAndChanges)
        #expect((try result(.statusOnly) as? NSNumber)?.boolValue == true)
        #expect((try result(.count) as? NSNumber)?.intValue == 1)
        #expect(Set(try result(.objectIDs) as? [NSManagedObjectID] ?? []) == Set(ids))
        let transactions = try #require(try result(.transactionsOnly) as? [NSPersistentHistoryTransaction])
        #expect(transactions.count == 1 && transactions[0].changes == nil)
        let changes = try #require(try result(.changesOnly) as? [NSPersistentHistoryChange])
        #expect(changes.map(\.changeType) == [.insert, .insert])
        #expect(changes.allSatisfy { $0.transaction?.transactionNumber == transactions[0].transactionNumber })
    }

    @Test func fetchRequestsFilterTransactionsAndChanges() throws {
        let store = try HistoryTestStore("history-filter")
        defer { store.close() }
        store.context.performAndWait { store.context.transactionAuthor = "importer" }
        let ids = try store.insertItems(["a", "b"])
        store.context.performAndWait { store.context.transactionAuthor = "app" }
        try store.context.performAndWait {
            try store.context.existingObject(with: ids[0]).setValue(1.0, forKey: "price")
            try store.context.save()
        }

        let byAuthor = try #require(NSPersistentHistoryTransaction.fetchRequest)
        byAuthor.predicate = NSPredicate(format: "author != %@", "importer")
        let request = NSPersistentHistoryChangeRequest.fetchHistory(after: nil as NSPersistentHistoryToken?)
        request.fetchRequest = byAuthor
        let transactions = try #require(try store.history(request) as? [NSPersistentHistoryTransaction])
        #expect(transactions.map(\.author) == ["app"])

        let updates = try #require(NSPersistentHistoryChange.fetchRequest)
        updates.predicate = NSPredicate(format: "changeType == %d AND changedEntity == %@", NSPersistentHistoryChangeType.update.rawValue, store.model.entitiesByName["Item"]!)
        let changeRequest = NSPersistentHistoryChangeRequest.fetchHistory(withFetch: updates)
        changeRequest.resultType = .changesOnly
        let changes = try #require(try store.history(changeRequest) as? [NSPersistentHistoryChange])
        #expect(changes.map(\.changedObjectID) == [ids[0]])

        let otherEntity = NSFetchRequest<NSFetchRequestResult>(entityName: "Item")
        #expect(throws: NSError.self) { try store.history(.fetchHistory(withFetch: otherEntity)) }

        let unknownKey = try #require(NSPersistentHistoryTransaction.fetchRequest)
        unknownKey.predicate = NSPredicate(format: "colour == 1")
        #expect(throws: NSError.self) { try store.history(.fetchHistory(withFetch: unknownKey)) }
    }

    @Test func batchRequestsRecordTransactions() throws {
        let store = try HistoryTestStore("history-batch")
        defer { store.close() }
        store.context.performAndWait { store.context.transactionAuthor = "importer" }
        let inserted = try #require(try store.execute(NSBatchInsertRequest(entityName: "Item", objects: [["name": "x"], ["name": "y"]])) as? NSBatchInsertResult)
        _ = inserted
        let update = NSBatchUpdateRequest(entityName: "Item")
        update.propertiesToUpdate = ["count": 9]
        _ = try store.execute(update)
        let delete = NSBatchDeleteRequest(fetchRequest: NSFetchRequest(entityName: "Item"))
        _ = try store.execute(delete)

        let transactions = try store.transactions()
        try #require(transactions.count == 3)
        #expect(transactions.map(\.author) == ["importer", "importer", "importer"])
        #expect(transactions[0].changes?.map(\.changeType) == [.insert, .insert])
        #expect(transactions[1].changes?.map(\.changeType) == [.update, .update])
        #expect(transactions[1].changes?.first?.updatedProperties?.map(\.name) == ["count"])
        #expect(transactions[2].changes?.map(\.changeType) == [.delete, .delete])
        #expect(Set(transactions[2].changes?.compactMap { $0.tombstone?["name"] as? String } ?? []) == ["x", "y"])
    }

    @Test func batchRequestsThatMatchNothingRecordNothing() throws {
        let store = try HistoryTestStore("history-nothing")
        defer { store.close() }
        try store.insertItems(["a"])
        let nothing = NSFetchRequest<NSFetchRequestResult>(entityName: "Item")
        nothing.predicate = NSPredicate(format: "name == %@", "zzz")
        _ = try store.execute(NSBatchDeleteRequest(fetchRequest: nothing))
        let update = NSBatchUpdateRequest(entityName: "Item")
        update.predicate = nothing.predicate
        update.propertiesToUpdate = ["count": 1]
        _ = try store.execute(update)
        let listedDelete = NSBatchDeleteRequest(fetchRequest: nothing)
        listedDelete.resultType = .resultTypeObjectIDs
        _ = try store.execute(listedDelete)
        _ = try store.execute(NSBatchInsertRequest(entityName: "Item", objects: []))
        #expect(try store.transactions().count == 1)
    }

    @Test func aChangeKeepsItsTransactionAfterTheResultIsGone() throws {
        let store = try HistoryTestStore("history-change-owner")
        defer { store.close() }
        try store.insertItems(["a"])
        let changes = try store.transactions().flatMap { $0.changes ?? [] }
        #expect(changes.count == 1)
        #expect(changes.first?.transaction?.changes?.first?.changedObjectID == changes.first?.changedObjectID)
    }

    @Test func theHistoryOfSeveralStoresIsOrderedByTimeAndLimitedOnce() throws {
        let store = try HistoryTestStore("history-stores")
        defer { store.close() }
        let second = try store.stack.coordinator.addPersistentStore(
            ofType: NSSQLiteStoreType, configurationName: nil, at: store.directory.file("Second.sqlite"), options: HistoryTestStore.options)
        for (name, target) in [("a", store.stack.store), ("b", second), ("c", store.stack.store)] {
            try store.context.performAndWait {
                let item = NSEntityDescription.insertNewObject(forEntityName: "Item", into: store.context)
                item.setValue(name, forKey: "name")
                store.context.assign(item, to: target)
                try store.context.save()
            }
        }
        let transactions = try store.transactions()
        #expect(transactions.map(\.storeID) == [store.stack.store.identifier, second.identifier, store.stack.store.identifier].compactMap { $0 })
        #expect(transactions.map(\.timestamp) == transactions.map(\.timestamp).sorted())
        let firstTwo = try #require(NSPersistentHistoryTransaction.fetchRequest)
        firstTwo.fetchLimit = 2
        let limited = try store.history(.fetchHistory(withFetch: firstTwo)) as? [NSPersistentHistoryTransaction]
        #expect(limited?.map(\.storeID) == Array(transactions.map(\.storeID).prefix(2)))
    }

    /// A delete that cascades records a delete of each row it removes, and no update of the
    /// foreign keys that pointed from one deleted row to another.
    @Test func aCascadingBatchDeleteRecordsOnlyDeletes() throws {
        let folder = NSEntityDescription()
        folder.name = "Folder"
        let parent = MovieModel.relationship("parent", to: folder, toMany: false, deleteRule: .nullifyDeleteRule)
        let children = MovieModel.relationship("children", to: folder, toMany: true, deleteRule: .cascadeDeleteRule)
        parent.inverseRelationship = children
        children.inverseRelationship = parent
        folder.properties = [MovieModel.attribute("name", .stringAttributeType), parent, children]
        let model = NSManagedObjectModel()
        model.entities = [folder]
        let directory = try SQLiteScratchDirectory("history-cascade")
        defer { directory.remove() }
        let stack = try SQLiteTestStack(model: model, url: directory.file("Folders.sqlite"), options: HistoryTestStore.options)
        defer { stack.close() }
        let root = try stack.context.performAndWait {
            let root = NSEntityDescription.insertNewObject(forEntityName: "Folder", into: stack.context)
            let child = NSEntityDescription.insertNewObject(forEntityName: "Folder", into: stack.context)
            child.setValue(root, forKey: "parent")
            try stack.context.save()
            return root.objectID
        }
        let delete = NSBatchDeleteRequest(objectIDs: [root])
        delete.resultType = .resultTypeObjectIDs
        _ = try stack.context.performAndWait { try stack.context.execute(delete) }
        let result = try stack.context.performAndWait { try stack.context.execute(NSPersistentHistoryChangeRequest.fetchHistory(after: nil as NSPersistentHistoryToken?)) }
        let transactions = try #require((result as? NSPersistentHistoryResult)?.result as? [NSPersistentHistoryTransaction])
        #expect(transactions.last?.changes?.map(\.changeType) == [.delete, .delete])
    }

    @Test func aStoreWithoutHistoryRefusesHistoryRequests() throws {
        let directory = try SQLiteScratchDirectory("history-off")
        defer { directory.remove() }
        let stack = try SQLiteTestStack(model: HistoryTestStore.model(), url: directory.file("Plain.sqlite"))
        defer { stack.close() }
        let error = #expect(throws: NSError.self) {
            try stack.context.performAndWait { try stack.context.execute(NSPersistentHistoryChangeRequest.fetchHistory(after: Date.distantPast)) }
        }
        #expect(error?.code == NSPersistentStoreUnsupportedRequestTypeError)
        #expect(stack.coordinator.currentPersistentHistoryToken(fromStores: nil) == nil)
        #expect(try RawStoreSQL.rows(directory.file("Plain.sqlite"), "SELECT COUNT(*) FROM sqlite_master WHERE name = 'ATRANSACTION'") == [[.integer(0)]])
    }

    @Test(arguments: MigrationScenario.relationalStoreTypes)
    func aStoreThatRecordsHistoryOpensReadOnlyWithoutTheOption(storeType: String) throws {
        let store = try HistoryTestStore("history-readonly", storeType: storeType)
        defer { store.close() }
        try store.insertItems(["a"])
        let plain = try store.secondStack(withHistory: false)
        defer { plain.close() }
        #expect(plain.store.isReadOnly)
        try plain.context.performAndWait {
            NSEntityDescription.insertNewObject(forEntityName: "Item", into: plain.context).setValue("b", forKey: "name")
            #expect(throws: NSError.self) { try plain.context.save() }
            plain.context.rollback()
            let update = NSBatchUpdateRequest(entityName: "Item")
            update.propertiesToUpdate = ["count": 2]
            #expect(throws: NSError.self) { try plain.context.execute(update) }
        }
        if storeType == NSSQLiteStoreType {
            #expect(try RawStoreSQL.rows(store.url, "SELECT ZCOUNT FROM ZITEM") == [[.integer(7)]])
        }
        #expect(try store.transactions().count == 1)
    }

    /// Records each object change of a fetched results controller as "kind name old -> new".
    final class ChangeLog: NSFetchedResultsControllerDelegate {
        var changes: [String] = []

        func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>, didChange anObject: Any,
                        at indexPath: IndexPath?, for type: NSFetchedResultsChangeType, newIndexPath: IndexPath?) {
            let rows = "\(indexPath.map { "\($0.item)" } ?? "-") -> \(newIndexPath.map { "\($0.item)" } ?? "-")"
            let name = type == .delete ? "" : ((anObject as? NSManagedObject)?.value(forKey: "name") as? String ?? "?") + " "
            changes.append("\(type == .insert ? "insert" : type == .delete ? "delete" : type == .move ? "move" : "update") \(name)\(rows)")
        }
    }

    @Test(arguments: MigrationScenario.relationalStoreTypes)
    func mergingTransactionsBringsAnotherCoordinatorsContextAndControllerUpToDate(storeType: String) throws {
        let store = try HistoryTestStore("history-merge", storeType: storeType)
        defer { store.close() }
        let ids = try store.insertItems(["a", "b"])
        let reader = try store.secondStack()
        defer { reader.close() }
        let token = reader.coordinator.currentPersistentHistoryToken(fromStores: nil)
        let request = NSFetchRequest<NSManagedObject>(entityName: "Item")
        request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
        let controller = NSFetchedResultsController(fetchRequest: request, managedObjectContext: reader.context, sectionNameKeyPath: nil, cacheName: nil)
        let log = ChangeLog()
        controller.delegate = log
        try reader.context.performAndWait { try controller.performFetch() }
        let names = { reader.context.performAndWait { controller.fetchedObjects?.compactMap { $0.value(forKey: "name") as? String } ?? [] } }
        #expect(names() == ["a", "b"])
        #expect(reader.context.performAndWait { controller.fetchedObjects?.first?.value(forKey: "price") as? Double } == nil)

        try store.context.performAndWait {
            try store.context.existingObject(with: ids[0]).setValue(4.5, forKey: "price")
            store.context.delete(try store.context.existingObject(with: ids[1]))
            NSEntityDescription.insertNewObject(forEntityName: "Item", into: store.context).setValue("c", forKey: "name")
            try store.context.save()
        }
        #expect(names() == ["a", "b"])

        try reader.context.performAndWait {
            let result = try reader.context.execute(NSPersistentHistoryChangeRequest.fetchHistory(after: token)) as? NSPersistentHistoryResult
            for transaction in result?.result as? [NSPersistentHistoryTransaction] ?? [] {
                reader.context.mergeChanges(fromContextDidSave: transaction.objectIDNotification())
            }
        }
        #expect(names() == ["a", "c"])
        #expect(reader.context.performAndWait { controller.fetchedObjects?.first?.value(forKey: "price") as? Double } == 4.5)
        #expect(Set(log.changes) == ["update a 0 -> 0", "delete 1 -> -", "insert c - -> 1"])
    }
}

@Suite struct PersistentHistoryMigrationTests {
    @Test func aMigrationRenumbersTheChangesEntitiesAndRecordsItselfAsApplesDoes() throws {
        let scenario = try MigrationScenario("history")
        defer { scenario.directory.remove() }
        let source = HistoryTestStore.model()
        let first = try SQLiteTestStack(model: source, url: scenario.url, options: HistoryTestStore.options)
        try first.context.performAndWait {
            NSEntityDescription.insertNewObject(forEntityName: "Item", into: first.context).setValue("a", forKey: "name")
            NSEntityDescription.insertNewObject(forEntityName: "Tag", into: first.context).setValue("t", forKey: "name")
            try first.context.save()
        }
        first.close()

        // A new entity that sorts first moves every other entity's number up by one.
        let destination = HistoryTestStore.model()
        let aardvark = NSEntityDescription()
        aardvark.name = "Aardvark"
        aardvark.properties = [MovieModel.attribute("size", .integer32AttributeType)]
        destination.entities = [aardvark] + destination.entities
        try scenario.migrate(from: source, to: destination)

        let stack = try scenario.open(destination, options: HistoryTestStore.options)
        defer { stack.close() }
        let result = try stack.context.performAndWait { try stack.context.execute(NSPersistentHistoryChangeRequest.fetchHistory(after: nil as NSPersistentHistoryToken?)) }
        let transactions = try #require((result as? NSPersistentHistoryResult)?.result as? [NSPersistentHistoryTransaction])
        try #require(transactions.count == 2)
        #expect(transactions[0].changes?.compactMap(\.changedObjectID.entity.name).sorted() == ["Item", "Tag"])
        let digest = try #require(try RawStoreSQL.rows(scenario.url, "SELECT ZNAME FROM ATRANSACTIONSTRING WHERE ZNAME LIKE 'com.apple.coredata.schemamigrator%'").first?.first)
        #expect(transactions[1].author.map(SQLValue.text) == digest)
        #expect(transactions[1].author?.hasPrefix("com.apple.coredata.schemamigrator: lightweight migration from model with digest { ") == true)
        #expect(transactions[1].changes == [])
    }
}
