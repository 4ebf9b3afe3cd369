import Foundation
import SwiftData
import Testing

@Suite struct ModelContextTests {
    let store = TemporaryStore()

    private func makeContainer() throws -> ModelContainer {
        try ModelContainer(for: Trip.self, configurations: ModelConfiguration(url: store.url))
    }

    @Test func insertedModelsAreSavedAndFetchedInANewContext() throws {
        let container = try makeContainer()
        let context = ModelContext(container)
        let trip = Trip(name: "Paris", destination: "France")
        trip.activities.append(Activity(name: "Louvre", cost: 20))
        context.insert(trip)
        #expect(context.hasChanges)
        #expect(context.insertedModelsArray.count == 2)
        try context.save()
        #expect(!context.hasChanges)

        let other = ModelContext(container)
        let trips = try other.fetch(FetchDescriptor<Trip>())
        #expect(trips.map(\.name) == ["Paris"])
        #expect(trips.first?.activities.map(\.name) == ["Louvre"])
        #expect(trips.first?.activities.first?.trip === trips.first)
    }

    @Test func aModelKeepsItsValuesBeforeAndAfterInsertion() throws {
        let container = try makeContainer()
        let trip = Trip(name: "Rome", destination: "Italy")
        trip.name = "Roma"
        #expect(trip.name == "Roma")
        #expect(trip.modelContext == nil)
        let context = ModelContext(container)
        context.insert(trip)
        #expect(trip.modelContext == context)
        #expect(trip.name == "Roma")
        trip.destination = "Italia"
        try context.save()
        #expect(try ModelContext(container).fetch(FetchDescriptor<Trip>()).first?.destination == "Italia")
    }

    @Test func aGraphMadeAfterAContainerOfAnotherSchemaIsSavedWhole() throws {
        let container = try makeContainer()
        // New models start in the entities of the newest container made for their class.
        _ = try ModelContainer(for: Trip.self, Author.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let trip = Trip(name: "Kyoto", destination: "Japan")
        trip.activities = [Activity(name: "Shrine", cost: 0), Activity(name: "Tea", cost: 20)]
        let context = ModelContext(container)
        context.insert(trip)
        try context.save()
        #expect(trip.activities.map(\.name).sorted() == ["Shrine", "Tea"])
        let saved = try ModelContext(container).fetch(FetchDescriptor<Activity>(sortBy: [SortDescriptor(\.name)]))
        #expect(saved.map(\.name) == ["Shrine", "Tea"])
        #expect(saved.map { $0.trip?.name } == ["Kyoto", "Kyoto"])
    }

    @Test func relatingANewGraphToAModelInAContextInsertsEachModelOnce() throws {
        let container = try makeContainer()
        // New models start in the entities of the newest container made for their class.
        _ = try ModelContainer(for: Trip.self, Author.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let context = ModelContext(container)
        let tea = Activity(name: "Tea", cost: 20)
        context.insert(tea)
        let trip = Trip(name: "Kyoto", destination: "Japan")
        let shrine = Activity(name: "Shrine", cost: 0)
        trip.activities = [shrine]
        trip.activities = [shrine, tea]
        try context.save()
        let fresh = ModelContext(container)
        #expect(try fresh.fetchCount(FetchDescriptor<Trip>()) == 1)
        #expect(try fresh.fetchCount(FetchDescriptor<Activity>()) == 2)
        #expect(trip.activities.map(\.name).sorted() == ["Shrine", "Tea"])
    }

    @Test func aSavedModelOfAnotherContextIsRelatedAsThisContextsModelOfItsRow() throws {
        let container = try makeContainer()
        let tripContext = ModelContext(container)
        let trip = Trip(name: "Lisbon", destination: "Portugal")
        tripContext.insert(trip)
        try tripContext.save()
        let context = ModelContext(container)
        let tram = Activity(name: "Tram 28", cost: 3)
        context.insert(tram)
        tram.trip = trip
        #expect(tram.trip?.persistentModelID == trip.persistentModelID)
        #expect(tram.trip?.modelContext == context)
        try context.save()
        let saved = try ModelContext(container).fetch(FetchDescriptor<Activity>())
        #expect(saved.map { $0.trip?.name } == ["Lisbon"])
    }

    @Test func fetchingReturnsTheModelsAlreadyInTheContext() throws {
        let context = ModelContext(try makeContainer())
        let trip = Trip(name: "Oslo", destination: "Norway")
        context.insert(trip)
        try context.save()
        #expect(try context.fetch(FetchDescriptor<Trip>()).first === trip)
        #expect(context.model(for: trip.persistentModelID) as? Trip === trip)
        #expect((context.registeredModel(for: trip.persistentModelID) as Trip?) === trip)
    }

    @Test func deletingATripCascadesToItsActivities() throws {
        let container = try makeContainer()
        let context = ModelContext(container)
        let trip = Trip(name: "Lima", destination: "Peru")
        context.insert(trip)
        trip.activities = [Activity(name: "Market", cost: 5), Activity(name: "Museum", cost: 12)]
        try context.save()
        #expect(try context.fetchCount(FetchDescriptor<Activity>()) == 2)
        context.delete(trip)
        #expect(trip.isDeleted)
        try context.save()
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Activity>()) == 0)
    }

    @Test func anActivityMadeForASavedTripJoinsItsContext() throws {
        let context = ModelContext(try makeContainer())
        let trip = Trip(name: "Kyoto", destination: "Japan")
        context.insert(trip)
        try context.save()
        let activity = Activity(name: "Temple", cost: 3, trip: trip)
        #expect(activity.modelContext == context)
        #expect(trip.activities.map(\.name) == ["Temple"])
        try context.save()
        #expect(try context.fetchCount(FetchDescriptor<Activity>()) == 1)
    }

    @Test func rollbackDiscardsUnsavedChanges() throws {
        let context = ModelContext(try makeContainer())
        let trip = Trip(name: "Quito", destination: "Ecuador")
        context.insert(trip)
        try context.save()
        trip.name = "Changed"
        #expect(trip.hasChanges)
        #expect(context.changedModelsArray.count == 1)
        context.rollback()
        #expect(trip.name == "Quito")
        #expect(!context.hasChanges)
    }

    @Test func deletingByPredicateTakesEffectAtTheNextSave() throws {
        let context = ModelContext(try makeContainer())
        for (name, cost) in [("A", 1.0), ("B", 50), ("C", 80)] { context.insert(Activity(name: name, cost: cost)) }
        try context.save()
        try context.delete(model: Activity.self, where: #Predicate { $0.cost > 10 })
        try context.save()
        #expect(try context.fetch(FetchDescriptor<Activity>()).map(\.name) == ["A"])
    }

    @Test func aTransactionSavesWhatItsBlockChanged() throws {
        let container = try makeContainer()
        let context = ModelContext(container)
        try context.transaction {
            context.insert(Trip(name: "Bern", destination: "Switzerland"))
        }
        #expect(!context.hasChanges)
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Trip>()) == 1)
    }
}
