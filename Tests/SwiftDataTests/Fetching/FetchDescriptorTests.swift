import Foundation
import SwiftData
import Testing

@Suite struct FetchDescriptorTests {
    let store = TemporaryStore()

    private func makeContext() throws -> ModelContext {
        let context = ModelContext(try ModelContainer(for: Trip.self, configurations: ModelConfiguration(url: store.url)))
        let paris = Trip(name: "Paris", destination: "France")
        let tokyo = Trip(name: "Tokyo", destination: "Japan")
        context.insert(paris)
        context.insert(tokyo)
        paris.activities = [Activity(name: "Louvre", cost: 20), Activity(name: "Seine", cost: 0)]
        tokyo.activities = [Activity(name: "Shrine", cost: 0), Activity(name: "Sushi", cost: 80), Activity(name: "Tower", cost: 25)]
        try context.save()
        return context
    }

    @Test func predicatesAndSortDescriptorsRunInTheStore() throws {
        let context = try makeContext()
        let descriptor = FetchDescriptor<Activity>(predicate: #Predicate { $0.cost > 10 && $0.name.contains("u") }, sortBy: [SortDescriptor(\.name)])
        #expect(try context.fetch(descriptor).map(\.name) == ["Louvre", "Sushi"])
        let reversed = FetchDescriptor<Activity>(sortBy: [SortDescriptor(\.cost, order: .reverse), SortDescriptor(\.name)])
        #expect(try context.fetch(reversed).map(\.name) == ["Sushi", "Tower", "Louvre", "Seine", "Shrine"])
    }

    @Test func predicatesFollowRelationships() throws {
        let context = try makeContext()
        let inJapan = #Predicate<Activity> { $0.trip?.destination == "Japan" }
        #expect(try context.fetchCount(FetchDescriptor(predicate: inJapan)) == 3)
        let busy = #Predicate<Trip> { $0.activities.count > 2 }
        #expect(try context.fetch(FetchDescriptor(predicate: busy)).map(\.name) == ["Tokyo"])
        let free = #Predicate<Trip> { trip in trip.activities.contains { $0.cost == 0 } }
        #expect(try context.fetchCount(FetchDescriptor(predicate: free)) == 2)
        let allCheap = #Predicate<Trip> { trip in trip.activities.allSatisfy { $0.cost < 50 } }
        #expect(try context.fetch(FetchDescriptor(predicate: allCheap)).map(\.name) == ["Paris"])
    }

    @Test func limitsOffsetsAndIdentifiers() throws {
        let context = try makeContext()
        var descriptor = FetchDescriptor<Activity>(sortBy: [SortDescriptor(\.name)])
        descriptor.fetchOffset = 1
        descriptor.fetchLimit = 2
        #expect(try context.fetch(descriptor).map(\.name) == ["Seine", "Shrine"])
        let identifiers = try context.fetchIdentifiers(FetchDescriptor<Trip>())
        #expect(identifiers.count == 2)
        #expect(Set(identifiers.map(\.entityName)) == ["Trip"])
    }

    @Test func capturedValuesAndModelsCompare() throws {
        let context = try makeContext()
        let threshold = 20.0
        #expect(try context.fetchCount(FetchDescriptor<Activity>(predicate: #Predicate { $0.cost >= threshold })) == 3)
        let tokyo = try #require(try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == "Tokyo" })).first)
        let tokyoID = tokyo.persistentModelID
        #expect(try context.fetchCount(FetchDescriptor<Activity>(predicate: #Predicate { $0.trip?.persistentModelID == tokyoID })) == 3)
    }

    @Test func anExpressionTheStoreCannotComputeIsAThrownError() throws {
        let context = try makeContext()
        let descriptor = FetchDescriptor<Activity>(predicate: #Predicate { $0.name.count > 3 })
        #expect(throws: SwiftDataError.self) { try context.fetch(descriptor) }
    }

    @Test func batchedFetchesLoadAsTheyAreRead() throws {
        let context = try makeContext()
        let results = try context.fetch(FetchDescriptor<Activity>(sortBy: [SortDescriptor(\.name)]), batchSize: 2)
        #expect(results.count == 5)
        #expect(results.map(\.name) == ["Louvre", "Seine", "Shrine", "Sushi", "Tower"])
        var names: [String] = []
        try context.enumerate(FetchDescriptor<Activity>(sortBy: [SortDescriptor(\.name)]), batchSize: 2) { names.append($0.name) }
        #expect(names == ["Louvre", "Seine", "Shrine", "Sushi", "Tower"])
    }
}

@Suite struct PendingChangesTests {
    let store = TemporaryStore()

    @Test func unsavedChangesCountUnlessTheDescriptorLeavesThemOut() throws {
        let context = ModelContext(try ModelContainer(for: Trip.self, configurations: ModelConfiguration(url: store.url)))
        context.insert(Activity(name: "Saved", cost: 1))
        try context.save()
        context.insert(Activity(name: "Unsaved", cost: 2))
        #expect(try context.fetch(FetchDescriptor<Activity>(sortBy: [SortDescriptor(\.name)])).map(\.name) == ["Saved", "Unsaved"])
        var savedOnly = FetchDescriptor<Activity>()
        savedOnly.includePendingChanges = false
        #expect(try context.fetch(savedOnly).map(\.name) == ["Saved"])
        #expect(throws: SwiftDataError.includePendingChangesWithBatchSize) {
            try context.fetch(FetchDescriptor<Activity>(), batchSize: 10)
        }
        #expect(try context.fetch(savedOnly, batchSize: 10).count == 1)
    }

    @Test func partialAndPrefetchingFetchesReturnWholeModels() throws {
        let container = try ModelContainer(for: Trip.self, configurations: ModelConfiguration(url: store.url))
        let context = ModelContext(container)
        let trip = Trip(name: "Prefetched", destination: "Cache")
        context.insert(trip)
        trip.activities = [Activity(name: "One", cost: 1), Activity(name: "Two", cost: 2)]
        try context.save()
        var descriptor = FetchDescriptor<Trip>()
        descriptor.propertiesToFetch = [\.name]
        descriptor.relationshipKeyPathsForPrefetching = [\.activities]
        let fetched = try #require(try ModelContext(container).fetch(descriptor).first)
        #expect(fetched.name == "Prefetched")
        #expect(fetched.destination == "Cache", "properties not fetched load when read")
        #expect(fetched.activities.map(\.name).sorted() == ["One", "Two"])
        var unknown = FetchDescriptor<Trip>()
        unknown.propertiesToFetch = [\.activities.count]
        #expect(throws: SwiftDataError.unsupportedKeyPath) { try ModelContext(container).fetch(unknown) }
    }
}
