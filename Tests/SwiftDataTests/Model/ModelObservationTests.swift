import Foundation
import SwiftData
import Synchronization
import Testing

// A model is `Observable`: reading a property inside `withObservationTracking` makes a later
// change of it call the change handler, once, whether the model is in a context or not.
@Suite struct ModelObservationTests {
    @Test func aChangeOfAReadPropertyCallsTheChangeHandler() {
        let trip = Trip(name: "Oslo", destination: "Norway")
        let changes = Atomic(0)
        let name = withObservationTracking { trip.name } onChange: { changes.add(1, ordering: .relaxed) }
        #expect(name == "Oslo")
        trip.destination = "Norge"
        #expect(changes.load(ordering: .relaxed) == 0)
        trip.name = "Bergen"
        trip.name = "Tromsø"
        #expect(changes.load(ordering: .relaxed) == 1)
    }

    @Test func aModelInAContextIsObservedThroughFetches() throws {
        let context = ModelContext(try ModelContainer(for: Trip.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true)))
        context.insert(Trip(name: "Oslo", destination: "Norway"))
        try context.save()
        let fetched = try #require(try context.fetch(FetchDescriptor<Trip>()).first)
        let changes = Atomic(0)
        _ = withObservationTracking { fetched.destination } onChange: { changes.add(1, ordering: .relaxed) }
        try #require(try context.fetch(FetchDescriptor<Trip>()).first).destination = "Norge"
        #expect(changes.load(ordering: .relaxed) == 1)
        #expect(fetched.destination == "Norge")
    }

    @Test func aModelNobodyHoldsGoesAwayAndAFetchMakesItAgain() throws {
        let context = ModelContext(try ModelContainer(for: Trip.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true)))
        weak var released: Trip?
        do {
            let trip = Trip(name: "Oslo", destination: "Norway")
            released = trip
            context.insert(trip)
            try context.save()
        }
        #expect(released == nil)
        let fetched = try context.fetch(FetchDescriptor<Trip>())
        #expect(fetched.map(\.name) == ["Oslo"])
        #expect(try context.fetch(FetchDescriptor<Trip>()).first === fetched.first)
    }
}
