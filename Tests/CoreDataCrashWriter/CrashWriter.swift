import CoreData

/// A coordinator on a store file that makes a writer's saves, as `CrashPlan` describes them,
/// through the public API only. Each save's transaction author is the writer's name, which the
/// store's persistent history records when `recordsHistory` opened it with history tracking.
final class CrashWriter {
    let plan: CrashPlan
    private let coordinator: NSPersistentStoreCoordinator
    private let context: NSManagedObjectContext

    init(storeURL: URL, writer: String, recordsHistory: Bool = false) throws {
        plan = CrashPlan(writer: writer)
        coordinator = NSPersistentStoreCoordinator(managedObjectModel: CrashModel.make())
        let options = recordsHistory ? [NSPersistentHistoryTrackingKey: true as NSNumber] : nil
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: storeURL, options: options)
        context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        context.transactionAuthor = writer
    }

    /// Makes save number `number`; when it returns, the save has committed.
    func save(_ number: Int) throws {
        try context.performAndWait {
            defer { context.reset() }
            let previous = try batch(number - 1)
            let batch = insert("Batch", ["writer": plan.writer, "number": number, "followedBy": 0])
            let tag = insert("Tag", ["name": plan.tagName(batch: number)])
            batch.setValue(tag, forKey: "tag")
            let tags = NSSet(array: [tag] + [previous?.value(forKey: "tag")].compactMap { $0 })
            for index in 0..<plan.itemCount(batch: number) {
                let item = insert("Item", [
                    "name": plan.itemName(batch: number, item: index),
                    "index": index,
                    "payload": plan.payload(batch: number, item: index),
                ])
                item.setValue(plan.attachment(batch: number, item: index, revision: 0), forKey: "attachment")
                item.setValue(batch, forKey: "batch")
                item.setValue(tags, forKey: "tags")
            }
            previous?.setValue(number, forKey: "followedBy")
            if let replaced = try firstItem(ofBatch: number - 2) {
                replaced.setValue(plan.attachment(batch: number - 2, item: 0, revision: 1), forKey: "attachment")
            }
            if let expired = try self.batch(number - CrashPlan.window) {
                context.delete(expired)
            }
            try context.save()
        }
    }

    /// The number of batches of every writer, as `count(for:)` reads it.
    func batchCount() throws -> Int {
        try context.performAndWait {
            try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Batch"))
        }
    }

    /// The number of items of every batch, read through each batch's `items` relationship.
    func itemCountThroughBatches() throws -> Int {
        try context.performAndWait {
            defer { context.reset() }
            let batches = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Batch"))
            return batches.reduce(0) { count, batch in count + ((batch.value(forKey: "items") as? NSSet)?.count ?? 0) }
        }
    }

    func close() {
        for store in coordinator.persistentStores {
            try? coordinator.remove(store)
        }
    }

    private func insert(_ entityName: String, _ values: [String: Any]) -> NSManagedObject {
        let object = NSEntityDescription.insertNewObject(forEntityName: entityName, into: context)
        object.setValuesForKeys(values)
        return object
    }

    private func batch(_ number: Int) throws -> NSManagedObject? {
        guard number > 0 else { return nil }
        let request = NSFetchRequest<NSManagedObject>(entityName: "Batch")
        request.predicate = NSPredicate(format: "writer == %@ AND number == %ld", plan.writer, number)
        return try context.fetch(request).first
    }

    private func firstItem(ofBatch number: Int) throws -> NSManagedObject? {
        guard number > 0 else { return nil }
        let request = NSFetchRequest<NSManagedObject>(entityName: "Item")
        request.predicate = NSPredicate(format: "batch.writer == %@ AND batch.number == %ld AND index == 0", plan.writer, number)
        return try context.fetch(request).first
    }
}
