import CoreData
import Testing

/// `NSEntityDescription.compoundIndexes`, the form fetch indexes replaced: it sets and reads the
/// entity's `indexes`, and the SQLite store creates them.
@Suite struct CompoundIndexesTests {
    private func place() -> NSEntityDescription {
        ModelFixtureKit.entity("Place", [
            ModelFixtureKit.attribute("latitude", .doubleAttributeType),
            ModelFixtureKit.attribute("longitude", .doubleAttributeType),
            ModelFixtureKit.attribute("name", .stringAttributeType),
        ])
    }

    @Test @available(*, deprecated) func settingItMakesOneBinaryIndexPerArrayFromPropertiesOrNames() throws {
        let entity = place()
        let name = try #require(entity.propertiesByName["name"])
        entity.compoundIndexes = [["latitude", "longitude"], [name], ["nothing"], []]
        #expect(entity.indexes.map(\.name) == ["latitude_longitude", "name"])
        #expect(entity.indexes.first?.elements.map { $0.property?.name } == ["latitude", "longitude"])
        #expect(entity.indexes.flatMap(\.elements).allSatisfy { $0.collationType == .binary && $0.isAscending })
        let read = entity.compoundIndexes.map { $0.compactMap { ($0 as? NSPropertyDescription)?.name } }
        #expect(read == [["latitude", "longitude"], ["name"]])
        #expect(entity.compoundIndexes.allSatisfy { $0.allSatisfy { $0 is NSPropertyDescription } })
    }

    @Test @available(*, deprecated) func theSQLiteStoreCreatesTheCompoundIndex() throws {
        let entity = place()
        entity.compoundIndexes = [["latitude", "longitude"]]
        let directory = try SQLiteScratchDirectory("compound-index")
        defer { directory.remove() }
        let url = directory.file("Places.sqlite")
        try SQLiteTestStack(model: ModelFixtureKit.model([entity]), url: url).close()
        #expect(try RawStoreSQL.indexes(url).contains("Z_Place_latitude_longitude"))
        #expect(try RawStoreSQL.indexColumns(url, "Z_Place_latitude_longitude") == ["ZLATITUDE", "ZLONGITUDE"])
    }

    @Test @available(*, deprecated) func readingGivesThePropertiesOfIndexesSetDirectly() throws {
        let entity = place()
        let latitude = try #require(entity.propertiesByName["latitude"])
        entity.indexes = [NSFetchIndexDescription(name: "byLatitude", elements: [NSFetchIndexElementDescription(property: latitude, collationType: .binary)])]
        #expect(entity.compoundIndexes.count == 1)
        #expect((entity.compoundIndexes.first?.first as? NSPropertyDescription) === latitude)
    }
}
