@testable import CoreData
import Testing

/// A model written as a model file reads back as an equal model: the same version hashes, and
/// the same file when written again. That holds for the fixture files Xcode's format covers in
/// full and for models built in code. What a model file cannot state is refused by name.
@Suite struct ModelFileWritingTests {
    /// Writes a model as an `.xcdatamodel`, reads it back, and writes that again.
    static func roundTrip(_ model: NSManagedObjectModel, sourceLocation: SourceLocation = #_sourceLocation) throws -> (first: String, second: String, model: NSManagedObjectModel) {
        let directory = try SQLiteScratchDirectory("model-write")
        defer { directory.remove() }
        let first = directory.file("First.xcdatamodel")
        try model.write(toModelFileAt: first)
        let reread = try NSManagedObjectModel(validatingContentsOf: first)
        let second = directory.file("Second.xcdatamodel")
        try reread.write(toModelFileAt: second)
        let texts = try [first, second].map { try String(contentsOf: $0.appendingPathComponent("contents"), encoding: .utf8) }
        return (texts[0], texts[1], reread)
    }

    static func expectEqualModels(_ original: NSManagedObjectModel, _ reread: NSManagedObjectModel, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(reread.entityVersionHashesByName == original.entityVersionHashesByName, sourceLocation: sourceLocation)
        #expect(reread.versionChecksum == original.versionChecksum, sourceLocation: sourceLocation)
        #expect(Set(reread.entitiesByName.keys) == Set(original.entitiesByName.keys), sourceLocation: sourceLocation)
        #expect(reread.configurations == original.configurations, sourceLocation: sourceLocation)
        #expect(Set(reread.fetchRequestTemplatesByName.keys) == Set(original.fetchRequestTemplatesByName.keys), sourceLocation: sourceLocation)
        #expect(reread.versionIdentifiers == original.versionIdentifiers, sourceLocation: sourceLocation)
    }

    /// Every `.xcdatamodel` among the test fixtures, versions of bundles included, except the
    /// pre-Xcode-4 one, which cannot be read.
    static func fixtureVersions() throws -> [URL] {
        let enumerator = FileManager.default.enumerator(at: ModelFileFixtures.directory, includingPropertiesForKeys: nil)
        return (enumerator?.allObjects as? [URL] ?? [])
            .filter { $0.pathExtension == "xcdatamodel" && FileManager.default.fileExists(atPath: $0.appendingPathComponent("contents").path) }
            .sorted { $0.path < $1.path }
    }

    @Test func fixtureModelsReadBackEqual() throws {
        let versions = try Self.fixtureVersions()
        #expect(versions.count >= 4, "three versions of Library and Notes")
        for version in versions {
            let model = try NSManagedObjectModel(validatingContentsOf: version)
            let trip = try Self.roundTrip(model)
            #expect(trip.first == trip.second, "\(version.lastPathComponent) writes the same file twice")
            Self.expectEqualModels(model, trip.model)
        }
    }

    @Test(arguments: ["Movie", "Conformance", "HashVector"])
    func modelsBuiltInCodeReadBackEqual(name: String) throws {
        let model = switch name {
        case "Movie": MovieModel.make()
        case "Conformance": ConformanceModel.make()
        default: HashVectorModel.make()
        }
        let trip = try Self.roundTrip(model)
        #expect(trip.first == trip.second)
        Self.expectEqualModels(model, trip.model)
    }

    @Test func validationDefaultsTemplatesAndCompositesSurviveTheTrip() throws {
        let item = ModelFixtureKit.entity("Item")
        let name = ModelFixtureKit.attribute("name", .stringAttributeType)
        let rule = ValidationRule(bound: .maximum, limit: NSNumber(value: 20), type: .stringAttributeType)
        let pattern = ValidationRule(pattern: "[A-Z].*")
        name.setValidationPredicates([rule.predicate, pattern.predicate], withValidationWarnings: [String(rule.code), String(pattern.code)])
        name.defaultValue = "Untitled"
        let created = ModelFixtureKit.attribute("created", .dateAttributeType)
        created.defaultValue = Date(timeIntervalSinceReferenceDate: 86_400.5)
        let price = ModelFixtureKit.attribute("price", .decimalAttributeType)
        price.defaultValue = NSDecimalNumber(string: "9.99")
        let location = NSCompositeAttributeDescription()
        location.name = "location"
        location.elements = [ModelFixtureKit.attribute("latitude", .doubleAttributeType), ModelFixtureKit.attribute("longitude", .doubleAttributeType)]
        item.properties = [name, created, price, location]
        item.uniquenessConstraints = [["name"]]
        let model = ModelFixtureKit.model([item])
        let template = NSFetchRequest<NSFetchRequestResult>(entityName: "Item")
        template.entity = item
        template.predicate = NSPredicate(format: "name BEGINSWITH $prefix AND price < 10")
        template.fetchLimit = 5
        template.resultType = .dictionaryResultType
        model.setFetchRequestTemplate(template, forName: "cheapByPrefix")
        model.versionIdentifiers = ["7"]

        let trip = try Self.roundTrip(model)
        #expect(trip.first == trip.second)
        Self.expectEqualModels(model, trip.model)
        let reread = try #require(trip.model.entitiesByName["Item"])
        let rereadName = try #require(reread.attributesByName["name"])
        #expect(rereadName.validationPredicates.map(\.predicateFormat) == name.validationPredicates.map(\.predicateFormat))
        #expect(rereadName.validationWarnings.compactMap { $0 as? String } == ["1660", "1680"])
        #expect(rereadName.defaultValue as? String == "Untitled")
        #expect(reread.attributesByName["created"]?.defaultValue as? Date == Date(timeIntervalSinceReferenceDate: 86_400.5))
        #expect(reread.attributesByName["price"]?.defaultValue as? NSDecimalNumber == NSDecimalNumber(string: "9.99"))
        #expect((reread.attributesByName["location"] as? NSCompositeAttributeDescription)?.elements.map(\.name) == ["latitude", "longitude"])
        let rereadTemplate = try #require(trip.model.fetchRequestTemplate(forName: "cheapByPrefix"))
        #expect(rereadTemplate.predicate?.predicateFormat == template.predicate?.predicateFormat)
        #expect(rereadTemplate.fetchLimit == 5)
        #expect(rereadTemplate.resultType == .dictionaryResultType)
    }

    @Test func orderedToOnesCompositeOrderAndWholeNumberBoundsSurviveTheTrip() throws {
        let item = ModelFixtureKit.entity("Item")
        let next = ModelFixtureKit.relationship("next", to: item, maxCount: 1)
        next.isOrdered = true
        let count = ModelFixtureKit.attribute("count", .integer32AttributeType)
        let minimum = ValidationRule(bound: .minimum, limit: NSNumber(value: 5), type: .integer32AttributeType)
        count.setValidationPredicates([minimum.predicate], withValidationWarnings: [String(minimum.code)])
        let size = NSCompositeAttributeDescription()
        size.name = "size"
        size.elements = ["width", "height", "depth"].map { ModelFixtureKit.attribute($0, .doubleAttributeType) }
        item.properties = [next, count, size]
        let model = ModelFixtureKit.model([item])

        let trip = try Self.roundTrip(model)
        #expect(trip.first == trip.second)
        Self.expectEqualModels(model, trip.model)
        #expect(trip.first.contains("minValueString=\"5\""))
        let reread = try #require(trip.model.entitiesByName["Item"])
        #expect(reread.relationshipsByName["next"]?.isOrdered == true)
        #expect((reread.attributesByName["size"] as? NSCompositeAttributeDescription)?.elements.map(\.name) == ["width", "height", "depth"])
    }

    @Test func expressionIndexElementsReadAndWriteBack() throws {
        let directory = try SQLiteScratchDirectory("model-write")
        defer { directory.remove() }
        let version = directory.file("Indexed.xcdatamodel")
        try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
        let contents = ModelFileErrorTests.document("""
            <entity name="Item"><attribute name="name" attributeType="String"/>
            <fetchIndex name="byUpperName"><fetchIndexElement expression="uppercase:(name)" expressionType="String" order="descending"/></fetchIndex></entity>
            """)
        try Data(contents.utf8).write(to: version.appendingPathComponent("contents"))
        let model = try NSManagedObjectModel(validatingContentsOf: version)
        let element = try #require(model.entitiesByName["Item"]?.indexes.first?.elements.first)
        let description = try #require(element.property as? NSExpressionDescription)
        #expect(description.expression?.description == "uppercase:(name)")
        #expect(description.expressionResultType == .stringAttributeType)
        #expect(!element.isAscending)

        let trip = try Self.roundTrip(model)
        #expect(trip.first == trip.second)
        #expect(trip.first.contains("expression=\"uppercase:(name)\" expressionType=\"String\""))
    }

    @Test func aBundleIsWrittenWithItsCurrentVersion() throws {
        let directory = try SQLiteScratchDirectory("model-write")
        defer { directory.remove() }
        let bundle = directory.file("Movies.xcdatamodeld")
        try MovieModel.make().write(toModelFileAt: bundle)
        #expect(FileManager.default.fileExists(atPath: bundle.appendingPathComponent(".xccurrentversion").path))
        let reread = try #require(NSManagedObjectModel(contentsOf: bundle))
        #expect(reread.entityVersionHashesByName == MovieModel.make().entityVersionHashesByName)
    }

    @Test func whatAModelFileCannotStateIsRefusedByName() throws {
        let directory = try SQLiteScratchDirectory("model-write")
        defer { directory.remove() }
        let item = ModelFixtureKit.entity("Item")
        let score = ModelFixtureKit.attribute("score", .integer64AttributeType)
        score.setValidationPredicates([NSPredicate(format: "SELF % 2 == 0")], withValidationWarnings: ["even"])
        item.properties = [score]
        let error = ctxError { try ModelFixtureKit.model([item]).write(toModelFileAt: directory.file("Odd.xcdatamodel")) }
        #expect(error?.code == CocoaError.fileWriteUnknown.rawValue)
        #expect(error?.localizedDescription.contains("\"score\"") == true)

        let plain = ModelFixtureKit.entity("Plain")
        let model = ModelFixtureKit.model([plain])
        let sorted = NSFetchRequest<NSFetchRequestResult>(entityName: "Plain")
        sorted.sortDescriptors = [NSSortDescriptor(key: "x", ascending: true)]
        model.setFetchRequestTemplate(sorted, forName: "sorted")
        #expect(ctxError { try model.write(toModelFileAt: directory.file("Sorted.xcdatamodel")) }?.localizedDescription.contains("\"sorted\"") == true)
        #expect(ctxError { try model.write(toModelFileAt: directory.file("Model.json")) }?.code == CocoaError.fileWriteUnknown.rawValue)

        let versions = ModelFixtureKit.model([ModelFixtureKit.entity("V")])
        versions.versionIdentifiers = ["1", "2"]
        #expect(ctxError { try versions.write(toModelFileAt: directory.file("V.xcdatamodel")) }?.localizedDescription.contains("one version identifier") == true)

        let partial = ModelFixtureKit.entity("P")
        let flag = ModelFixtureKit.attribute("flag", .booleanAttributeType)
        partial.properties = [flag]
        let index = NSFetchIndexDescription(name: "flagged", elements: [NSFetchIndexElementDescription(property: flag, collationType: .binary)])
        index.partialIndexPredicate = NSPredicate(format: "flag == YES")
        partial.indexes = [index]
        #expect(ctxError { try ModelFixtureKit.model([partial]).write(toModelFileAt: directory.file("P.xcdatamodel")) }?.localizedDescription.contains("partial index predicate") == true)
    }
}
