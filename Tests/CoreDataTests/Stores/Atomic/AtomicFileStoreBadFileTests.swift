import CoreData
import Testing

/// Binary and XML store files damaged in ways a reader must check beyond their syntax: a key
/// counter at its limit, a relationship to an object of another entity or to one the file
/// lacks, two objects with one key, a value of the wrong kind. Each is refused with 134080
/// and stays byte-identical; a read-only store is never created. And a save never writes a
/// file the store would refuse.
@Suite struct AtomicFileStoreBadFileTests {
    static let types: [NSPersistentStore.StoreType] = [.binary, .xml]

    typealias Kit = ModelFixtureKit

    /// Owner (a name, a to-many `items`) and Item (a text, a to-one `owner`).
    private static func model() -> NSManagedObjectModel {
        let item = Kit.entity("Item", [Kit.attribute("text", .stringAttributeType)])
        let owner = Kit.entity("Owner", [Kit.attribute("name", .stringAttributeType)])
        let items = Kit.relationship("items", to: item, maxCount: 0)
        let itemOwner = Kit.relationship("owner", to: owner, maxCount: 1)
        Kit.inverse(items, itemOwner)
        item.properties.append(itemOwner)
        owner.properties.append(items)
        return Kit.model([owner, item])
    }

    /// Saves owner 1 with items 2 and 3, and returns the file's bytes.
    private func writeStore(at url: URL, type: NSPersistentStore.StoreType) throws -> Data {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: Self.model())
        try coordinator.addPersistentStore(type: type, at: url)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            let owner = NSEntityDescription.insertNewObject(forEntityName: "Owner", into: context)
            owner.setValue("Ann", forKey: "name")
            for text in ["first", "second"] {
                let item = NSEntityDescription.insertNewObject(forEntityName: "Item", into: context)
                item.setValue(text, forKey: "text")
                item.setValue(owner, forKey: "owner")
            }
            try context.save()
        }
        return try Data(contentsOf: url)
    }

    private func expectRefused(_ data: Data, type: NSPersistentStore.StoreType, in directory: CtxTemporaryDirectory, _ comment: Comment) throws {
        let url = directory.url.appendingPathComponent("Damaged-\(UUID().uuidString).\(type.rawValue)")
        try data.write(to: url)
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: Self.model())
        #expect(throws: (any Error).self, comment) { try coordinator.addPersistentStore(type: type, at: url) }
        do {
            try coordinator.addPersistentStore(type: type, at: url)
        } catch {
            #expect((error as NSError).code == NSPersistentStoreOpenError, comment)
        }
        #expect(try Data(contentsOf: url) == data, comment)
    }

    // MARK: Editing files

    /// The XML file's text with one fragment replaced, which must be there.
    private func xml(_ data: Data, replacing original: String, with damaged: String) throws -> Data {
        let text = try #require(String(data: data, encoding: .utf8))
        #expect(text.contains(original), "\(original)")
        return Data(text.replacingOccurrences(of: original, with: damaged).utf8)
    }

    /// The binary file's top level, changed by `change` and written back as a binary property list.
    private func binary(_ data: Data, _ change: (inout [String: Any]) throws -> Void) throws -> Data {
        var root = try #require(try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
        try change(&root)
        return try PropertyListSerialization.data(fromPropertyList: root, format: .binary, options: 0)
    }

    /// The binary file's objects, changed by `change`.
    private func binaryObjects(_ data: Data, _ change: (inout [[String: Any]]) throws -> Void) throws -> Data {
        try binary(data) { root in
            var objects = try #require(root["objects"] as? [[String: Any]])
            try change(&objects)
            root["objects"] = objects
        }
    }

    /// The index of the binary file's object of an entity with a key.
    private func index(of entity: String, key: Int, in objects: [[String: Any]]) throws -> Int {
        try #require(objects.firstIndex { $0["entity"] as? String == entity && ($0["key"] as? NSNumber)?.intValue == key })
    }

    // MARK: Tests

    /// A file whose key counter, or one of whose keys, is at or just below the largest integer,
    /// where counting on overflows: no store gives out that many keys.
    @Test(arguments: types)
    func aKeyNearTheLargestIntegerIsRefused(type: NSPersistentStore.StoreType) throws {
        let directory = try CtxTemporaryDirectory()
        let valid = try writeStore(at: directory.url.appendingPathComponent("Valid.\(type.rawValue)"), type: type)
        for large in [Int64.max, Int64.max - 1] {
            switch type {
            case .xml:
                try expectRefused(try xml(valid, replacing: "<nextObjectID>3<", with: "<nextObjectID>\(large)<"), type: type, in: directory, "counter \(large)")
                try expectRefused(try xml(valid, replacing: "z3", with: "z\(large)"), type: type, in: directory, "key \(large)")
            default:
                try expectRefused(try binary(valid) { $0["lastKey"] = NSNumber(value: large) }, type: type, in: directory, "counter \(large)")
                try expectRefused(try binaryKeyReplaced(3, with: large, in: valid), type: type, in: directory, "key \(large)")
            }
        }
    }

    /// The binary file with an object's key, and every reference to it, replaced.
    private func binaryKeyReplaced(_ key: Int, with newKey: Int64, in data: Data) throws -> Data {
        try binaryObjects(data) { objects in
            for index in objects.indices {
                if (objects[index]["key"] as? NSNumber)?.intValue == key { objects[index]["key"] = NSNumber(value: newKey) }
                let relationships = try #require(objects[index]["relationships"] as? [String: [[Any]]])
                objects[index]["relationships"] = relationships.mapValues { destinations in
                    destinations.map { pair in (pair[1] as? NSNumber)?.intValue == key ? [pair[0], NSNumber(value: newKey)] : pair }
                }
            }
        }
    }

    /// An item whose `owner` is another item: read as it is, the item's owner would be an
    /// object without the owner's properties.
    @Test(arguments: types)
    func aRelationshipToAnObjectOfAnotherEntityIsRefused(type: NSPersistentStore.StoreType) throws {
        let directory = try CtxTemporaryDirectory()
        let valid = try writeStore(at: directory.url.appendingPathComponent("Valid.\(type.rawValue)"), type: type)
        let damaged = switch type {
        case .xml:
            try xml(valid, replacing: "destination=\"OWNER\" idrefs=\"z1\"", with: "destination=\"OWNER\" idrefs=\"z2\"")
        default:
            try binaryObjects(valid) { objects in
                let item = try index(of: "Item", key: 3, in: objects)
                var relationships = try #require(objects[item]["relationships"] as? [String: Any])
                relationships["owner"] = [["Item", NSNumber(value: 2)]]
                objects[item]["relationships"] = relationships
            }
        }
        try expectRefused(damaged, type: type, in: directory, "owner")
    }

    /// The binary store refuses what the XML store refuses: a destination the file lacks, two
    /// objects with one key, a value not of its attribute's type.
    @Test func damagedBinaryStoresAreRefused() throws {
        let directory = try CtxTemporaryDirectory()
        let valid = try writeStore(at: directory.url.appendingPathComponent("Valid.binary"), type: .binary)
        let dangling = try binaryObjects(valid) { objects in
            let item = try index(of: "Item", key: 3, in: objects)
            var relationships = try #require(objects[item]["relationships"] as? [String: Any])
            relationships["owner"] = [["Owner", NSNumber(value: 99)]]
            objects[item]["relationships"] = relationships
        }
        try expectRefused(dangling, type: .binary, in: directory, "dangling")
        let duplicate = try binaryObjects(valid) { objects in
            objects[try index(of: "Item", key: 3, in: objects)]["key"] = NSNumber(value: 2)
        }
        try expectRefused(duplicate, type: .binary, in: directory, "duplicate")
        let wrongKind = try binaryObjects(valid) { objects in
            let item = try index(of: "Item", key: 3, in: objects)
            objects[item]["attributes"] = ["text": NSNumber(value: 7)]
        }
        try expectRefused(wrongKind, type: .binary, in: directory, "value")
    }

    /// As the SQLite store, an atomic store opened read-only where there is no file is refused,
    /// and no file is made.
    @Test(arguments: types)
    func aReadOnlyStoreWithoutAFileIsRefusedAndNoFileIsMade(type: NSPersistentStore.StoreType) throws {
        let directory = try CtxTemporaryDirectory()
        let url = directory.url.appendingPathComponent("Missing.\(type.rawValue)")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: Self.model())
        #expect(throws: (any Error).self) {
            try coordinator.addPersistentStore(type: type, at: url, options: [NSReadOnlyPersistentStoreOption: true])
        }
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }
}

extension AtomicFileStoreBadFileTests {
    /// A file without a UUID (an empty `<UUID>`, binary metadata without `NSStoreUUID`) opens
    /// with a new one, as metadata always holds one: object IDs and their URIs need it.
    @Test(arguments: types)
    func aStoreWithoutAUUIDIsGivenOne(type: NSPersistentStore.StoreType) throws {
        let directory = try CtxTemporaryDirectory()
        let valid = try writeStore(at: directory.url.appendingPathComponent("Valid.\(type.rawValue)"), type: type)
        let withoutUUID = switch type {
        case .xml:
            try Self.xmlWithoutUUID(valid)
        default:
            try binary(valid) { root in
                var metadata = try #require(root["metadata"] as? [String: Any])
                metadata[NSStoreUUIDKey] = nil
                root["metadata"] = metadata
            }
        }
        let url = directory.url.appendingPathComponent("WithoutUUID.\(type.rawValue)")
        try withoutUUID.write(to: url)
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: Self.model())
        let store = try coordinator.addPersistentStore(type: type, at: url)
        let identifier = try #require(store.identifier)
        #expect(store.metadata[NSStoreUUIDKey] as? String == identifier)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            let owner = try #require(try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Owner")).first)
            #expect(coordinator.managedObjectID(forURIRepresentation: owner.objectID.uriRepresentation()) == owner.objectID)
        }
    }

    private static func xmlWithoutUUID(_ data: Data) throws -> Data {
        let text = try #require(String(data: data, encoding: .utf8))
        let start = try #require(text.range(of: "<UUID>"))
        let end = try #require(text.range(of: "</UUID>"))
        return Data(text.replacingCharacters(in: start.upperBound..<end.lowerBound, with: "").utf8)
    }
}

extension AtomicFileStoreBadFileTests {
    /// Deleting an owner whose relationships have no delete rule leaves its items pointing at
    /// it; the file leaves the deleted owner out of their relationships, so that it opens again.
    @Test(arguments: types)
    func aDestinationDeletedUnderNoActionIsNotWritten(type: NSPersistentStore.StoreType) throws {
        let item = Kit.entity("Item", [Kit.attribute("text", .stringAttributeType)])
        let owner = Kit.entity("Owner", [Kit.attribute("name", .stringAttributeType)])
        let items = Kit.relationship("items", to: item, maxCount: 0, deleteRule: .noActionDeleteRule)
        let itemOwner = Kit.relationship("owner", to: owner, maxCount: 1, deleteRule: .noActionDeleteRule)
        Kit.inverse(items, itemOwner)
        item.properties.append(itemOwner)
        owner.properties.append(items)
        let model = Kit.model([owner, item])
        let directory = try CtxTemporaryDirectory()
        let url = directory.url.appendingPathComponent("NoAction.\(type.rawValue)")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: type, at: url)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            let owner = NSEntityDescription.insertNewObject(forEntityName: "Owner", into: context)
            NSEntityDescription.insertNewObject(forEntityName: "Item", into: context).setValue(owner, forKey: "owner")
            try context.save()
            context.delete(owner)
            try context.save()
        }
        let reopened = NSPersistentStoreCoordinator(managedObjectModel: model)
        try reopened.addPersistentStore(type: type, at: url)
        let readingContext = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        readingContext.persistentStoreCoordinator = reopened
        try readingContext.performAndWait {
            let item = try #require(try readingContext.fetch(NSFetchRequest<NSManagedObject>(entityName: "Item")).first)
            #expect(item.value(forKey: "owner") == nil)
        }
    }
}
