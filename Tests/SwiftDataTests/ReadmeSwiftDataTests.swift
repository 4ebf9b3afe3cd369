import Foundation
import SwiftData
import Testing

// The README's SwiftData section, as written there.
enum ReadmeTour {
    @Model final class Trip {
        var name: String
        @Relationship(deleteRule: .cascade, inverse: \Activity.trip) var activities: [Activity] = []
        init(name: String) { self.name = name }
    }

    @Model final class Activity {
        var name: String
        var cost: Double
        var trip: Trip?
        init(name: String, cost: Double) { self.name = name; self.cost = cost }
    }
}

@Suite struct ReadmeSwiftDataTests {
    let store = TemporaryStore()

    @Test func theReadmeExampleRuns() throws {
        typealias Trip = ReadmeTour.Trip
        typealias Activity = ReadmeTour.Activity
        let storeURL = store.url
        let container = try ModelContainer(for: Trip.self, configurations: ModelConfiguration(url: storeURL))
        let context = ModelContext(container)
        let trip = Trip(name: "Tokyo")
        trip.activities.append(Activity(name: "Sushi", cost: 80))
        context.insert(trip)
        try context.save()
        let pricey = try context.fetch(FetchDescriptor<Activity>(
            predicate: #Predicate { $0.cost > 50 && $0.trip?.name == "Tokyo" },
            sortBy: [SortDescriptor(\.name)]))
        #expect(pricey.map(\.name) == ["Sushi"])
    }
}
