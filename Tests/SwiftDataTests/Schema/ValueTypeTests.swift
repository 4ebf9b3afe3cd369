import CoreData
@testable import SwiftData
import Testing

@Suite struct ValueTypeTests {
    let store = TemporaryStore()

    private func makeContainer() throws -> ModelContainer {
        try ModelContainer(for: Appliance.self, configurations: ModelConfiguration(url: store.url))
    }

    @Test func everyKindOfValueIsSavedAndReadBack() throws {
        let container = try makeContainer()
        let context = ModelContext(container)
        let gadget = Appliance(name: "Lamp")
        gadget.count = -42
        gadget.small = 7
        gadget.medium = 70_000
        gadget.large = Int64.max
        gadget.unsigned = 200
        gadget.ratio = 0.25
        gadget.weight = 1.5
        gadget.isActive = false
        gadget.created = Date(timeIntervalSinceReferenceDate: 1000)
        gadget.blob = Data([1, 2, 3])
        gadget.homepage = URL(string: "https://example.com/lamp")
        gadget.price = Decimal(string: "19.99")!
        gadget.nickname = "Lumi"
        gadget.finish = .glossy
        gadget.priority = .high
        gadget.dimensions = Dimensions(width: 3, height: 4)
        gadget.tags = ["a", "b"]
        gadget.scores = [1: 0.5]
        let serial = gadget.serial
        context.insert(gadget)
        try context.save()

        // A `let` keeps its value in the class's own storage: the insert saved it, and a fetch
        // finds the model by it, but a fetched model's constant holds its initial value again.
        let bySerial = FetchDescriptor<Appliance>(predicate: #Predicate { $0.serial == serial })
        let read = try #require(try ModelContext(container).fetch(bySerial).first)
        #expect(read !== gadget)
        #expect(read.name == "Lamp")
        #expect(read.count == -42)
        #expect(read.small == 7)
        #expect(read.medium == 70_000)
        #expect(read.large == Int64.max)
        #expect(read.unsigned == 200)
        #expect(read.ratio == 0.25)
        #expect(read.weight == 1.5)
        #expect(read.isActive == false)
        #expect(read.created == Date(timeIntervalSinceReferenceDate: 1000))
        #expect(read.blob == Data([1, 2, 3]))
        #expect(read.homepage == URL(string: "https://example.com/lamp"))
        #expect(read.price == Decimal(string: "19.99")!)
        #expect(read.nickname == "Lumi")
        #expect(read.finish == .glossy)
        #expect(read.priority == .high)
        #expect(read.dimensions == Dimensions(width: 3, height: 4))
        #expect(read.tags == ["a", "b"])
        #expect(read.scores == [1: 0.5])
    }

    @Test func swiftTypesBecomeCoreDataAttributeTypes() throws {
        let container = try makeContainer()
        let entity = try #require(container.schema.entity(for: Appliance.self))
        let attributes = entity.attributesByName
        #expect(attributes["serial"]?.isOptional == false)
        #expect(attributes["nickname"]?.isOptional == true)
        #expect(attributes["priority"]?.isOptional == true)
        #expect(entity.storedProperties.map(\.name).first == "serial", "a let with an initial value is persisted")

        let described = try #require(container.coordinator.managedObjectModel.entitiesByName["Appliance"])
        let types = described.attributesByName.mapValues(\.attributeType)
        #expect(types["serial"] == .UUIDAttributeType)
        #expect(types["count"] == .integer64AttributeType)
        #expect(types["small"] == .integer16AttributeType)
        #expect(types["medium"] == .integer32AttributeType)
        #expect(types["large"] == .integer64AttributeType)
        #expect(types["ratio"] == .doubleAttributeType)
        #expect(types["weight"] == .floatAttributeType)
        #expect(types["isActive"] == .booleanAttributeType)
        #expect(types["created"] == .dateAttributeType)
        #expect(types["blob"] == .binaryDataAttributeType)
        #expect(types["homepage"] == .URIAttributeType)
        #expect(types["price"] == .decimalAttributeType)
        #expect(types["finish"] == .stringAttributeType, "an enum is stored as its raw value")
        #expect(types["priority"] == .integer64AttributeType)
        #expect(types["dimensions"] == .compositeAttributeType, "a structure of attribute values is a composite attribute")
        #expect(types["tags"] == .binaryDataAttributeType, "an array is a property list")
        #expect(described.attributesByName["count"]?.defaultValue as? NSNumber == 0, "the initial value is the default value")
    }
}
