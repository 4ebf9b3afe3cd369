@testable import CoreData
import Testing

/// `coredata model`, run as a program: a model's entities, properties and version hashes, and
/// `--diff` between versions, as an inferred plan or as the entities that changed when no
/// mapping can be inferred.
@Suite struct ModelCommandTests {
    private static var shelf: URL {
        get throws {
            try #require(Bundle.module.url(forResource: "Shelf", withExtension: "xcdatamodeld"))
        }
    }

    @Test func aModelPrintsItsEntitiesWithTheirVersionHashesAndProperties() throws {
        let run = try CoreDataToolRun.run(["model", try Self.shelf.path])
        #expect(run.status == 0, "\(run.errors)")
        let current = try NSManagedObjectModel(validatingContentsOf: try Self.shelf)
        #expect(run.output.hasPrefix("Model Shelf.xcdatamodeld (versions: Shelf 2, Shelf 3, Shelf; current: Shelf 3)\n"))
        #expect(run.output.contains("Version checksum  \(current.versionChecksum)"))
        for entity in current.entities {
            #expect(run.output.contains("\(entity.name ?? "")  \(entity.versionHash.base64EncodedString())"))
        }
        #expect(run.output.contains("works     to-many → Volume  optional, inverse author, delete rule Nullify, ordered"))
    }

    @Test func aDiffBetweenVersionsPrintsTheInferredPlan() throws {
        let version1 = try Self.shelf.appendingPathComponent("Shelf.xcdatamodel").path
        let run = try CoreDataToolRun.run(["model", version1, "--diff", try Self.shelf.appendingPathComponent("Shelf 2.xcdatamodel").path])
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output.contains("~ Reader → Subscriber (renamed)"))
        #expect(run.output.contains("- Sticker: removed, with its rows"))
        #expect(run.output.contains("Lightweight migration can infer this mapping."))
        let same = try CoreDataToolRun.run(["model", version1, "--diff", version1])
        #expect(same.output.contains("the version hashes are the same"))
    }

    @Test func aChangeNoMappingCanBeInferredFromNamesTheEntitiesThatChanged() throws {
        let directory = try SQLiteScratchDirectory("model-diff")
        defer { directory.remove() }
        let before = ModelFixtureKit.model([ModelFixtureKit.entity("Event", [MigrationModels.attribute("when", .stringAttributeType)])])
        let after = ModelFixtureKit.model([ModelFixtureKit.entity("Event", [MigrationModels.attribute("when", .dateAttributeType)])])
        try before.write(toModelFileAt: directory.file("Before.xcdatamodel"))
        try after.write(toModelFileAt: directory.file("After.xcdatamodel"))
        let run = try CoreDataToolRun.run(["model", directory.file("Before.xcdatamodel").path, "--diff", directory.file("After.xcdatamodel").path])
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output.contains("  ~ Event: changed"), "\(run.output)")
        #expect(run.output.contains("Lightweight migration cannot infer a mapping: "))
    }

    @Test func aModelThatCannotBeReadIsOneLineOnStandardError() throws {
        let run = try CoreDataToolRun.run(["model", "/nonexistent/Model.xcdatamodeld"])
        #expect(run.status == 1)
        #expect(run.errors.hasPrefix("error: "))
        #expect(run.errors.filter { $0 == "\n" }.count == 1)
    }
}
