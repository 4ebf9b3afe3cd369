@testable import CoreData
import Testing

/// Models a coordinator cannot use are refused with an error when a store is added, before any
/// file is created.
@Suite("Model validation")
struct ModelValidationTests {
    private func expectRefused(_ model: NSManagedObjectModel, _ expectedText: String) throws {
        let directory = try SQLiteScratchDirectory("model-validation")
        defer { directory.remove() }
        let url = directory.file("Model.sqlite")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        #expect {
            try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url)
        } throws: { error in
            (error as NSError).code == NSCoreDataError && (error as NSError).explanation.contains(expectedText)
        }
        #expect(!StoreFileProbe.exists(url))
    }

    @Test("names that are not identifiers are refused, so they never reach SQL")
    func namesMustBeIdentifiers() throws {
        let injected = ModelFixtureKit.entity("Item", [ModelFixtureKit.attribute("x INTEGER); CREATE TABLE PWNED (y", .stringAttributeType)])
        try expectRefused(ModelFixtureKit.model([injected]), "not an identifier")
        try expectRefused(ModelFixtureKit.model([ModelFixtureKit.entity("My Entity")]), "not an identifier")
        try expectRefused(ModelFixtureKit.model([ModelFixtureKit.entity("9Lives")]), "not an identifier")
    }

    @Test("persistent attributes of types only transient attributes may have are refused")
    func transientOnlyTypes() throws {
        try expectRefused(ModelFixtureKit.model([ModelFixtureKit.entity("Item", [ModelFixtureKit.attribute("anything", .undefinedAttributeType)])]), "only transient")
        let transient = ModelFixtureKit.attribute("anything", .undefinedAttributeType, transient: true)
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: ModelFixtureKit.model([ModelFixtureKit.entity("Item", [transient])]))
        _ = try coordinator.addPersistentStore(ofType: NSInMemoryStoreType, configurationName: nil, at: nil)
    }

    @Test("a uniqueness constraint must name properties of its entity")
    func uniquenessConstraintsNameProperties() throws {
        let entity = ModelFixtureKit.entity("Item", [ModelFixtureKit.attribute("code", .stringAttributeType)])
        entity.uniquenessConstraints = [["missing"]]
        try expectRefused(ModelFixtureKit.model([entity]), "uniqueness constraint")
    }

    @Test("derived attributes are refused until they are computed")
    func derivedAttributes() throws {
        let derived = NSDerivedAttributeDescription()
        derived.name = "titleCount"
        derived.attributeType = .integer64AttributeType
        derived.derivationExpression = NSExpression(forKeyPath: "title.@count")
        try expectRefused(ModelFixtureKit.model([ModelFixtureKit.entity("Item", [derived])]), "not supported yet")
    }
}
