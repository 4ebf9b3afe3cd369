@testable import CoreData
import Testing

/// `NSMappingModel.inferredMappingModel(forSourceModel:destinationModel:)`: the mappings it makes
/// and the changes it refuses with 134190 (`spec/semantics.md` MIG-8 to MIG-10).
@Suite struct MappingInferenceTests {
    typealias Kit = ModelFixtureKit
    typealias Models = MigrationModels

    private func inferred(_ source: NSManagedObjectModel, _ destination: NSManagedObjectModel) throws -> NSMappingModel {
        try NSMappingModel.inferredMappingModel(forSourceModel: source, destinationModel: destination)
    }

    private func inferenceError(_ source: NSManagedObjectModel, _ destination: NSManagedObjectModel) -> NSError? {
        do {
            _ = try inferred(source, destination)
            return nil
        } catch {
            return error as NSError
        }
    }

    @Test func mappingsAreNamedAndTypedAsApplesInferredOnes() throws {
        let source = Kit.model([
            Kit.entity("Kept", [Models.attribute("a", .stringAttributeType)]),
            Kit.entity("Changed", [Models.attribute("a", .stringAttributeType)]),
            Kit.entity("Gone", [Models.attribute("a", .stringAttributeType)]),
        ])
        let destination = Kit.model([
            Kit.entity("Kept", [Models.attribute("a", .stringAttributeType)]),
            Kit.entity("Changed", [Models.attribute("a", .stringAttributeType), Models.attribute("b", .integer64AttributeType)]),
            Kit.entity("New", [Models.attribute("a", .stringAttributeType)]),
        ])
        let mapping = try inferred(source, destination)
        let byName = mapping.entityMappingsByName
        #expect(Set(byName.keys) == ["IEM_Copy_Kept", "IEM_Transform_Changed", "IEM_Add_New", "IEM_Remove_Gone"])
        #expect(byName["IEM_Copy_Kept"]?.mappingType == .copyEntityMappingType)
        #expect(byName["IEM_Transform_Changed"]?.mappingType == .transformEntityMappingType)
        #expect(byName["IEM_Add_New"]?.mappingType == .addEntityMappingType)
        #expect(byName["IEM_Remove_Gone"]?.mappingType == .removeEntityMappingType)
        let changed = try #require(byName["IEM_Transform_Changed"])
        #expect(changed.sourceEntityVersionHash == source.entitiesByName["Changed"]?.versionHash)
        #expect(changed.destinationEntityVersionHash == destination.entitiesByName["Changed"]?.versionHash)
        let a = try #require(changed.attributeMappings?.first { $0.name == "a" })
        #expect(a.valueExpression?.description == "FUNCTION($source, \"valueForKey:\" , \"a\")")
        #expect(changed.attributeMappings?.first { $0.name == "b" }?.valueExpression == nil)
    }

    @Test func relationshipsMapThroughTheManager() throws {
        func model(_ toMany: Bool) -> NSManagedObjectModel {
            let owner = Kit.entity("Owner")
            let pet = Kit.entity("Pet")
            let pets = Kit.relationship("pets", to: pet, maxCount: toMany ? 0 : 1)
            let ownerLink = Kit.relationship("owner", to: owner, maxCount: 1)
            Kit.inverse(pets, ownerLink)
            owner.properties = [pets]
            pet.properties = [ownerLink]
            return Kit.model([owner, pet])
        }
        let mapping = try inferred(model(false), model(true))
        let pets = mapping.entityMappingsByName["IEM_Transform_Owner"]?.relationshipMappings?.first
        #expect(pets?.valueExpression?.description == "FUNCTION($manager, \"destinationInstancesForSourceRelationshipNamed:sourceInstances:\" , \"pets\" , FUNCTION($source, \"valueForKey:\" , \"pets\"))")
        let error = inferenceError(model(true), model(false))
        #expect(error?.code == NSInferredMappingModelError)
        #expect((error?.userInfo["reason"] as? String)?.contains("to-many to to-one") == true)
    }

    @Test func renamingIdentifiersAreCanonicalNamesAcrossSeveralVersions() throws {
        let v1 = Kit.model([Kit.entity("Person", [Models.attribute("name", .stringAttributeType)])])
        let v2Entity = Kit.entity("Human", [Models.attribute("fullName", .stringAttributeType, renamedFrom: "name")])
        v2Entity.renamingIdentifier = "Person"
        let v3Entity = Kit.entity("Being", [Models.attribute("label", .stringAttributeType, renamedFrom: "name")])
        v3Entity.renamingIdentifier = "Person"
        let v2 = Kit.model([v2Entity])
        let v3 = Kit.model([v3Entity])
        for source in [v1, v2] {
            let mapping = try inferred(source, v3)
            let transform = try #require(mapping.entityMappings.first { $0.mappingType == .transformEntityMappingType })
            #expect(transform.destinationEntityName == "Being")
            let expected = source === v1 ? "name" : "fullName"
            #expect(PropertyMappingSource(transform.attributeMappings?.first?.valueExpression).map { "\($0)" } == "sourceProperty(\"\(expected)\")")
        }
    }

    @Test func mergingTwoHierarchiesCannotBeInferred() throws {
        let source = Kit.model([Kit.entity("Cat"), Kit.entity("Dog")])
        let animal = Kit.entity("Animal")
        let cat = Kit.entity("Cat")
        let dog = Kit.entity("Dog")
        animal.subentities = [cat, dog]
        let error = inferenceError(source, Kit.model([animal, cat, dog]))
        #expect(error?.code == NSInferredMappingModelError)
        #expect((error?.userInfo["reason"] as? String)?.contains("merging hierarchies") == true)
    }

    @Test func attributesAndRelationshipsDoNotTurnIntoEachOther() throws {
        let target = Kit.entity("Target")
        let source = Kit.model([Kit.entity("Thing", [Models.attribute("link", .integer64AttributeType)]), target])
        let newTarget = Kit.entity("Target")
        let destination = Kit.model([Kit.entity("Thing", [Kit.relationship("link", to: newTarget, maxCount: 1)]), newTarget])
        #expect(inferenceError(source, destination)?.code == NSInferredMappingModelError)
    }

    @Test func onlyNumericTypeChangesAreInferred() throws {
        func model(_ type: NSAttributeType) -> NSManagedObjectModel {
            Models.book([Models.attribute("value", type)])
        }
        let numeric: [NSAttributeType] = [.integer16AttributeType, .integer32AttributeType, .integer64AttributeType, .doubleAttributeType, .floatAttributeType, .decimalAttributeType, .booleanAttributeType]
        for from in numeric {
            for to in numeric {
                #expect(inferenceError(model(from), model(to)) == nil, "\(from) → \(to)")
            }
        }
        for (from, to) in [(NSAttributeType.stringAttributeType, NSAttributeType.integer64AttributeType), (.integer64AttributeType, .stringAttributeType), (.dateAttributeType, .doubleAttributeType), (.binaryDataAttributeType, .stringAttributeType)] {
            #expect(inferenceError(model(from), model(to))?.code == NSInferredMappingModelError, "\(from) → \(to)")
        }
    }

    @Test func aRelationshipMayWidenItsDestinationButNotNarrowIt() throws {
        func model(pointsAtNovel: Bool) -> NSManagedObjectModel {
            let book = Kit.entity("Book")
            let novel = Kit.entity("Novel")
            book.subentities = [novel]
            let page = Kit.entity("Page", [Kit.relationship("book", to: pointsAtNovel ? novel : book, maxCount: 1)])
            return Kit.model([book, novel, page])
        }
        #expect(inferenceError(model(pointsAtNovel: false), model(pointsAtNovel: true))?.code == NSInferredMappingModelError)
        #expect(inferenceError(model(pointsAtNovel: true), model(pointsAtNovel: false)) == nil)
    }
}
