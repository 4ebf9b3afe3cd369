import CoreData
import Testing

/// `NSManagedObject`'s subscript by key: the same as `value(forKey:)` and `setValue(_:forKey:)`.
@Suite struct SubscriptTests {
    @Test func theSubscriptReadsAndWritesPropertiesWithChangeTracking() throws {
        let stack = try CtxStack(model: CtxGraphModel.make())
        try stack.context.performAndWait {
            let person = ctxInsert("Person", into: stack.context)
            person["name"] = "Ann"
            person["age"] = 30
            #expect(person["name"] as? String == "Ann")
            #expect(person.value(forKey: "age") as? Int == 30)
            try stack.context.save()

            person["name"] = "Anne"
            #expect(person.isUpdated)
            #expect(person.changedValues()["name"] as? String == "Anne")
            person["name"] = nil
            #expect(person["name"] == nil)
        }
    }

    @Test func theSubscriptSetsRelationshipsWithTheirInverses() throws {
        let stack = try CtxStack(model: CtxGraphModel.make())
        stack.context.performAndWait {
            let person = ctxInsert("Person", into: stack.context)
            let pet = ctxInsert("Pet", into: stack.context)
            pet["owner"] = person
            #expect(ctxContains(person["pets"], pet))
            #expect(pet["owner"] as? NSManagedObject === person)
        }
    }

    @Test func readingThroughTheSubscriptFiresAFault() throws {
        let stack = try CtxStack(model: CtxGraphModel.make())
        let id = try stack.context.performAndWait { () throws in
            let person = ctxInsert("Person", into: stack.context, ["name": "Ann"])
            try stack.context.save()
            return person.objectID
        }
        let reader = stack.newContext()
        reader.performAndWait {
            let fault = reader.object(with: id)
            #expect(fault.isFault)
            #expect(fault["name"] as? String == "Ann")
            #expect(!fault.isFault)
        }
    }
}
