import Foundation
import SwiftData
import Testing

// Lifetimes and models of other schema versions: what a program does by mistake or in passing
// must not crash or keep things alive.
enum PetsV1 {
    @Model final class Pet {
        var nickname: String
        init(nickname: String) { self.nickname = nickname }
    }
}

enum PetsV2 {
    @Model final class Pet {
        var age: Int
        var name: String
        init(age: Int, name: String) {
            self.age = age
            self.name = name
        }
    }
}

@Suite struct ModelContextLifetimeTests {
    @Test func aContextNobodyHoldsGoesAway() throws {
        let container = try ModelContainer(for: Trip.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        weak var released: ModelContext?
        do {
            let context = ModelContext(container)
            context.insert(Trip(name: "Gone", destination: "Soon"))
            try context.save()
            released = context
        }
        #expect(released == nil)
    }

    @Test func fetchedModelsKeepTheirContextAliveUntilTheyAreGone() throws {
        let container = try ModelContainer(for: Trip.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        weak var released: ModelContext?
        var trips: [Trip] = []
        do {
            let context = ModelContext(container)
            context.insert(Trip(name: "Kept", destination: "Alive"))
            try context.save()
            trips = try ModelContext(container).fetch(FetchDescriptor<Trip>())
            released = trips.first?.modelContext
        }
        #expect(released != nil)
        #expect(trips.map(\.name) == ["Kept"])
        trips = []
        #expect(released == nil)
    }

    @Test func aContextWhoseModelsWentAwayKeepsItsNextModelsContext() throws {
        let container = try ModelContainer(for: Trip.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        var context: ModelContext? = ModelContext(container)
        context?.insert(Trip(name: "Again", destination: "Later"))
        try context?.save()
        try context?.fetch(FetchDescriptor<Trip>()).forEach { _ = $0.name }
        let trips = try context?.fetch(FetchDescriptor<Trip>()) ?? []
        weak var released = context
        context = nil
        #expect(released != nil)
        #expect(trips.first?.modelContext === released)
    }

    @MainActor @Test func theMainContextIsOneContextWithItsSettings() throws {
        let container = try ModelContainer(for: Trip.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        container.mainContext.autosaveEnabled = false
        #expect(container.mainContext.autosaveEnabled == false)
        #expect(container.mainContext === container.mainContext)
    }

    @Test func fetchingAClassOfAnotherSchemaVersionThrows() throws {
        let context = ModelContext(try ModelContainer(for: PetsV2.Pet.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true)))
        context.insert(PetsV2.Pet(age: 3, name: "Rex"))
        try context.save()
        #expect(throws: SwiftDataError.configurationSchemaNotFoundInContainerSchema) { try context.fetch(FetchDescriptor<PetsV1.Pet>()) }
        #expect(throws: SwiftDataError.configurationSchemaNotFoundInContainerSchema) { try context.fetchCount(FetchDescriptor<PetsV1.Pet>()) }
        #expect(try context.fetch(FetchDescriptor<PetsV2.Pet>()).map(\.name) == ["Rex"])
    }

    @Test func insertingAClassOfAnotherSchemaVersionFailsAtSave() throws {
        let context = ModelContext(try ModelContainer(for: PetsV2.Pet.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true)))
        let pet = PetsV1.Pet(nickname: "Rex")
        context.insert(pet)
        #expect(pet.nickname == "Rex")
        #expect(throws: NSError.self) { try context.save() }
    }
}
