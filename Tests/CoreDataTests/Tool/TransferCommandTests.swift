@testable import CoreData
import Testing

/// `coredata export` and `coredata import`, run as programs: a store's objects and relationships
/// through JSON files into a new store, every attribute type exactly, and files that do not fit
/// the model refused with their line.
@Suite struct TransferCommandTests {
    private static var shelf: URL {
        get throws {
            try #require(Bundle.module.url(forResource: "Shelf", withExtension: "xcdatamodeld"))
        }
    }

    /// Gadgets with an attribute of every type, kits holding ordered gadgets, and tags on
    /// gadgets many-to-many.
    private static func gadgetModel() -> NSManagedObjectModel {
        let types: [(String, NSAttributeType)] = [
            ("name", .stringAttributeType), ("small", .integer16AttributeType), ("medium", .integer32AttributeType),
            ("large", .integer64AttributeType), ("ratio", .doubleAttributeType), ("weight", .floatAttributeType),
            ("enabled", .booleanAttributeType), ("price", .decimalAttributeType), ("made", .dateAttributeType),
            ("blob", .binaryDataAttributeType), ("serial", .UUIDAttributeType), ("link", .URIAttributeType),
        ]
        let gadget = ModelFixtureKit.entity("Gadget", types.map { ModelFixtureKit.attribute($0.0, $0.1) })
        let kit = ModelFixtureKit.entity("Kit", [ModelFixtureKit.attribute("label", .stringAttributeType)])
        let tag = ModelFixtureKit.entity("Tag", [ModelFixtureKit.attribute("word", .stringAttributeType)])
        let gadgets = ModelFixtureKit.relationship("gadgets", to: gadget, maxCount: 0, ordered: true)
        let gadgetKit = ModelFixtureKit.relationship("kit", to: kit, maxCount: 1)
        ModelFixtureKit.inverse(gadgets, gadgetKit)
        let tags = ModelFixtureKit.relationship("tags", to: tag, maxCount: 0)
        let tagged = ModelFixtureKit.relationship("gadgets", to: gadget, maxCount: 0)
        ModelFixtureKit.inverse(tags, tagged)
        kit.properties += [gadgets]
        gadget.properties += [gadgetKit, tags]
        tag.properties += [tagged]
        return ModelFixtureKit.model([gadget, kit, tag])
    }

    private static let made = Date(timeIntervalSinceReferenceDate: 789_012_345.678)

    @Test func aStoreGoesThroughJSONIntoANewStoreWithItsRelationships() throws {
        let scenario = try MigrationScenario("transfer-shelf")
        defer { scenario.remove() }
        try scenario.write(try ShelfMigrationTests.shelf("Shelf")) { context in
            let guin = ctxInsert("Writer", into: context, ["name": "Le Guin", "country": "US"])
            let tolkien = ctxInsert("Writer", into: context, ["name": "Tolkien"])
            let earthsea = ctxInsert("Volume", into: context, ["title": "Earthsea", "pages": 200, "writer": guin])
            ctxInsert("Volume", into: context, ["title": "The Hobbit", "pages": 310, "writer": tolkien])
            ctxInsert("Reader", into: context, ["name": "Ged", "favorite": earthsea])
            ctxInsert("Sticker", into: context, ["text": "sale"])
        }
        let version1 = try Self.shelf.appendingPathComponent("Shelf.xcdatamodel").path
        let exported = scenario.directory.file("export")
        let export = try CoreDataToolRun.run(["export", scenario.url.path, "--model", try Self.shelf.path, "--to", exported.path])
        #expect(export.status == 0, "\(export.errors)")
        #expect(export.output == "Exported 6 objects of 4 entities to \(exported.path).\n")
        let volumes = try String(contentsOf: exported.appendingPathComponent("Volume.json"), encoding: .utf8)
        #expect(volumes.split(separator: "\n").count == 4)
        #expect(try JSONSerialization.jsonObject(with: Data(volumes.utf8)) is [[String: Any]])

        let copy = scenario.directory.file("Copy.sqlite")
        let imported = try CoreDataToolRun.run(["import", exported.path, "--model", version1, "--into", copy.path])
        #expect(imported.status == 0, "\(imported.errors)")
        #expect(imported.output == "Imported 6 objects of 4 entities into \(copy.path).\n")
        let stack = try SQLiteTestStack(model: try ShelfMigrationTests.shelf("Shelf"), url: copy)
        defer { stack.close() }
        try stack.context.performAndWait {
            let volumes = try ctxFetch("Volume", in: stack.context, sortedBy: "title")
            #expect(volumes.map { $0.value(forKey: "title") as? String } == ["Earthsea", "The Hobbit"])
            #expect(volumes.map { ($0.value(forKey: "writer") as? NSManagedObject)?.value(forKey: "name") as? String } == ["Le Guin", "Tolkien"])
            let writer = try #require(volumes.first?.value(forKey: "writer") as? NSManagedObject)
            #expect((writer.value(forKey: "volumes") as? Set<NSManagedObject>)?.count == 1)
            let reader = try #require(try ctxFetch("Reader", in: stack.context, sortedBy: "name").first)
            #expect((reader.value(forKey: "favorite") as? NSManagedObject)?.value(forKey: "title") as? String == "Earthsea")
            #expect(try ctxFetch("Sticker", in: stack.context, sortedBy: "text").map { $0.value(forKey: "text") as? String } == ["sale"])
        }
    }

    @Test func everyAttributeTypeAndOrderedAndManyToManyRelationshipsComeBackExactly() throws {
        let directory = try SQLiteScratchDirectory("transfer-gadgets")
        defer { directory.remove() }
        let model = Self.gadgetModel()
        let modelFile = directory.file("Gadgets.xcdatamodel")
        try model.write(toModelFileAt: modelFile)
        let source = directory.file("Gadgets.sqlite")
        let stack = try SQLiteTestStack(model: model, url: source)
        try stack.context.performAndWait {
            let kit = ctxInsert("Kit", into: stack.context, ["label": "starter"])
            let tags = ["red", "small"].map { ctxInsert("Tag", into: stack.context, ["word": $0]) }
            let values: [String: Any] = [
                "name": "Widget, \"deluxe\"\nline two", "small": Int16(-7), "medium": Int32(70_000), "large": Int64.max,
                "ratio": 0.1, "weight": Float(2.5), "enabled": true, "price": NSDecimalNumber(string: "1234.25"),
                "made": Self.made, "blob": Data([0, 1, 2, 255]), "serial": UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!,
                "link": URL(string: "https://example.com/a?b=c")!,
            ]
            let first = ctxInsert("Gadget", into: stack.context, values)
            let second = ctxInsert("Gadget", into: stack.context, ["name": "Gizmo"])
            kit.setValue(NSOrderedSet(array: [second, first]), forKey: "gadgets")
            first.setValue(Set(tags), forKey: "tags")
            second.setValue(Set([tags[0]]), forKey: "tags")
            try stack.context.save()
        }
        stack.close()
        let exported = directory.file("export")
        let export = try CoreDataToolRun.run(["export", source.path, "--model", modelFile.path, "--to", exported.path])
        #expect(export.status == 0, "\(export.errors)")
        let copy = directory.file("Gadgets.binary")
        let imported = try CoreDataToolRun.run(["import", exported.path, "--model", modelFile.path, "--into", copy.path, "--type", "binary"])
        #expect(imported.status == 0, "\(imported.errors)")
        let reopened = try SQLiteTestStack(model: model, url: copy, storeType: NSBinaryStoreType)
        defer { reopened.close() }
        try reopened.context.performAndWait {
            let kit = try #require(try ctxFetch("Kit", in: reopened.context, sortedBy: "label").first)
            let gadgets = try #require(kit.value(forKey: "gadgets") as? NSOrderedSet).array.compactMap { $0 as? NSManagedObject }
            #expect(gadgets.map { $0.value(forKey: "name") as? String } == ["Gizmo", "Widget, \"deluxe\"\nline two"])
            let widget = gadgets[1]
            #expect(widget.value(forKey: "small") as? Int16 == -7)
            #expect(widget.value(forKey: "medium") as? Int32 == 70_000)
            #expect(widget.value(forKey: "large") as? Int64 == Int64.max)
            #expect(widget.value(forKey: "ratio") as? Double == 0.1)
            #expect(widget.value(forKey: "weight") as? Float == 2.5)
            #expect(widget.value(forKey: "enabled") as? Bool == true)
            #expect((widget.value(forKey: "price") as? NSDecimalNumber)?.description == "1234.25")
            #expect(abs(((widget.value(forKey: "made") as? Date)?.timeIntervalSince(Self.made)) ?? 1) < 0.001)
            #expect(widget.value(forKey: "blob") as? Data == Data([0, 1, 2, 255]))
            #expect(widget.value(forKey: "serial") as? UUID == UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
            #expect(widget.value(forKey: "link") as? URL == URL(string: "https://example.com/a?b=c"))
            let words = ((widget.value(forKey: "tags") as? Set<NSManagedObject>) ?? []).compactMap { $0.value(forKey: "word") as? String }
            #expect(words.sorted() == ["red", "small"])
            let red = try #require(try ctxFetch("Tag", in: reopened.context, sortedBy: "word").first)
            #expect((red.value(forKey: "gadgets") as? Set<NSManagedObject>)?.count == 2)
        }
    }

    @Test func filesThatDoNotFitTheModelAreRefusedWithTheirLine() throws {
        let directory = try SQLiteScratchDirectory("transfer-bad")
        defer { directory.remove() }
        let model = Self.gadgetModel()
        let modelFile = directory.file("Gadgets.xcdatamodel")
        try model.write(toModelFileAt: modelFile)
        let input = directory.file("input")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        let gadgets = input.appendingPathComponent("Gadget.json")
        try Data("[\n{\"objectID\":\"x-coredata://A/Gadget/p1\",\"name\":\"ok\"},\n{\"objectID\":\"x-coredata://A/Gadget/p2\",\"small\":\"many\"}\n]\n".utf8).write(to: gadgets)
        let wrongType = try CoreDataToolRun.run(["import", input.path, "--model", modelFile.path, "--into", directory.file("Out.sqlite").path])
        #expect(wrongType.status == 1)
        #expect(wrongType.errors.contains("error: Gadget.json line 3: many is no value of the Integer 16 attribute small."), "\(wrongType.errors)")
        try FileManager.default.removeItem(at: gadgets)
        try Data("[]".utf8).write(to: input.appendingPathComponent("Robot.json"))
        let unknown = try CoreDataToolRun.run(["import", input.path, "--model", modelFile.path, "--into", directory.file("Out2.sqlite").path])
        #expect(unknown.status == 1)
        #expect(unknown.errors.contains("error: Robot.json names no entity of the model."))
    }
}
