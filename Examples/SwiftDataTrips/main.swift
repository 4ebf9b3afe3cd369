// The trip planner of Apple's SwiftData sample, as a program on Linux: trips with activities,
// saved to a store, then fetched with a predicate and sorted, as its screens show them.
//
//     swift run SwiftDataTrips [STORE-DIRECTORY]

import SwiftData

@Model final class Trip {
    var name: String
    var destination: String
    var startDate: Date
    var endDate: Date
    @Relationship(deleteRule: .cascade, inverse: \Activity.trip)
    var activities: [Activity] = []

    init(name: String, destination: String, startDate: Date, endDate: Date) {
        self.name = name
        self.destination = destination
        self.startDate = startDate
        self.endDate = endDate
    }

    var totalCost: Double { activities.reduce(0) { $0 + $1.cost } }
}

@Model final class Activity {
    var name: String
    var cost: Double
    var isBooked = false
    var trip: Trip?

    init(name: String, cost: Double, isBooked: Bool = false) {
        self.name = name
        self.cost = cost
        self.isBooked = isBooked
    }
}

let directory = CommandLine.arguments.dropFirst().first.map { URL(fileURLWithPath: $0, isDirectory: true) }
    ?? FileManager.default.temporaryDirectory.appendingPathComponent("SwiftDataTrips-\(UUID().uuidString)", isDirectory: true)
let configuration = ModelConfiguration(url: directory.appendingPathComponent("Trips.store"))
let container = try ModelContainer(for: Trip.self, configurations: configuration)
let context = ModelContext(container)

let day: TimeInterval = 86_400
let start = Date(timeIntervalSinceReferenceDate: 800_000_000)
let kyoto = Trip(name: "Autumn leaves", destination: "Kyoto", startDate: start, endDate: start + 6 * day)
kyoto.activities = [Activity(name: "Fushimi Inari", cost: 0, isBooked: true), Activity(name: "Kaiseki dinner", cost: 180)]
let lisbon = Trip(name: "Pastéis", destination: "Lisbon", startDate: start + 30 * day, endDate: start + 34 * day)
lisbon.activities = [Activity(name: "Tram 28", cost: 3), Activity(name: "Fado night", cost: 45, isBooked: true)]
context.insert(kyoto)
context.insert(lisbon)
try context.save()

let reading = ModelContext(container)
print("Trips")
for trip in try reading.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.startDate)])) {
    print("  \(trip.name) — \(trip.destination), \(trip.activities.count) activities, \(trip.totalCost) in all")
}
let booked = FetchDescriptor<Activity>(predicate: #Predicate { $0.isBooked && $0.trip != nil }, sortBy: [SortDescriptor(\.name)])
print("Booked")
for activity in try reading.fetch(booked) {
    print("  \(activity.name) (\(activity.trip?.destination ?? "-"))")
}
