import Testing
@testable import CoreData

/// The one key-path resolver: what a key path walks and what it leaves to key-value coding.
@Suite("Resolved key paths")
struct ResolvedKeyPathTests {
    private let model = SQLiteGarageModel.make()
    private var person: NSEntityDescription { model.entitiesByName["Person"]! }

    private func names(_ resolved: ResolvedKeyPath) -> [String] {
        resolved.steps.map(\.property.name)
    }

    @Test func aKeyPathWalksToOneAndToManyRelationshipsToAnAttribute() throws {
        let resolved = try person.resolve(keyPath: "favoriteVehicle.fans.name")
        #expect(names(resolved) == ["favoriteVehicle", "fans", "name"])
        #expect(resolved.steps.map(\.entity.name) == ["Person", "Vehicle", "Person"])
        #expect(resolved.relationships.map(\.name) == ["favoriteVehicle", "fans"])
        #expect(resolved.firstToManyIndex == 1)
        #expect(resolved.remainder.isEmpty)
    }

    @Test func anAttributeValueAndACollectionOperatorAreLeftToKeyValueCoding() throws {
        let intoValue = try person.resolve(keyPath: "name.length")
        #expect(names(intoValue) == ["name"])
        #expect(Array(intoValue.remainder) == ["length"])

        let aggregate = try person.resolve(keyPath: "vehicles.@count")
        #expect(names(aggregate) == ["vehicles"])
        #expect(Array(aggregate.remainder) == ["@count"])
        #expect(Array(aggregate.components(after: aggregate.steps[0])) == ["@count"])
    }

    @Test func selfStandsForTheObjectReachedSoFar() throws {
        let resolved = try person.resolve(keyPath: "self.favoriteVehicle.self")
        #expect(names(resolved) == ["favoriteVehicle"])
        #expect(resolved.steps[0].position == 1)
        #expect(resolved.remainder.isEmpty)
        #expect(try person.resolve(keyPath: "self").steps.isEmpty)
    }

    @Test func aSubEntitysPropertyIsNotAPropertyOfItsParent() throws {
        #expect(throws: (any Error).self) { try person.resolve(keyPath: "favoriteVehicle.seats") }
        let car = try #require(model.entitiesByName["car"])
        #expect(try names(car.resolve(keyPath: "owner.name")) == ["owner", "name"])
    }

    @Test func anUnknownKeyNamesTheWholePathAndTheRootEntity() {
        let error = #expect(throws: NSError.self) { try person.resolve(keyPath: "vehicles.colour") }
        #expect(error?.explanation.contains("vehicles.colour") == true)
        #expect(error?.explanation.contains("Person") == true)
    }
}
