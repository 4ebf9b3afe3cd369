@testable import CoreData
import Testing

/// Batch requests through the coordinator: their types, defaults, and stores that refuse them.
@Suite struct BatchRequestTests {
    @Test func requestsDescribeThemselvesAsApplesDo() {
        let update = NSBatchUpdateRequest(entityName: "Item")
        #expect(update.requestType == .batchUpdateRequestType)
        #expect(update.includesSubentities)
        #expect(update.resultType == .statusOnlyResultType)
        let delete = NSBatchDeleteRequest(fetchRequest: NSFetchRequest(entityName: "Item"))
        #expect(delete.requestType == .batchDeleteRequestType)
        #expect(delete.resultType == .resultTypeStatusOnly)
        #expect(delete.fetchRequest.entityName == "Item")
        let insert = NSBatchInsertRequest(entityName: "Item", objects: [["name": "a"]])
        #expect(insert.requestType == .batchInsertRequestType)
        #expect(insert.resultType == .statusOnly)
        #expect(insert.entityName == "Item")
        #expect(insert.objectsToInsert?.count == 1)
    }

    @Test func anInMemoryStoreRefusesBatchRequests() throws {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: BatchModel.make())
        try coordinator.addPersistentStore(ofType: NSInMemoryStoreType, configurationName: nil, at: nil)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            NSEntityDescription.insertNewObject(forEntityName: "Item", into: context).setValue("a", forKey: "name")
            try context.save()
        }
        let update = NSBatchUpdateRequest(entityName: "Item")
        update.propertiesToUpdate = ["count": 1]
        let requests: [NSPersistentStoreRequest] = [
            update,
            NSBatchDeleteRequest(fetchRequest: NSFetchRequest(entityName: "Item")),
            NSBatchInsertRequest(entityName: "Item", objects: [["name": "b"]]),
        ]
        for request in requests {
            let error = #expect(throws: NSError.self) { try context.performAndWait { try context.execute(request) } }
            #expect(error?.domain == NSCocoaErrorDomain)
            #expect(error?.code == NSPersistentStoreUnsupportedRequestTypeError)
            let direct = #expect(throws: NSError.self) { try context.performAndWait { try coordinator.execute(request, with: context) } }
            #expect(direct?.code == NSPersistentStoreUnsupportedRequestTypeError)
        }
        let count = try context.performAndWait { try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Item")) }
        #expect(count == 1)
    }

    @Test func theCoordinatorExecutesAFetchRequestAndRefusesOtherRequests() throws {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: BatchModel.make())
        try coordinator.addPersistentStore(ofType: NSInMemoryStoreType, configurationName: nil, at: nil)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        let names = try context.performAndWait { () throws -> [String] in
            NSEntityDescription.insertNewObject(forEntityName: "Item", into: context).setValue("a", forKey: "name")
            try context.save()
            let fetched = try coordinator.execute(NSFetchRequest<NSManagedObject>(entityName: "Item"), with: context) as? [NSManagedObject]
            return fetched?.compactMap { $0.value(forKey: "name") as? String } ?? []
        }
        #expect(names == ["a"])
        let error = #expect(throws: NSError.self) { try context.performAndWait { try coordinator.execute(NSPersistentStoreRequest(), with: context) } }
        #expect(error?.code == NSPersistentStoreUnsupportedRequestTypeError)
    }
}
