import CoreData
import Testing

/// A save gives new objects their permanent IDs: straight from the store for objects nothing
/// asked the ID of, through the temporary ID for objects that other rows refer to.
@Suite struct InsertSavingTests {
    @Test(arguments: [NSSQLiteStoreType, NSInMemoryStoreType])
    func newObjectsReferringToEachOtherSaveTheirRelationships(storeType: String) throws {
        let stack = try CtxStack(model: CtxGraphModel.make(), storeType: storeType)
        try stack.context.performAndWait {
            // The destinations come first, and nothing asks for an ID before the save: the rows
            // referring to them give them their temporary IDs while the save runs.
            let passport = ctxInsert("Passport", into: stack.context, ["number": "P1"])
            let club = ctxInsert("Club", into: stack.context, ["name": "Chess"])
            let person = ctxInsert("Person", into: stack.context, ["name": "Ann"])
            let pet = ctxInsert("Pet", into: stack.context, ["name": "Rex"])
            person.setValue(passport, forKey: "passport")
            person.mutableSetValue(forKey: "clubs").add(club)
            pet.setValue(person, forKey: "owner")
            try stack.context.save()
            for object in [passport, club, person, pet] {
                #expect(!object.objectID.isTemporaryID)
                #expect(stack.context.registeredObject(for: object.objectID) === object)
            }
            stack.context.reset()
            let ann = try #require(try ctxFetch("Person", in: stack.context).first)
            #expect((ann.value(forKey: "passport") as? NSManagedObject)?.value(forKey: "number") as? String == "P1")
            #expect(names(in: ann.value(forKey: "clubs")) == ["Chess"])
            #expect(names(in: ann.value(forKey: "pets")) == ["Rex"])
        }
    }

    private func names(in destinations: Any?) -> [String] {
        ((destinations as? NSSet)?.allObjects ?? []).compactMap { ($0 as? NSManagedObject)?.value(forKey: "name") as? String }
    }

    @Test func aNewObjectWhoseIDWasAskedKeepsItsRegistrationAcrossTheSave() throws {
        let stack = try CtxStack(model: CtxGraphModel.make())
        try stack.context.performAndWait {
            let asked = ctxInsert("Item", into: stack.context, ["int64": 1])
            let temporary = asked.objectID
            let unasked = ctxInsert("Item", into: stack.context, ["int64": 2])
            try stack.context.save()
            #expect(stack.context.registeredObject(for: temporary) == nil)
            #expect(stack.context.registeredObject(for: asked.objectID) === asked)
            #expect(stack.context.registeredObject(for: unasked.objectID) === unasked)
            #expect(try stack.context.existingObject(with: unasked.objectID) === unasked)
        }
    }
}
