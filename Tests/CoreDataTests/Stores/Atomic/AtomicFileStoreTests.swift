import CoreData
import Testing

/// The binary and XML stores (`NSBinaryStoreType`, `NSXMLStoreType`): every attribute type and
/// relationship kind survive a save and a new coordinator; the file is checked when read; a
/// store written with another model is refused with 134100; metadata without a coordinator.
@Suite struct AtomicFileStoreTests {
    static let types: [NSPersistentStore.StoreType] = [.binary, .xml]

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

    private func open(_ url: URL, type: NSPersistentStore.StoreType, model: NSManagedObjectModel = model()) throws -> Stack {
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
    private func writeShelf(at url: URL, type: NSPersistentStore.StoreType) throws {
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
    private func shelfFile(_ type: NSPersistentStore.StoreType) throws -> (CtxTemporaryDirectory, URL) {
        let directory = try CtxTemporaryDirectory()
        let url = directory.url.appendingPathComponent("Shelf.\(type.rawValue)")
        try writeShelf(at: url, type: type)
        return (directory, url)
    }

    @Test(arguments: types)
    func everyValueAndTheOrderOfAToManyRelationshipSurviveANewCoordinator(type: NSPersistentStore.StoreType) throws {
        let (directory, url) = try shelfFile(type)
        defer { withExtendedLifetime(directory) {} }
        try expectShelf(in: try open(url, type: type))
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

    /// Moves the shelf through every store type in turn, in memory included, and back to SQLite.
    @Test func migratingThroughEveryStoreTypeKeepsEveryObjectValueAndOrder() throws {
        let directory = try CtxTemporaryDirectory()
        let sqlite = directory.url.appendingPathComponent("Shelf.sqlite")
        try writeShelf(at: sqlite, type: .sqlite)
        var stack = try open(sqlite, type: .sqlite)
        let route: [NSPersistentStore.StoreType] = [.binary, .xml, .inMemory, .xml, .binary, .sqlite]
        for (step, type) in route.enumerated() {
            let url = directory.url.appendingPathComponent("Step\(step).\(type.rawValue)")
            let moved = try stack.coordinator.migratePersistentStore(stack.coordinator.persistentStores[0], to: url, type: type)
            #expect(moved.type == type.rawValue)
            let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
            context.persistentStoreCoordinator = stack.coordinator
            stack = Stack(coordinator: stack.coordinator, context: context)
            try expectShelf(in: type == .inMemory ? stack : try open(url, type: type))
        }
    }

    @Test(arguments: types)
    func insertsUpdatesAndDeletesAfterReopeningKeepKeysUnique(type: NSPersistentStore.StoreType) throws {
        let (directory, url) = try shelfFile(type)
        defer { withExtendedLifetime(directory) {} }
        let stack = try open(url, type: type)
        try stack.context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Item")
            request.predicate = NSPredicate(format: "text == %@", "item 1")
            let item = try #require(stack.context.fetch(request).first)
            stack.context.delete(item)
            let added = NSEntityDescription.insertNewObject(forEntityName: "Item", into: stack.context)
            added.setValue("new", forKey: "text")
            try stack.context.save()
            // Owner 1 and items 2, 3 and 4 were saved first: the new object takes the next
            // key, not the deleted item's.
            #expect(added.objectID.uriRepresentation().lastPathComponent == "p5")
        }
        let reopened = try open(url, type: type)
        let texts = try reopened.context.performAndWait {
            try reopened.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Item")).compactMap { $0.value(forKey: "text") as? String }.sorted()
        }
        #expect(texts == ["héllo", "item 2", "new"])
        let deleting = try open(url, type: type)
        try deleting.context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Item")
            request.predicate = NSPredicate(format: "text == 'new'")
            try deleting.context.fetch(request).forEach(deleting.context.delete)
            try deleting.context.save()
        }
        let last = try open(url, type: type)
        try last.context.performAndWait {
            let added = NSEntityDescription.insertNewObject(forEntityName: "Item", into: last.context)
            try last.context.save()
            #expect(added.objectID.uriRepresentation().lastPathComponent == "p6", "a deleted object's key is not given out again")
        }
    }

    /// Two contexts change one item: the second save conflicts (133020) under the default merge
    /// policy, and wins under `NSMergeByPropertyObjectTrumpMergePolicy`, as on SQLite.
    @Test(arguments: types)
    func aSaveOverAnotherContextsChangesConflictsAndTheMergePolicyResolvesIt(type: NSPersistentStore.StoreType) throws {
        let (directory, url) = try shelfFile(type)
        defer { withExtendedLifetime(directory) {} }
        let stack = try open(url, type: type)
        let other = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        other.persistentStoreCoordinator = stack.coordinator
        let request = NSFetchRequest<NSManagedObject>(entityName: "Item")
        request.predicate = NSPredicate(format: "text == 'item 1'")
        request.returnsObjectsAsFaults = false
        let mine = try stack.context.performAndWait { try #require(try stack.context.fetch(request).first) }
        let theirs = try other.performAndWait { try #require(try other.fetch(request).first) }
        try other.performAndWait {
            theirs.setValue(Int16(1), forKey: "small")
            try other.save()
        }
        try stack.context.performAndWait {
            mine.setValue(Int16(2), forKey: "small")
            #expect { try stack.context.save() } throws: { ($0 as NSError).code == NSManagedObjectMergeError }
            stack.context.mergePolicy = NSMergePolicy.mergeByPropertyObjectTrump
            try stack.context.save()
            mine.setValue(Int16(3), forKey: "small")
            try stack.context.save()
        }
        let reopened = try open(url, type: type)
        let small = try reopened.context.performAndWait { try reopened.context.fetch(request).first?.value(forKey: "small") as? Int }
        #expect(small == 3)
    }

    /// Files each store type must refuse: text, a truncated store, another kind of property list.
    private func foreignFiles(for type: NSPersistentStore.StoreType, valid: Data) throws -> [(String, Data)] {
        let format: PropertyListSerialization.PropertyListFormat = type == .xml ? .xml : .binary
        let foreign = try PropertyListSerialization.data(fromPropertyList: ["format": "something else"], format: format, options: 0)
        return [("text", Data("not a store".utf8)), ("truncated", valid.prefix(valid.count / 2)), ("foreign", foreign)]
    }

    @Test(arguments: types)
    func filesThatAreNotStoresOfTheTypeAreRefusedWith134080AndLeftAsTheyWere(type: NSPersistentStore.StoreType) throws {
        let directory = try CtxTemporaryDirectory()
        let valid = directory.url.appendingPathComponent("Valid.\(type.rawValue)")
        try writeShelf(at: valid, type: type)
        for (name, data) in try foreignFiles(for: type, valid: try Data(contentsOf: valid)) {
            try expectRefused(data, named: name, type: type, in: directory)
        }
    }

    /// XML stores whose objects are damaged: a reference to an object the file lacks, a value
    /// that is not of its attribute's type, two objects with one id, an entity the model lacks.
    @Test func damagedXMLStoresAreRefusedWith134080AndLeftAsTheyWere() throws {
        let directory = try CtxTemporaryDirectory()
        let valid = directory.url.appendingPathComponent("Valid.xml")
        try writeShelf(at: valid, type: .xml)
        let text = try String(contentsOf: valid, encoding: .utf8)
        let damages: [(String, String, String)] = [
            ("dangling", "idrefs=\"z1\"", "idrefs=\"z99\""),
            ("value", "type=\"int16\">-7<", "type=\"int16\">seven<"),
            ("duplicate", "id=\"z3\"", "id=\"z2\""),
            ("entity", "type=\"OWNER\"", "type=\"SHELF\""),
        ]
        for (name, original, damaged) in damages {
            #expect(text.contains(original), "\(name)")
            try expectRefused(Data(text.replacingOccurrences(of: original, with: damaged).utf8), named: name, type: .xml, in: directory)
        }
    }

    private func expectRefused(_ data: Data, named name: String, type: NSPersistentStore.StoreType, in directory: CtxTemporaryDirectory) throws {
        let url = directory.url.appendingPathComponent("\(name).\(type.rawValue)")
        try data.write(to: url)
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: Self.model())
        #expect(throws: (any Error).self, "\(name)") { try coordinator.addPersistentStore(type: type, at: url) }
        do {
            try coordinator.addPersistentStore(type: type, at: url)
        } catch {
            #expect((error as NSError).code == NSPersistentStoreOpenError, "\(name): \(error)")
        }
        #expect(try Data(contentsOf: url) == data, "\(name)")
    }

    @Test(arguments: types)
    func aStoreOfAnotherModelVersionIsRefusedWith134100AndItsMetadataReadsWithoutACoordinator(type: NSPersistentStore.StoreType) throws {
        let (directory, url) = try shelfFile(type)
        defer { withExtendedLifetime(directory) {} }
        let before = try Data(contentsOf: url)
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: Self.model(extra: true))
        #expect { try coordinator.addPersistentStore(type: type, at: url) } throws: { ($0 as NSError).code == NSPersistentStoreIncompatibleVersionHashError }
        #expect(try Data(contentsOf: url) == before)

        let metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(type: type, at: url)
        #expect(metadata[NSStoreTypeKey] as? String == type.rawValue)
        #expect(Self.model().isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata))
        try NSPersistentStoreCoordinator.setMetadata(["Imported": "yes"], type: type, at: url)
        #expect(try NSPersistentStoreCoordinator.metadataForPersistentStore(type: type, at: url)["Imported"] as? String == "yes")
        #expect(try open(url, type: type).coordinator.persistentStores.first?.metadata["Imported"] as? String == "yes")
    }
}
