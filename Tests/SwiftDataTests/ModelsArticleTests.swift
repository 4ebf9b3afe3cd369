import Foundation
import SwiftData
import Testing

// The models of the SwiftData catalog's article "Models, contexts and migration plans"
// (`Sources/SwiftData/SwiftData.docc/ModelsContextsAndMigration.md`), as written there.
enum ModelsArticle {
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

/// Runs the snippet of the SwiftData catalog's article "Models, contexts and migration plans",
/// so that it stays true.
@Suite struct ModelsArticleTests {
    let store = TemporaryStore()

    @Test func theArticleExampleRuns() throws {
        typealias Trip = ModelsArticle.Trip
        typealias Activity = ModelsArticle.Activity
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
