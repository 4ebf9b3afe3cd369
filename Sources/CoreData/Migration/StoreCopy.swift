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
                // Relationship values are read right after their entity's fetch, while what it
                // prefetched is still in the context (the next prefetching fetch replaces it).
                var links: [(copy: NSManagedObject, name: String, value: Any?)] = []
                for entity in sourceCoordinator.managedObjectModel.entities where !entity.isAbstract {
                    let relationships = entity.relationshipsByName.filter { !$0.value.isTransient }.map(\.key)
                    for original in try objects(of: entity, prefetching: relationships, in: reader) {
                        let copy = NSManagedObject(entity: entity, insertInto: writer)
                        for (name, attribute) in entity.attributesByName where !attribute.isTransient {
                            copy.setValue(original.value(forKey: name), forKey: name)
                        }
                        copies[original.objectID] = copy
                        links += relationships.map { (copy, $0, original.value(forKey: $0)) }
                    }
                }
                for link in links {
                    link.copy.setValue(Self.copied(link.value, through: copies), forKey: link.name)
                }
                try writer.save()
            }
        }
    }

    /// The objects of exactly `entity` (not its sub-entities) in the source store.
    private func objects(of entity: NSEntityDescription, prefetching relationships: [String], in context: NSManagedObjectContext) throws -> [NSManagedObject] {
        let request = NSFetchRequest<NSManagedObject>(entityName: entity.name ?? "")
        request.includesSubentities = false
        request.affectedStores = [source]
        request.returnsObjectsAsFaults = false
        // One query per relationship for the whole entity, not one per object.
        request.relationshipKeyPathsForPrefetching = relationships
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
