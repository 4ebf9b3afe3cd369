/// Copies every object of one store into another through two contexts, keeping attribute values
/// and relationships (with their order); the copies get the destination store's object IDs.
/// It reads the whole store into memory, as Apple's `migratePersistentStore` does.
struct StoreCopy {
    let source: NSPersistentStore
    let sourceCoordinator: NSPersistentStoreCoordinator
    let destinationCoordinator: NSPersistentStoreCoordinator

    func run() throws {
        let reader = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        reader.persistentStoreCoordinator = sourceCoordinator
        let writer = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        writer.persistentStoreCoordinator = destinationCoordinator
        try reader.performAndWait {
            try writer.performAndWait {
                var copies: [NSManagedObjectID: NSManagedObject] = [:]
                var originals: [NSManagedObject] = []
                for entity in sourceCoordinator.managedObjectModel.entities where !entity.isAbstract {
                    for original in try objects(of: entity, in: reader) {
                        let copy = NSManagedObject(entity: entity, insertInto: writer)
                        for (name, attribute) in entity.attributesByName where !attribute.isTransient {
                            copy.setValue(original.value(forKey: name), forKey: name)
                        }
                        copies[original.objectID] = copy
                        originals.append(original)
                    }
                }
                for original in originals {
                    guard let copy = copies[original.objectID] else { continue }
                    for (name, relationship) in original.entity.relationshipsByName where !relationship.isTransient {
                        copy.setValue(Self.copied(original.value(forKey: name), through: copies), forKey: name)
                    }
                }
                try writer.save()
            }
        }
    }

    /// The objects of exactly `entity` (not its sub-entities) in the source store.
    private func objects(of entity: NSEntityDescription, in context: NSManagedObjectContext) throws -> [NSManagedObject] {
        let request = NSFetchRequest<NSManagedObject>(entityName: entity.name ?? "")
        request.includesSubentities = false
        request.affectedStores = [source]
        request.returnsObjectsAsFaults = false
        return try context.fetch(request)
    }

    /// A relationship value with each destination replaced by its copy.
    private static func copied(_ value: Any?, through copies: [NSManagedObjectID: NSManagedObject]) -> Any? {
        switch value {
        case let object as NSManagedObject:
            return copies[object.objectID]
        case let ordered as NSOrderedSet:
            return NSOrderedSet(array: ordered.array.compactMap { ($0 as? NSManagedObject).flatMap { copies[$0.objectID] } })
        case let set as NSSet:
            return NSSet(array: set.allObjects.compactMap { ($0 as? NSManagedObject).flatMap { copies[$0.objectID] } })
        default:
            return nil
        }
    }
}
