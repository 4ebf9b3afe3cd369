import Foundation
import SwiftData
import Testing

@Suite struct ModelContainerTests {
    let store = TemporaryStore()

    @Test func anInMemoryContainerKeepsModelsUntilItGoesAway() throws {
        let configuration = ModelConfiguration(isStoredInMemoryOnly: true)
        #expect(configuration.isStoredInMemoryOnly)
        let container = try ModelContainer(for: Trip.self, configurations: configuration)
        let context = ModelContext(container)
        context.insert(Trip(name: "Nowhere", destination: "Memory"))
        try context.save()
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Trip>()) == 1)
        let other = try ModelContainer(for: Trip.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        #expect(try ModelContext(other).fetchCount(FetchDescriptor<Trip>()) == 0)
    }

    @Test func aConfigurationWithoutSavesOpensTheStoreReadOnly() throws {
        let writer = try ModelContainer(for: Trip.self, configurations: ModelConfiguration(url: store.url))
        let context = ModelContext(writer)
        context.insert(Trip(name: "Read", destination: "Only"))
        try context.save()

        let reader = try ModelContainer(for: Trip.self, configurations: ModelConfiguration(url: store.url, allowsSave: false))
        let readingContext = ModelContext(reader)
        #expect(try readingContext.fetchCount(FetchDescriptor<Trip>()) == 1)
        readingContext.insert(Trip(name: "Refused", destination: "Nowhere"))
        #expect(throws: (any Error).self) { try readingContext.save() }
        #expect(try ModelContext(writer).fetchCount(FetchDescriptor<Trip>()) == 1)
    }

    @Test func erasingEmptiesTheStoresAndKeepsThemOpen() throws {
        let container = try ModelContainer(for: Trip.self, configurations: ModelConfiguration(url: store.url))
        let context = ModelContext(container)
        context.insert(Trip(name: "Gone", destination: "Soon"))
        try context.save()
        try container.erase()
        let fresh = ModelContext(container)
        #expect(try fresh.fetchCount(FetchDescriptor<Trip>()) == 0)
        fresh.insert(Trip(name: "Again", destination: "Here"))
        try fresh.save()
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Trip>()) == 1)
    }

    @Test func aNamedConfigurationStoresInTheUsersDataDirectory() {
        let configuration = ModelConfiguration("Trips")
        #expect(configuration.name == "Trips")
        #expect(configuration.url.lastPathComponent == "Trips.store")
        #expect(ModelConfiguration().url.lastPathComponent == "default.store")
        #expect(ModelConfiguration().name == "default")
    }

    @Test func aStoreThatCannotOpenIsAThrownError() throws {
        try Data("not a database".utf8).write(to: store.url)
        #expect(throws: SwiftDataError.loadIssueModelContainer) {
            try ModelContainer(for: Trip.self, configurations: ModelConfiguration(url: store.url))
        }
        #expect(try Data(contentsOf: store.url) == Data("not a database".utf8), "the file is left as it was")
    }

    @Test func identifiersEncodeAndDecodeWhileTheirStoreIsOpen() throws {
        let container = try ModelContainer(for: Trip.self, configurations: ModelConfiguration(url: store.url))
        let context = ModelContext(container)
        let trip = Trip(name: "Coded", destination: "JSON")
        context.insert(trip)
        try context.save()
        let data = try JSONEncoder().encode(trip.persistentModelID)
        let decoded = try JSONDecoder().decode(PersistentIdentifier.self, from: data)
        #expect(decoded == trip.persistentModelID)
        #expect(decoded.entityName == "Trip")
        #expect(decoded.storeIdentifier != nil)
        #expect((ModelContext(container).model(for: decoded) as? Trip)?.name == "Coded")
    }

    @Test func anUndoManagerTakesBackChanges() throws {
        let context = ModelContext(try ModelContainer(for: Trip.self, configurations: ModelConfiguration(url: store.url)))
        let trip = Trip(name: "Before", destination: "Undo")
        context.insert(trip)
        try context.save()
        context.undoManager = UndoManager()
        trip.name = "After"
        context.processPendingChanges()
        context.undoManager?.undo()
        #expect(trip.name == "Before")
    }
}

@Suite struct ConfigurationSchemaTests {
    let trips = TemporaryStore(name: "trips.store")
    let library = TemporaryStore(name: "library.store")

    @Test func eachConfigurationsStoreHoldsItsOwnSchema() throws {
        let container = try ModelContainer(for: Schema([Trip.self, Author.self]), configurations: [
            ModelConfiguration("trips", schema: Schema([Trip.self]), url: trips.url),
            ModelConfiguration("library", schema: Schema([Author.self]), url: library.url),
        ])
        let context = ModelContext(container)
        context.insert(Trip(name: "Split", destination: "Stores"))
        context.insert(Author(name: "Ursula"))
        try context.save()

        let tripsAlone = ModelContext(try ModelContainer(for: Trip.self, configurations: ModelConfiguration(url: trips.url)))
        #expect(try tripsAlone.fetch(FetchDescriptor<Trip>()).map(\.name) == ["Split"])
        let libraryAlone = ModelContext(try ModelContainer(for: Author.self, configurations: ModelConfiguration(url: library.url)))
        #expect(try libraryAlone.fetch(FetchDescriptor<Author>()).map(\.name) == ["Ursula"])
    }

    @Test func aConfigurationOutsideTheContainersSchemaOrTwiceIsRefused() throws {
        #expect(throws: SwiftDataError.configurationSchemaNotFoundInContainerSchema) {
            try ModelContainer(for: Schema([Trip.self]), configurations: [ModelConfiguration("library", schema: Schema([Author.self]), url: library.url)])
        }
        #expect(throws: SwiftDataError.duplicateConfiguration) {
            try ModelContainer(for: Schema([Trip.self]), configurations: [ModelConfiguration(url: trips.url), ModelConfiguration(url: trips.url)])
        }
    }
}
