@testable import CoreData
import Testing

/// Rows a sound store never has — an abstract entity's number, an unknown number — are skipped
/// by fetches instead of crashing the process.
@Suite("SQLite store: damaged rows")
struct DamagedRowTests {
    private func makeModel() -> NSManagedObjectModel {
        let shape = ModelFixtureKit.entity("Shape", abstract: true, [ModelFixtureKit.attribute("name", .stringAttributeType)])
        let circle = ModelFixtureKit.entity("Circle", [ModelFixtureKit.attribute("radius", .doubleAttributeType)])
        shape.subentities = [circle]
        return ModelFixtureKit.model([shape, circle])
    }

    private func storeWithOneCircle(_ url: URL) throws {
        let stack = try SQLiteTestStack(model: makeModel(), url: url)
        try stack.context.performAndWait {
            let circle = NSEntityDescription.insertNewObject(forEntityName: "Circle", into: stack.context)
            circle.setValue("round", forKey: "name")
            try stack.context.save()
        }
        stack.close()
    }

    private func damage(_ url: URL, setEntityNumberTo number: Int64) throws {
        let connection = try SQLiteConnection(path: url.path, readOnly: false, create: false)
        defer { connection.close() }
        let statement = try connection.statement("UPDATE ZSHAPE SET Z_ENT = ?")
        statement.bind(number, at: 1)
        try statement.run()
    }

    @Test("a row naming an abstract entity, or an unknown one, is skipped", arguments: [Int64(1), 99])
    func rowsOfNoConcreteEntityAreSkipped(number: Int64) throws {
        let directory = try SQLiteScratchDirectory("damaged-rows")
        defer { directory.remove() }
        let url = directory.file("Shapes.sqlite")
        try storeWithOneCircle(url)
        #expect(try RawStoreSQL.value(url, "SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = 'Shape'") == .integer(1))
        try damage(url, setEntityNumberTo: number)

        let stack = try SQLiteTestStack(model: makeModel(), url: url)
        defer { stack.close() }
        let (objects, identifiers) = try stack.context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Shape")
            let objects = try stack.context.fetch(request)
            let identifierRequest = NSFetchRequest<NSManagedObjectID>(entityName: "Shape")
            identifierRequest.resultType = .managedObjectIDResultType
            return (objects.count, try stack.context.fetch(identifierRequest).count)
        }
        #expect(objects == 0)
        #expect(identifiers == 0)
    }

    @Test("a URI naming an abstract entity resolves to no object ID")
    func abstractEntityURI() throws {
        let directory = try SQLiteScratchDirectory("damaged-uri")
        defer { directory.remove() }
        let url = directory.file("Shapes.sqlite")
        let stack = try SQLiteTestStack(model: makeModel(), url: url)
        defer { stack.close() }
        let uuid = try #require(stack.store.identifier)
        #expect(stack.coordinator.managedObjectID(forURIRepresentation: URL(string: "x-coredata://\(uuid)/Shape/p1")!) == nil)
        #expect(stack.coordinator.managedObjectID(forURIRepresentation: URL(string: "x-coredata://\(uuid)/Circle/p1")!) != nil)
    }
}
