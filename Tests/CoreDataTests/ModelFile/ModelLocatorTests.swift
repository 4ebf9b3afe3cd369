@testable import CoreData
import Testing

/// Models are found where an Xcode app finds its compiled ones: by URL (compiled names lead to
/// the source beside them), in bundles (`mergedModel(from:)`), and by name for a container.
@Suite struct ModelLocatorTests {
    /// A directory holding `Movies.xcdatamodeld` (two versions, the second current) and
    /// `Extras.xcdatamodel`, which declares an entity of its own.
    static func shippedModels() throws -> SQLiteScratchDirectory {
        let directory = try SQLiteScratchDirectory("model-locator")
        let movies = MovieModel.make()
        try movies.write(toModelFileAt: directory.file("Movies.xcdatamodeld"))
        let older = MovieModel.make()
        older.versionIdentifiers = ["0"]
        older.entitiesByName["Movie"]?.versionHashModifier = "before ratings"
        try older.write(toModelFileAt: directory.file("Movies.xcdatamodeld/Movies 0.xcdatamodel"))
        let extras = ModelFixtureKit.entity("Poster", [ModelFixtureKit.attribute("url", .URIAttributeType)])
        try ModelFixtureKit.model([extras]).write(toModelFileAt: directory.file("Extras.xcdatamodel"))
        return directory
    }

    @Test func compiledModelNamesLeadToTheSourceBesideThem() throws {
        let directory = try Self.shippedModels()
        defer { directory.remove() }
        let expected = MovieModel.make().entityVersionHashesByName
        #expect(NSManagedObjectModel(contentsOf: directory.file("Movies.momd"))?.entityVersionHashesByName == expected)
        #expect(NSManagedObjectModel(contentsOf: directory.file("Movies.momd/Movies.mom"))?.entityVersionHashesByName == expected)
        let older = try #require(NSManagedObjectModel(contentsOf: directory.file("Movies.momd/Movies 0.mom")))
        #expect(older.versionIdentifiers == ["0"])
        #expect(NSManagedObjectModel(contentsOf: directory.file("Extras.mom"))?.entitiesByName["Poster"] != nil)
        #expect(NSManagedObjectModel(contentsOf: directory.file("Missing.momd")) == nil)
    }

    @Test func mergedModelMergesTheCurrentVersionOfEveryModelInTheBundles() throws {
        let directory = try Self.shippedModels()
        defer { directory.remove() }
        let bundle = try #require(Bundle(url: directory.url))
        let merged = try #require(NSManagedObjectModel.mergedModel(from: [bundle]))
        #expect(Set(merged.entitiesByName.keys) == ["Movie", "Actor", "Character", "Poster"])
        let movies = MovieModel.make()
        #expect(merged.entitiesByName["Movie"]?.versionHash == movies.entitiesByName["Movie"]?.versionHash, "the current version")

        let empty = try SQLiteScratchDirectory("model-locator")
        defer { empty.remove() }
        #expect(NSManagedObjectModel.mergedModel(from: [try #require(Bundle(url: empty.url))]) == nil)
    }

    @Test func theModelOfAStoreIsFoundAmongEveryVersion() throws {
        let directory = try Self.shippedModels()
        defer { directory.remove() }
        let bundle = try #require(Bundle(url: directory.url))
        let older = try #require(NSManagedObjectModel(contentsOf: directory.file("Movies.xcdatamodeld/Movies 0.xcdatamodel")))
        let metadata: [String: Any] = [NSStoreModelVersionHashesKey: older.entityVersionHashesByName]
        let found = try #require(NSManagedObjectModel.mergedModel(from: [bundle], forStoreMetadata: metadata))
        #expect(found.versionIdentifiers == ["0"])
        #expect(NSManagedObjectModel.mergedModel(from: [bundle], forStoreMetadata: [NSStoreModelVersionHashesKey: ["Nope": Data()]]) == nil)
    }

    @Test func searchingTheMainBundleIncludesTheResourceBundlesBesideTheExecutable() throws {
        let directories = ModelLocator.searchDirectories(for: nil)
        let executableDirectory = try #require(Bundle.main.executableURL?.deletingLastPathComponent().standardizedFileURL.path)
        let resourceBundles = directories.filter { $0.pathExtension == "resources" }
        // `-tool` when SwiftPM builds the tests for the host's tools, as for a package with macros.
        let names = ["CoreDataTests.resources", "CoreDataTests-tool.resources"]
        #expect(resourceBundles.contains { bundle in names.contains { bundle.lastPathComponent.hasSuffix($0) } }, "\(directories)")
        #expect(resourceBundles.allSatisfy { $0.deletingLastPathComponent().standardizedFileURL.path == executableDirectory })
    }
}

/// The test bundle ships `Library.xcdatamodeld` and `Notes.xcdatamodel` in its SwiftPM resource
/// bundle beside the test executable, as a program ships its models.
@Suite struct ShippedModelTests {
    @Test func aContainerFindsItsModelByName() throws {
        let container = NSPersistentContainer(name: "Notes")
        #expect(Set(container.managedObjectModel.entitiesByName.keys) == ["Note", "Tag"])
        let directory = try SQLiteScratchDirectory("shipped-model")
        defer { directory.remove() }
        container.persistentStoreDescriptions = [NSPersistentStoreDescription(url: directory.file("Notes.sqlite"))]
        var loadError: Error?
        container.loadPersistentStores { _, error in loadError = error }
        #expect(loadError == nil)
        #expect(container.persistentStoreCoordinator.persistentStores.count == 1)

        let library = NSPersistentContainer(name: "Library")
        #expect(library.managedObjectModel.versionIdentifiers == ["3"], "the current version")
    }

    @Test func theMainBundleMergesEveryShippedModel() throws {
        let merged = try #require(NSManagedObjectModel.mergedModel(from: nil))
        let names = Set(merged.entitiesByName.keys)
        #expect(names.isSuperset(of: ["Note", "Tag", "Book", "Author", "Member"]))
    }
}
