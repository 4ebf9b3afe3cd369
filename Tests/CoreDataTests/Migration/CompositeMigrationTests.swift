@testable import CoreData
import Testing

/// Lightweight migration of composite attributes: a leaf keeps the values of the leaf at the same
/// element path, converted to its new type; a new leaf starts empty; a dropped leaf's column goes.
@Suite struct CompositeMigrationTests {
    private func model(_ elements: [NSAttributeDescription]) -> NSManagedObjectModel {
        let magnitude = NSCompositeAttributeDescription()
        magnitude.name = "magnitude"
        magnitude.elements = elements
        return ModelFixtureKit.model([ModelFixtureKit.entity("Quake", [ModelFixtureKit.attribute("code", .stringAttributeType), magnitude])])
    }

    @Test func leavesKeepTheirValuesAcrossAChangedComposite() throws {
        let scenario = try MigrationScenario("composite")
        defer { scenario.remove() }
        let v1 = model([ModelFixtureKit.attribute("richter", .doubleAttributeType), ModelFixtureKit.attribute("depth", .integer64AttributeType), ModelFixtureKit.attribute("felt", .booleanAttributeType)])
        try scenario.write(v1) { context in
            let quake = ctxInsert("Quake", into: context)
            quake.setValue("ak1", forKey: "code")
            quake.setValue(["richter": 4.6, "depth": Int64(10), "felt": true], forKey: "magnitude")
        }
        let origin = NSCompositeAttributeDescription()
        origin.name = "origin"
        origin.elements = [ModelFixtureKit.attribute("latitude", .doubleAttributeType)]
        let v2 = model([ModelFixtureKit.attribute("richter", .doubleAttributeType), ModelFixtureKit.attribute("depth", .doubleAttributeType), origin])
        try scenario.migrate(from: v1, to: v2)
        let magnitude = try scenario.read(v2) { context in
            try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Quake")).first?.value(forKey: "magnitude") as? [String: Any]
        }
        #expect(magnitude?["richter"] as? Double == 4.6)
        #expect(magnitude?["depth"] as? Double == 10)
        #expect(magnitude?["felt"] == nil)
        #expect(magnitude?["origin"] == nil)
        #expect(try RawStoreSQL.columns(scenario.url, "ZQUAKE").map(\.name) == ["Z_PK", "Z_ENT", "Z_OPT", "ZCODE", "ZRICHTER", "ZDEPTH", "ZLATITUDE"])
    }
}
