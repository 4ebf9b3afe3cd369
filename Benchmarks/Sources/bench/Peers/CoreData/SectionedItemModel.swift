#if canImport(CoreData)
import CoreData

/// The model of W6's fetched results controller, built in code: one entity `SectionedItem` with a
/// String `section` and Int64 `score` and `serial` (``SectionedItemTable``), no index.
enum SectionedItemModel {
    /// The model (a new instance each time, as each stack builds its own).
    static func make() -> NSManagedObjectModel {
        let entity = NSEntityDescription()
        entity.name = SectionedItemTable.entityName
        let attributes: [(String, NSAttributeType)] = [
            (SectionedItemTable.scoreKey, .integer64AttributeType),
            (SectionedItemTable.sectionKey, .stringAttributeType),
            (SectionedItemTable.serialKey, .integer64AttributeType),
        ]
        entity.properties = attributes.map { name, type in
            let attribute = NSAttributeDescription()
            attribute.name = name
            attribute.attributeType = type
            attribute.isOptional = true
            return attribute
        }
        let model = NSManagedObjectModel()
        model.entities = [entity]
        return model
    }

    /// Creates a store at `url` holding `count` objects with the values of
    /// ``SectionedItemTable/values(at:count:)``, inserted with `insertNewObject(forEntityName:into:)`
    /// and `setValue(_:forKey:)` and saved by our Core Data in one save, and closes it. W6's
    /// fixture builder, so that the store carries our schema and metadata tables.
    static func createStore(at url: URL, count: Int, settings: StoreSettings) throws {
        let stack = try CoreDataItemStack(storeURL: url, settings: settings, model: make())
        let context = stack.context
        try context.performAndWait {
            for index in 0..<count {
                let values = SectionedItemTable.values(at: index, count: count)
                insert(section: SectionedItemTable.sectionName(values.section), score: values.score, serial: values.serial, into: context)
            }
            try context.save()
        }
        try stack.close()
    }

    /// Inserts one object. Call it on the context's queue.
    private static func insert(section: String, score: Int64, serial: Int64, into context: NSManagedObjectContext) {
        let object = NSEntityDescription.insertNewObject(forEntityName: SectionedItemTable.entityName, into: context)
        object.setValue(section, forKey: SectionedItemTable.sectionKey)
        object.setValue(NSNumber(value: score), forKey: SectionedItemTable.scoreKey)
        object.setValue(NSNumber(value: serial), forKey: SectionedItemTable.serialKey)
    }

    /// The controller's request: every object, sorted by `section`, `score` and `serial`,
    /// `fetchBatchSize = 50` (spec §7.2).
    static func controllerRequest() -> NSFetchRequest<NSManagedObject> {
        let request = NSFetchRequest<NSManagedObject>(entityName: SectionedItemTable.entityName)
        request.sortDescriptors = sortDescriptors
        request.fetchBatchSize = 50
        return request
    }

    /// The controller's order.
    static var sortDescriptors: [NSSortDescriptor] {
        [SectionedItemTable.sectionKey, SectionedItemTable.scoreKey, SectionedItemTable.serialKey].map {
            NSSortDescriptor(key: $0, ascending: true)
        }
    }

    /// A controller of the objects in sections by `section`, without cache.
    static func makeController(in context: NSManagedObjectContext) -> NSFetchedResultsController<NSManagedObject> {
        NSFetchedResultsController(
            fetchRequest: controllerRequest(), managedObjectContext: context,
            sectionNameKeyPath: SectionedItemTable.sectionKey, cacheName: nil)
    }

    /// ``SectionedItemTable/sectionChecksum(sizes:)`` of a controller's sections. Call it on the
    /// context's queue.
    static func checksum(of controller: NSFetchedResultsController<NSManagedObject>) -> Int64 {
        SectionedItemTable.sectionChecksum(sizes: (controller.sections ?? []).lazy.map(\.numberOfObjects))
    }

    /// Makes W6b's changes in `context`, unsaved: fetches the objects to update and delete by
    /// `serial`, sets their new `score` or `section`, deletes, and inserts the new objects. Call
    /// it on the context's queue.
    static func makeChanges(_ changes: SectionedItemTable.Changes, in context: NSManagedObjectContext, peer: String) throws {
        let serials = changes.scores.map(\.serial) + changes.sections.map(\.serial) + changes.deletes
        let request = NSFetchRequest<NSManagedObject>(entityName: SectionedItemTable.entityName)
        request.predicate = NSPredicate(format: "serial IN %@", serials.map { NSNumber(value: $0) })
        var objects: [Int64: NSManagedObject] = [:]
        for object in try context.fetch(request) {
            let serialKey = SectionedItemTable.serialKey
            objects[try CoreDataItemStack.int64(object.value(forKey: serialKey), key: serialKey, peer: peer)] = object
        }
        guard objects.count == serials.count else {
            throw BenchmarkError.unexpectedValue(peer: peer, detail: "fetched \(objects.count) of the \(serials.count) objects to change")
        }
        for (serial, score) in changes.scores {
            objects[serial]!.setValue(NSNumber(value: score), forKey: SectionedItemTable.scoreKey)
        }
        for (serial, section) in changes.sections {
            objects[serial]!.setValue(section, forKey: SectionedItemTable.sectionKey)
        }
        for serial in changes.deletes {
            context.delete(objects[serial]!)
        }
        for (serial, section, score) in changes.inserts {
            insert(section: section, score: score, serial: serial, into: context)
        }
    }
}
#endif
