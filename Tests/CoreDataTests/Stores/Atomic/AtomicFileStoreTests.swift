import CoreData
import Testing

/// The binary store (`NSBinaryStoreType`): every attribute type and relationship kind survive a
/// save and a new coordinator; the file is checked when read; a store written with another model
/// is refused with 134100; metadata without a coordinator.
@Suite struct BinaryStoreTests {
    typealias Kit = ModelFixtureKit

    /// Item (one attribute per type, a to-one `owner`) and Owner (an ordered to-many `items`).
    private static func model(extra: Bool = false) -> NSManagedObjectModel {
        var attributes: [NSPropertyDescription] = [
            Kit.attribute("text", .stringAttributeType), Kit.attribute("small", .integer16AttributeType),
            Kit.attribute("large", .integer64AttributeType), Kit.attribute("real", .doubleAttributeType),
            Kit.attribute("single", .floatAttributeType), Kit.attribute("flag", .booleanAttributeType),
            Kit.attribute("when", .dateAttributeType), Kit.attribute("bytes", .binaryDataAttributeType),
            Kit.attribute("amount", .decimalAttributeType), Kit.attribute("uuid", .UUIDAttributeType),
            Kit.attribute("link", .URIAttributeType),
        ]
        if extra { attributes.append(Kit.attribute("added", .stringAttributeType)) }
        let item = Kit.entity("Item", attributes)
        let owner = Kit.entity("Owner", [Kit.attribute("name", .stringAttributeType)])
        let items = Kit.relationship("items", to: item, maxCount: 0, ordered: true)
        let itemOwner = Kit.relationship("owner", to: owner, maxCount: 1)
        Kit.inverse(items, itemOwner)
        item.properties.append(itemOwner)
        owner.properties.append(items)
        return Kit.model([item, owner])
    }

    private struct Stack {
        let coordinator: NSPersistentStoreCoordinator
        let context: NSManagedObjectContext
    }

    private func open(_ url: URL, type: NSPersistentStore.StoreType = .binary, model: NSManagedObjectModel = model()) throws -> Stack {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: type, at: url)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return Stack(coordinator: coordinator, context: context)
    }

    private static var values: [String: Any] { [
        "text": "héllo", "small": NSNumber(value: Int16(-7)), "large": NSNumber(value: Int64.max), "real": NSNumber(value: 2.5),
        "single": NSNumber(value: Float(1.25)), "flag": NSNumber(value: true), "when": Date(timeIntervalSinceReferenceDate: 123.5),
        "bytes": Data([0, 1, 254]), "amount": NSDecimalNumber(string: "12345.6789"),
        "uuid": UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!, "link": URL(string: "https://example.com/a?b=c")!,
    ] }

    /// Saves an owner with three items, the first holding a value of every type.
    private func writeShelf(at url: URL, type: NSPersistentStore.StoreType = .binary) throws {
        let stack = try open(url, type: type)
        try stack.context.performAndWait {
            let owner = NSEntityDescription.insertNewObject(forEntityName: "Owner", into: stack.context)
            owner.setValue("Ann", forKey: "name")
            var items: [NSManagedObject] = []
            for index in 0..<3 {
                let item = NSEntityDescription.insertNewObject(forEntityName: "Item", into: stack.context)
                item.setValue("item \(index)", forKey: "text")
                items.append(item)
            }
            for (key, value) in Self.values { items[0].setValue(value, forKey: key) }
            owner.setValue(NSOrderedSet(array: [items[2], items[0], items[1]]), forKey: "items")
            try stack.context.save()
        }
    }

    /// A saved shelf in a scratch directory, which the caller keeps while it uses the file.
    private func shelfFile() throws -> (CtxTemporaryDirectory, URL) {
        let directory = try CtxTemporaryDirectory()
        let url = directory.url.appendingPathComponent("Shelf.binary")
        try writeShelf(at: url)
        return (directory, url)
    }

    @Test func everyValueAndTheOrderOfAToManyRelationshipSurviveANewCoordinator() throws {
        let (directory, url) = try shelfFile()
        defer { withExtendedLifetime(directory) {} }
        try expectShelf(in: try open(url))
    }

    /// Expects the shelf `writeShelf` saved: the owner's items in their order, every value of the
    /// full one, and relationships both ways.
    private func expectShelf(in stack: Stack) throws {
        try stack.context.performAndWait {
            let owner = try #require(stack.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Owner")).first)
            let items = try #require(owner.value(forKey: "items") as? NSOrderedSet).array.compactMap { $0 as? NSManagedObject }
            #expect(items.map { $0.value(forKey: "text") as? String } == ["item 2", "héllo", "item 1"])
            let full = items[1]
            for (key, value) in Self.values where key != "text" {
                #expect("\(full.value(forKey: key) ?? "nil")" == "\(value)", "\(key)")
            }
            #expect((full.value(forKey: "owner") as? NSManagedObject) === owner)
        }
    }

    @Test func migratingBetweenSQLiteAndBinaryKeepsEveryObjectValueAndOrder() throws {
        let directory = try CtxTemporaryDirectory()
        let sqlite = directory.url.appendingPathComponent("Shelf.sqlite")
        try writeShelf(at: sqlite, type: .sqlite)
        let original = try open(sqlite, type: .sqlite)
        let binary = directory.url.appendingPathComponent("Moved.binary")
        let moved = try original.coordinator.migratePersistentStore(original.coordinator.persistentStores[0], to: binary, type: .binary)
        #expect(moved.type == NSBinaryStoreType)
        try expectShelf(in: try open(binary))

        let fromBinary = try open(binary)
        let back = directory.url.appendingPathComponent("Back.sqlite")
        _ = try fromBinary.coordinator.migratePersistentStore(fromBinary.coordinator.persistentStores[0], to: back, type: .sqlite)
        try expectShelf(in: try open(back, type: .sqlite))
    }

    @Test func insertsUpdatesAndDeletesAfterReopeningKeepKeysUnique() throws {
        let (directory, url) = try shelfFile()
        defer { withExtendedLifetime(directory) {} }
        let stack = try open(url)
        try stack.context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Item")
            request.predicate = NSPredicate(format: "text == %@", "item 1")
            let item = try #require(stack.context.fetch(request).first)
            stack.context.delete(item)
            let added = NSEntityDescription.insertNewObject(forEntityName: "Item", into: stack.context)
            added.setValue("new", forKey: "text")
            try stack.context.save()
            #expect(added.objectID.uriRepresentation().lastPathComponent == "p4")
        }
        let reopened = try open(url)
        let texts = try reopened.context.performAndWait {
            try reopened.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Item")).compactMap { $0.value(forKey: "text") as? String }.sorted()
        }
        #expect(texts == ["héllo", "item 2", "new"])
    }

    @Test func filesThatAreNotBinaryStoresAreRefusedWith134080AndLeftAsTheyWere() throws {
        let directory = try CtxTemporaryDirectory()
        let valid = directory.url.appendingPathComponent("Valid.binary")
        try writeShelf(at: valid)
        let validData = try Data(contentsOf: valid)
        let foreign = try PropertyListSerialization.data(fromPropertyList: ["format": "something else"], format: .binary, options: 0)
        for (name, data) in [("text", Data("not a store".utf8)), ("truncated", validData.prefix(validData.count / 2)), ("foreign", foreign)] {
            let url = directory.url.appendingPathComponent("\(name).binary")
            try data.write(to: url)
            let coordinator = NSPersistentStoreCoordinator(managedObjectModel: Self.model())
            #expect { try coordinator.addPersistentStore(type: .binary, at: url) } throws: { ($0 as NSError).code == NSPersistentStoreOpenError }
            #expect(try Data(contentsOf: url) == data, "\(name)")
        }
    }

    @Test func aStoreOfAnotherModelVersionIsRefusedWith134100AndItsMetadataReadsWithoutACoordinator() throws {
        let (directory, url) = try shelfFile()
        defer { withExtendedLifetime(directory) {} }
        let before = try Data(contentsOf: url)
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: Self.model(extra: true))
        #expect { try coordinator.addPersistentStore(type: .binary, at: url) } throws: { ($0 as NSError).code == NSPersistentStoreIncompatibleVersionHashError }
        #expect(try Data(contentsOf: url) == before)

        let metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(type: .binary, at: url)
        #expect(metadata[NSStoreTypeKey] as? String == NSBinaryStoreType)
        #expect(Self.model().isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata))
        try NSPersistentStoreCoordinator.setMetadata(["Imported": "yes"], type: .binary, at: url)
        #expect(try NSPersistentStoreCoordinator.metadataForPersistentStore(type: .binary, at: url)["Imported"] as? String == "yes")
        #expect(try open(url).coordinator.persistentStores.first?.metadata["Imported"] as? String == "yes")
    }
}
