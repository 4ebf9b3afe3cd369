@testable import CoreData
import Testing

/// A small zoo built in code: abstract `Animal` (name) with sub-entities `Cat` (lives) and `Dog`
/// (breed), `Dog` has sub-entity `Puppy` (age). `Keeper` (name) ↔ `Animal` through `animals`
/// (to-many) / `keeper` (to-one).
private enum Zoo {
    static func make() -> NSManagedObjectModel {
        let animal = ModelFixtureKit.entity("Animal", abstract: true)
        let cat = ModelFixtureKit.entity("Cat")
        let dog = ModelFixtureKit.entity("Dog")
        let puppy = ModelFixtureKit.entity("Puppy")
        let keeper = ModelFixtureKit.entity("Keeper")

        let animals = ModelFixtureKit.relationship("animals", to: animal, maxCount: 0, deleteRule: .cascadeDeleteRule)
        let animalKeeper = ModelFixtureKit.relationship("keeper", to: keeper, maxCount: 1)
        ModelFixtureKit.inverse(animals, animalKeeper)

        animal.properties = [ModelFixtureKit.attribute("name", .stringAttributeType, optional: false), animalKeeper]
        cat.properties = [ModelFixtureKit.attribute("lives", .integer16AttributeType)]
        dog.properties = [ModelFixtureKit.attribute("breed", .stringAttributeType)]
        puppy.properties = [ModelFixtureKit.attribute("age", .integer32AttributeType)]
        keeper.properties = [ModelFixtureKit.attribute("name", .stringAttributeType), animals]

        animal.subentities = [cat, dog]
        dog.subentities = [puppy]
        return ModelFixtureKit.model([animal, cat, dog, puppy, keeper])
    }
}

@Suite("Model building in code")
struct ModelBuildingTests {
    @Test("entitiesByName, superentity and subentities")
    func inheritance() throws {
        let model = Zoo.make()
        #expect(Set(model.entitiesByName.keys) == ["Animal", "Cat", "Dog", "Puppy", "Keeper"])
        let animal = try #require(model.entitiesByName["Animal"])
        let dog = try #require(model.entitiesByName["Dog"])
        let puppy = try #require(model.entitiesByName["Puppy"])
        #expect(animal.superentity == nil)
        #expect(dog.superentity === animal)
        #expect(puppy.superentity === dog)
        #expect(Set(animal.subentities.compactMap(\.name)) == ["Cat", "Dog"])
        #expect(Set(animal.subentitiesByName.keys) == ["Cat", "Dog"])
        #expect(dog.subentitiesByName["Puppy"] === puppy)
        #expect(animal.isAbstract)
        #expect(!dog.isAbstract)
        #expect(puppy.isKindOf(entity: animal))
        #expect(puppy.isKindOf(entity: dog))
        #expect(!animal.isKindOf(entity: dog))
        #expect(dog.managedObjectModel === model)
    }

    @Test("properties, propertiesByName, attributesByName and relationshipsByName include inherited ones")
    func inheritedProperties() throws {
        let model = Zoo.make()
        let puppy = try #require(model.entitiesByName["Puppy"])
        #expect(Set(puppy.properties.map(\.name)) == ["name", "keeper", "breed", "age"])
        #expect(Set(puppy.propertiesByName.keys) == ["name", "keeper", "breed", "age"])
        #expect(Set(puppy.attributesByName.keys) == ["name", "breed", "age"])
        #expect(Set(puppy.relationshipsByName.keys) == ["keeper"])
        #expect(puppy.attributesByName["age"]?.attributeType == .integer32AttributeType)
        #expect(puppy.relationshipsByName["keeper"]?.destinationEntity?.name == "Keeper")
        let cat = try #require(model.entitiesByName["Cat"])
        #expect(cat.attributesByName["breed"] == nil)
        #expect(cat.attributesByName["lives"] != nil)
        let animal = try #require(model.entitiesByName["Animal"])
        #expect(Set(animal.propertiesByName.keys) == ["name", "keeper"])
    }

    @Test("a property's entity is the entity that declares it")
    func propertyEntity() throws {
        let model = Zoo.make()
        let cat = try #require(model.entitiesByName["Cat"])
        let lives = try #require(cat.attributesByName["lives"])
        #expect(lives.entity === cat)
        let keeper = try #require(model.entitiesByName["Keeper"])
        let animals = try #require(keeper.relationshipsByName["animals"])
        #expect(animals.entity === keeper)
        #expect(animals.inverseRelationship?.name == "keeper")
        #expect(animals.inverseRelationship?.inverseRelationship === animals)
        #expect(animals.deleteRule == .cascadeDeleteRule)
    }

    @Test("relationships(forDestination:)")
    func relationshipsForDestination() throws {
        let model = Zoo.make()
        let keeper = try #require(model.entitiesByName["Keeper"])
        let animal = try #require(model.entitiesByName["Animal"])
        #expect(keeper.relationships(forDestination: animal).map(\.name) == ["animals"])
        #expect(animal.relationships(forDestination: keeper).map(\.name) == ["keeper"])
        #expect(keeper.relationships(forDestination: keeper).isEmpty)
    }

    // MARK: Types and raw values

    @Test("NSAttributeDescription.AttributeType maps to Apple's NSAttributeType raw values", arguments: [
        (NSAttributeDescription.AttributeType.undefined, UInt(0)),
        (.integer16, 100), (.integer32, 200), (.integer64, 300), (.decimal, 400), (.double, 500),
        (.float, 600), (.string, 700), (.boolean, 800), (.date, 900), (.binaryData, 1000),
        (.uuid, 1100), (.uri, 1200), (.transformable, 1800), (.objectID, 2000), (.composite, 2100),
    ])
    func attributeTypeRawValues(type: NSAttributeDescription.AttributeType, raw: UInt) {
        #expect(type.rawValue.rawValue == raw)
        #expect(NSAttributeType(rawValue: raw) == type.rawValue)
        let attribute = NSAttributeDescription()
        attribute.type = type
        #expect(attribute.attributeType.rawValue == raw)
        #expect(attribute.type == type)
    }

    @Test("the attribute type setters agree: .uuid and .string")
    func attributeTypeSetters() {
        let attribute = NSAttributeDescription()
        attribute.type = .uuid
        #expect(attribute.attributeType == .UUIDAttributeType)
        attribute.attributeType = .stringAttributeType
        #expect(attribute.type == .string)
        #expect(NSAttributeDescription.AttributeType(.URIAttributeType) == .uri)
    }

    @Test("NSDeleteRule raw values")
    func deleteRuleRawValues() {
        #expect(NSDeleteRule.noActionDeleteRule.rawValue == 0)
        #expect(NSDeleteRule.nullifyDeleteRule.rawValue == 1)
        #expect(NSDeleteRule.cascadeDeleteRule.rawValue == 2)
        #expect(NSDeleteRule.denyDeleteRule.rawValue == 3)
        #expect(NSRelationshipDescription().deleteRule == .nullifyDeleteRule)
    }

    @Test("isToMany is false exactly when maxCount is 1")
    func isToManyFollowsMaxCount() {
        let relationship = NSRelationshipDescription()
        for (maxCount, toMany) in [(1, false), (0, true), (2, true), (10_000, true), (Int.max, true)] {
            relationship.maxCount = maxCount
            #expect(relationship.isToMany == toMany, "maxCount \(maxCount)")
        }
    }

    @Test("a new relationship has Apple's documented defaults: maxCount 0 (so to-many), minCount 0")
    func relationshipDefaults() {
        // developer.apple.com/documentation/coredata/nsrelationshipdescription/maxcount:
        // "The default value is 0."
        let relationship = NSRelationshipDescription()
        #expect(relationship.maxCount == 0)
        #expect(relationship.isToMany)
        #expect(relationship.minCount == 0)
        #expect(!relationship.isOrdered)
    }

    // MARK: Configurations

    @Test("setEntities(_:forConfigurationName:) and entities(forConfigurationName:)")
    func configurations() throws {
        let model = Zoo.make()
        let keeper = try #require(model.entitiesByName["Keeper"])
        let cat = try #require(model.entitiesByName["Cat"])
        model.setEntities([keeper], forConfigurationName: "Staff")
        model.setEntities([cat, keeper], forConfigurationName: "Mixed")
        #expect(model.configurations.contains("Staff"))
        #expect(model.configurations.contains("Mixed"))
        #expect(model.entities(forConfigurationName: "Staff")?.map(\.name) == ["Keeper"])
        #expect(Set(model.entities(forConfigurationName: "Mixed")?.compactMap(\.name) ?? []) == ["Cat", "Keeper"])
        #expect(model.entities(forConfigurationName: "Missing") == nil)
        // nil names the default configuration, which holds every entity.
        #expect(Set(model.entities(forConfigurationName: nil)?.compactMap(\.name) ?? []) == Set(model.entitiesByName.keys))
        // Replacing a configuration's entities.
        model.setEntities([cat], forConfigurationName: "Staff")
        #expect(model.entities(forConfigurationName: "Staff")?.map(\.name) == ["Cat"])
    }

    // MARK: Fetch request templates

    @Test("fetch request templates with $variables")
    func fetchRequestTemplates() throws {
        let model = Zoo.make()
        let keeper = try #require(model.entitiesByName["Keeper"])
        let template = NSFetchRequest<NSFetchRequestResult>()
        template.entity = keeper
        template.predicate = NSPredicate(format: "name == $NAME")
        template.fetchLimit = 5
        model.setFetchRequestTemplate(template, forName: "keeperNamed")

        let stored = try #require(model.fetchRequestTemplate(forName: "keeperNamed"))
        #expect(stored.entity === keeper)
        #expect(stored.predicate?.predicateFormat == "name == $NAME")
        #expect(model.fetchRequestTemplatesByName.keys.contains("keeperNamed"))
        #expect(model.fetchRequestTemplate(forName: "other") == nil)

        let request = try #require(model.fetchRequestFromTemplate(withName: "keeperNamed", substitutionVariables: ["NAME": "Ann"]))
        #expect(request !== stored)
        #expect(request.entity === keeper)
        #expect(request.entityName == "Keeper")
        #expect(request.fetchLimit == 5)
        #expect(request.predicate?.predicateFormat == "name == \"Ann\"")
        // The template itself keeps its variable.
        #expect(model.fetchRequestTemplate(forName: "keeperNamed")?.predicate?.predicateFormat == "name == $NAME")
        #expect(model.fetchRequestFromTemplate(withName: "nope", substitutionVariables: [:]) == nil)

        model.setFetchRequestTemplate(nil, forName: "keeperNamed")
        #expect(model.fetchRequestTemplate(forName: "keeperNamed") == nil)
    }

    @Test("a request made from a template fetches with the substituted value")
    func templateFetches() throws {
        let model = Zoo.make()
        let template = NSFetchRequest<NSFetchRequestResult>()
        template.entity = model.entitiesByName["Keeper"]
        template.predicate = NSPredicate(format: "name == $NAME")
        model.setFetchRequestTemplate(template, forName: "keeperNamed")

        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(ofType: NSInMemoryStoreType, configurationName: nil, at: nil, options: nil)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            for name in ["Ann", "Bob"] {
                NSEntityDescription.insertNewObject(forEntityName: "Keeper", into: context).setValue(name, forKey: "name")
            }
            try context.save()
            let request = try #require(model.fetchRequestFromTemplate(withName: "keeperNamed", substitutionVariables: ["NAME": "Bob"]))
            let found = try context.fetch(request)
            #expect(found.count == 1)
            #expect((found.first as? NSManagedObject)?.value(forKey: "name") as? String == "Bob")
        }
    }

    // MARK: Copying

    @Test("copy() is deep: new entities with relationships, inverses and inheritance rewired")
    func deepCopy() throws {
        let model = Zoo.make()
        model.versionIdentifiers = ["1.2"]
        let keeperEntity = try #require(model.entitiesByName["Keeper"])
        model.setEntities([keeperEntity], forConfigurationName: "Staff")
        let template = NSFetchRequest<NSFetchRequestResult>()
        template.entity = keeperEntity
        template.predicate = NSPredicate(format: "name == $NAME")
        model.setFetchRequestTemplate(template, forName: "keeperNamed")

        let copy = try #require(model.copy() as? NSManagedObjectModel)
        #expect(copy !== model)
        #expect(Set(copy.entitiesByName.keys) == Set(model.entitiesByName.keys))
        for (name, original) in model.entitiesByName {
            let copied = try #require(copy.entitiesByName[name])
            #expect(copied !== original, "entity \(name) must be copied")
            #expect(copied.managedObjectModel === copy)
            for property in copied.properties {
                #expect(property !== original.propertiesByName[property.name], "\(name).\(property.name) must be copied")
            }
        }
        let keeper = try #require(copy.entitiesByName["Keeper"])
        let animal = try #require(copy.entitiesByName["Animal"])
        let dog = try #require(copy.entitiesByName["Dog"])
        let puppy = try #require(copy.entitiesByName["Puppy"])
        let animals = try #require(keeper.relationshipsByName["animals"])
        #expect(animals.destinationEntity === animal)
        #expect(animals.inverseRelationship === animal.relationshipsByName["keeper"])
        #expect(animal.relationshipsByName["keeper"]?.destinationEntity === keeper)
        #expect(animal.relationshipsByName["keeper"]?.inverseRelationship === animals)
        #expect(dog.superentity === animal)
        #expect(puppy.superentity === dog)
        #expect(Set(animal.subentities.map(ObjectIdentifier.init)) == Set([copy.entitiesByName["Cat"]!, dog].map(ObjectIdentifier.init)))
        #expect(puppy.relationshipsByName["keeper"]?.destinationEntity === keeper)

        #expect(copy.entityVersionHashesByName == model.entityVersionHashesByName)
        #expect(copy.entities(forConfigurationName: "Staff")?.first === keeper)
        #expect(copy.fetchRequestTemplate(forName: "keeperNamed") != nil)
        #expect(copy.versionIdentifiers == model.versionIdentifiers)

        // Changing the copy leaves the original alone.
        let originalHash = try #require(model.entitiesByName["Keeper"]).versionHash
        keeper.properties = keeper.properties + [ModelFixtureKit.attribute("badge", .integer64AttributeType)]
        #expect(try #require(model.entitiesByName["Keeper"]).versionHash == originalHash)
        #expect(model.entitiesByName["Keeper"]?.attributesByName["badge"] == nil)
        #expect(keeper.versionHash != originalHash)
    }

    // MARK: Immutability once in use

    @Test("a coordinator freezes the model it uses; a copy of a frozen model is editable")
    func coordinatorFreezesModel() throws {
        let model = Zoo.make()
        #expect(!model.isFrozen)
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        #expect(coordinator.managedObjectModel === model)
        #expect(model.isFrozen)
        // Reading stays possible.
        #expect(model.entitiesByName.count == 5)
        #expect(model.isConfiguration(withName: nil, compatibleWithStoreMetadata: [NSStoreModelVersionHashesKey: model.entityVersionHashesByName]))

        let copy = try #require(model.copy() as? NSManagedObjectModel)
        #expect(!copy.isFrozen)
        if !copy.isFrozen {
            copy.entitiesByName["Cat"]?.attributesByName["lives"]?.isOptional = false
            #expect(copy.entitiesByName["Cat"]?.attributesByName["lives"]?.isOptional == false)
            #expect(model.entitiesByName["Cat"]?.attributesByName["lives"]?.isOptional == true)
        }
    }

    @Test("a coordinator accepts the same model for several stores")
    func sameModelSeveralStores() throws {
        let model = Zoo.make()
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(ofType: NSInMemoryStoreType, configurationName: nil, at: nil, options: nil)
        let second = NSPersistentStoreCoordinator(managedObjectModel: model)
        try second.addPersistentStore(ofType: NSInMemoryStoreType, configurationName: nil, at: nil, options: nil)
        #expect(coordinator.persistentStores.count == 1)
        #expect(second.persistentStores.count == 1)
    }

    // MARK: Compatibility with store metadata

    @Test("isConfiguration(withName:compatibleWithStoreMetadata:) compares entity hashes")
    func compatibility() throws {
        let model = Zoo.make()
        let hashes = model.entityVersionHashesByName
        #expect(model.isConfiguration(withName: nil, compatibleWithStoreMetadata: [NSStoreModelVersionHashesKey: hashes]))

        // Hashes read from a property list arrive as NSData in an NSDictionary.
        let bridged = NSMutableDictionary()
        for (name, hash) in hashes { bridged[name] = NSData(data: hash) }
        #expect(model.isConfiguration(withName: nil, compatibleWithStoreMetadata: [NSStoreModelVersionHashesKey: bridged]))

        var changed = hashes
        changed["Cat"] = Data(repeating: 0, count: 32)
        #expect(!model.isConfiguration(withName: nil, compatibleWithStoreMetadata: [NSStoreModelVersionHashesKey: changed]))

        var missing = hashes
        missing["Puppy"] = nil
        #expect(!model.isConfiguration(withName: nil, compatibleWithStoreMetadata: [NSStoreModelVersionHashesKey: missing]))

        var extra = hashes
        extra["Giraffe"] = Data(repeating: 7, count: 32)
        #expect(!model.isConfiguration(withName: nil, compatibleWithStoreMetadata: [NSStoreModelVersionHashesKey: extra]))

        #expect(!model.isConfiguration(withName: nil, compatibleWithStoreMetadata: [:]))
    }

    @Test("compatibility of a named configuration uses that configuration's entities")
    func configurationCompatibility() throws {
        let model = Zoo.make()
        let keeper = try #require(model.entitiesByName["Keeper"])
        model.setEntities([keeper], forConfigurationName: "Staff")
        let staffHashes = ["Keeper": keeper.versionHash]
        #expect(model.isConfiguration(withName: "Staff", compatibleWithStoreMetadata: [NSStoreModelVersionHashesKey: staffHashes]))
        #expect(!model.isConfiguration(withName: "Staff", compatibleWithStoreMetadata: [NSStoreModelVersionHashesKey: ["Keeper": Data(repeating: 1, count: 32)]]))
        #expect(!model.isConfiguration(withName: "Staff", compatibleWithStoreMetadata: [NSStoreModelVersionHashesKey: [String: Data]()]))
    }

    // MARK: Invalid models

    private func expectStoreRefused(_ model: NSManagedObjectModel, sourceLocation: SourceLocation = #_sourceLocation) {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        do {
            try coordinator.addPersistentStore(ofType: NSInMemoryStoreType, configurationName: nil, at: nil, options: nil)
            Issue.record("addPersistentStore accepted an invalid model", sourceLocation: sourceLocation)
        } catch {
            let error = error as NSError
            #expect(error.domain == NSCocoaErrorDomain, sourceLocation: sourceLocation)
            #expect(!error.localizedDescription.isEmpty, sourceLocation: sourceLocation)
        }
        #expect(coordinator.persistentStores.isEmpty, sourceLocation: sourceLocation)
    }

    @Test("a relationship without destination makes addPersistentStore throw")
    func relationshipWithoutDestination() {
        let owner = ModelFixtureKit.entity("Owner", [ModelFixtureKit.relationship("pet", to: nil, maxCount: 1)])
        expectStoreRefused(ModelFixtureKit.model([owner]))
    }

    @Test("a relationship whose destination is outside the model makes addPersistentStore throw")
    func destinationOutsideModel() {
        let stranger = ModelFixtureKit.entity("Stranger")
        let owner = ModelFixtureKit.entity("Owner", [ModelFixtureKit.relationship("friend", to: stranger, maxCount: 1)])
        expectStoreRefused(ModelFixtureKit.model([owner]))
        withExtendedLifetime(stranger) {}
    }

    @Test("two entities with the same name make addPersistentStore throw")
    func duplicateEntityNames() {
        let first = ModelFixtureKit.entity("Twin", [ModelFixtureKit.attribute("a", .stringAttributeType)])
        let second = ModelFixtureKit.entity("Twin", [ModelFixtureKit.attribute("b", .stringAttributeType)])
        expectStoreRefused(ModelFixtureKit.model([first, second]))
    }

    @Test("an invalid model is refused by a SQLite store too")
    func invalidModelSQLite() throws {
        let directory = try SQLiteScratchDirectory("invalid-model")
        defer { directory.remove() }
        let owner = ModelFixtureKit.entity("Owner", [ModelFixtureKit.relationship("pet", to: nil, maxCount: 1)])
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: ModelFixtureKit.model([owner]))
        let url = directory.file("Invalid.sqlite")
        #expect(throws: NSError.self) {
            try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url, options: nil)
        }
        #expect(coordinator.persistentStores.isEmpty)
    }
}
