import CoreData
import Testing

/// A Person class that records the snapshot events Core Data wakes it with, and the name it held
/// at each.
final class SnapshotRecordingPerson: NSManagedObject {
    var events: [(events: NSSnapshotEventType, name: String?)] = []

    override func awake(fromSnapshotEvents flags: NSSnapshotEventType) {
        super.awake(fromSnapshotEvents: flags)
        events.append((flags, primitiveValue(forKey: "name") as? String))
    }
}

/// `NSSnapshotEventType` and `awake(fromSnapshotEvents:)`: objects whose values an undo or redo,
/// a rollback, a merging refresh or a merge policy reinitializes hear why, once per object.
@Suite struct SnapshotEventTests {
    private func stack(undoable: Bool = false) throws -> CtxStack {
        let model = CtxGraphModel.make { entities in
            entities["Person"]?.managedObjectClassName = NSStringFromClass(SnapshotRecordingPerson.self)
        }
        let stack = try CtxStack(model: model)
        if undoable { stack.context.undoManager = UndoManager() }
        return stack
    }

    /// A saved person, as the stack's context holds it with its values.
    private func savedPerson(_ stack: CtxStack, name: String = "Ann") throws -> SnapshotRecordingPerson {
        try stack.context.performAndWait { () throws in
            let person = try #require(ctxInsert("Person", into: stack.context, ["name": name]) as? SnapshotRecordingPerson)
            try stack.context.save()
            stack.context.undoManager?.removeAllActions()
            return person
        }
    }

    @Test func theEventsHaveApplesValuesAndFormAnOptionSet() {
        #expect(NSSnapshotEventType.undoInsertion.rawValue == 2)
        #expect(NSSnapshotEventType.undoDeletion.rawValue == 4)
        #expect(NSSnapshotEventType.undoUpdate.rawValue == 8)
        #expect(NSSnapshotEventType.rollback.rawValue == 16)
        #expect(NSSnapshotEventType.refresh.rawValue == 32)
        #expect(NSSnapshotEventType.mergePolicy.rawValue == 64)
        var events: NSSnapshotEventType = [.undoUpdate, .undoDeletion]
        #expect(events.contains(.undoUpdate) && !events.contains(.rollback))
        events.insert(.rollback)
        #expect(events.rawValue == 28)
        #expect(NSSnapshotEventType().isEmpty)
    }

    @Test func undoingAndRedoingAnUpdateWakesTheObjectWithUndoUpdate() throws {
        let stack = try stack(undoable: true)
        let person = try savedPerson(stack)
        stack.context.performAndWait {
            person.setValue("Anne", forKey: "name")
            stack.context.processPendingChanges()
            #expect(person.events.isEmpty)
            stack.context.undo()
            stack.context.redo()
        }
        #expect(person.events.map(\.events) == [.undoUpdate, .undoUpdate])
        // Each call comes once the values are restored.
        #expect(person.events.map(\.name) == ["Ann", "Anne"])
    }

    @Test func undoingAnInsertOrADeleteSaysSo() throws {
        let stack = try stack(undoable: true)
        let person = try savedPerson(stack)
        let added = try stack.context.performAndWait { () throws in
            let added = try #require(ctxInsert("Person", into: stack.context, ["name": "Bob"]) as? SnapshotRecordingPerson)
            stack.context.processPendingChanges()
            stack.context.undo()
            stack.context.delete(person)
            stack.context.processPendingChanges()
            stack.context.undo()
            return added
        }
        #expect(added.events.map(\.events) == [.undoInsertion])
        #expect(person.events.map(\.events) == [.undoDeletion])
        #expect(!person.isDeleted)
    }

    @Test func oneUndoThatRestoresSeveralThingsOfAnObjectWakesItOnceWithAllOfThem() throws {
        let stack = try stack(undoable: true)
        let person = try savedPerson(stack)
        stack.context.performAndWait {
            person.setValue("Anne", forKey: "name")
            stack.context.delete(person)
            stack.context.processPendingChanges()
            stack.context.undo()
        }
        #expect(person.events.map(\.events) == [[.undoDeletion, .undoUpdate]])
        #expect(person.events.first?.name == "Ann")
    }

    @Test func rollbackWakesTheObjectsItRestores() throws {
        let stack = try stack()
        let person = try savedPerson(stack)
        let other = try savedPerson(stack, name: "Bob")
        let untouched = try savedPerson(stack, name: "Cy")
        stack.context.performAndWait {
            person.setValue("Anne", forKey: "name")
            stack.context.delete(other)
            let inserted = ctxInsert("Person", into: stack.context, ["name": "Dee"]) as? SnapshotRecordingPerson
            stack.context.rollback()
            #expect(inserted?.events.isEmpty == true)
        }
        #expect(person.events.map(\.events) == [.rollback])
        #expect(person.events.map(\.name) == ["Ann"])
        #expect(other.events.map(\.events) == [.rollback])
        #expect(untouched.events.isEmpty)
    }

    @Test func aRefreshThatKeepsChangesWakesTheObjectWithRefresh() throws {
        let stack = try stack()
        let person = try savedPerson(stack)
        let clean = try savedPerson(stack, name: "Bob")
        stack.context.performAndWait {
            person.setValue("Anne", forKey: "name")
            stack.context.refresh(person, mergeChanges: true)
            stack.context.refresh(clean, mergeChanges: true)
        }
        #expect(person.events.map(\.events) == [.refresh])
        #expect(person.events.map(\.name) == ["Anne"])
        // A clean object becomes a fault; it reads its row again when it is used.
        #expect(clean.events.isEmpty && clean.isFault)
        stack.context.performAndWait { stack.context.refresh(person, mergeChanges: false) }
        #expect(person.events.count == 1)
    }

    @Test(arguments: [
        (NSMergePolicyType.mergeByPropertyObjectTrumpMergePolicyType, "Anne", 41),
        (.mergeByPropertyStoreTrumpMergePolicyType, "Anne", 41),
        (.overwriteMergePolicyType, "Anne", nil),
        (.rollbackMergePolicyType, "Ann", 41),
    ] as [(NSMergePolicyType, String, Int?)])
    func aMergePolicyThatResolvesAConflictWakesTheObjectWithMergePolicy(policy: NSMergePolicyType, name: String, age: Int?) throws {
        let stack = try stack()
        let person = try savedPerson(stack)
        let other = stack.newContext()
        try other.performAndWait {
            let theirs = try #require(try ctxFetch("Person", in: other).first)
            theirs.setValue(41, forKey: "age")
            try other.save()
        }
        try stack.context.performAndWait {
            stack.context.mergePolicy = NSMergePolicy(merge: policy)
            person.setValue("Anne", forKey: "name")
            try stack.context.save()
            #expect(person.value(forKey: "age") as? Int == age)
        }
        #expect(person.events.map(\.events) == [.mergePolicy])
        #expect(person.events.map(\.name) == [name])
    }
}
