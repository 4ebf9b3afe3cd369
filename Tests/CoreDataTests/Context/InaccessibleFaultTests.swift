@testable import CoreData
import Testing

/// A context that records `shouldHandleInaccessibleFault(_:for:triggeredByProperty:)` calls and
/// answers them as told, or as the default does.
final class InaccessibleFaultRecordingContext: NSManagedObjectContext, @unchecked Sendable {
    var calls: [(fault: NSManagedObject, objectID: NSManagedObjectID, property: String?)] = []
    var answer: Bool?

    override func shouldHandleInaccessibleFault(_ fault: NSManagedObject, for oid: NSManagedObjectID, triggeredByProperty property: NSPropertyDescription?) -> Bool {
        calls.append((fault, oid, property?.name))
        return answer ?? super.shouldHandleInaccessibleFault(fault, for: oid, triggeredByProperty: property)
    }
}

/// `shouldHandleInaccessibleFault(_:for:triggeredByProperty:)`: asked when a fault's row is gone
/// (semantics B.9); its answer decides whether the object becomes a deleted object.
@Suite struct InaccessibleFaultTests {
    /// A saved person, deleted by another context after `reader` got a fault of it.
    private func goneFault(answer: Bool? = nil, deletesInaccessibleFaults: Bool = true) throws -> (InaccessibleFaultRecordingContext, NSManagedObject, NSManagedObjectID, CtxStack) {
        let stack = try CtxStack(model: CtxGraphModel.make())
        let id = try stack.context.performAndWait { () throws in
            let person = ctxInsert("Person", into: stack.context, ["name": "Ann", "age": 30])
            try stack.context.save()
            return person.objectID
        }
        let reader = InaccessibleFaultRecordingContext(.privateQueue)
        reader.persistentStoreCoordinator = stack.coordinator
        reader.answer = answer
        reader.shouldDeleteInaccessibleFaults = deletesInaccessibleFaults
        let fault = reader.performAndWait { reader.object(with: id) }
        try stack.context.performAndWait {
            stack.context.delete(try stack.context.existingObject(with: id))
            try stack.context.save()
        }
        return (reader, fault, id, stack)
    }

    @Test func theContextIsAskedWithTheFaultItsIDAndThePropertyThatFiredIt() throws {
        let (reader, fault, id, _) = try goneFault()
        reader.performAndWait {
            #expect(fault["age"] == nil)
            #expect(fault.value(forKey: "name") == nil)
        }
        #expect(reader.calls.count == 1)
        #expect(reader.calls.first?.fault === fault)
        #expect(reader.calls.first?.objectID == id)
        #expect(reader.calls.first?.property == "age")
    }

    @Test func byDefaultTheAnswerIsShouldDeleteInaccessibleFaults() throws {
        let (deleting, deletedFault, _, _) = try goneFault()
        deleting.performAndWait {
            _ = deletedFault.value(forKey: "name")
            #expect(deletedFault.isDeleted)
            #expect(deleting.deletedObjects.contains(deletedFault))
        }
        let (keeping, keptFault, _, _) = try goneFault(deletesInaccessibleFaults: false)
        keeping.performAndWait {
            _ = keptFault.value(forKey: "name")
            #expect(!keptFault.isDeleted)
            #expect(!keeping.hasChanges)
        }
        #expect(deleting.calls.count == 1 && keeping.calls.count == 1)
    }

    @Test func anOverrideDecidesWhetherTheObjectIsDeleted() throws {
        let (refusing, refused, _, _) = try goneFault(answer: false)
        refusing.performAndWait {
            #expect(refused.value(forKey: "name") == nil)
            #expect(!refused.isDeleted)
            #expect(refusing.deletedObjects.isEmpty)
        }
        let (accepting, accepted, _, _) = try goneFault(answer: true, deletesInaccessibleFaults: false)
        try accepting.performAndWait {
            #expect(accepted.value(forKey: "name") == nil)
            #expect(accepted.isDeleted)
            try accepting.save()
            #expect(accepting.deletedObjects.isEmpty)
        }
    }

    @Test func methodsThatReportErrorsDoNotAsk() throws {
        let (reader, _, id, _) = try goneFault()
        reader.performAndWait {
            #expect(ctxError { _ = try reader.existingObject(with: id) }?.code == NSManagedObjectReferentialIntegrityError)
        }
        #expect(reader.calls.isEmpty)
    }
}
