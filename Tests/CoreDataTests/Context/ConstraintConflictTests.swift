@testable import CoreData
import Testing

/// Uniqueness constraints at save (spec MOC-24 to MOC-26): a duplicate of a stored row, or of
/// another object of the save, fails with 133021 under the error policy and becomes an update
/// of one object under the other policies.
@Suite struct ConstraintConflictTests {
    /// Tag (name unique, color) ← to-one from Item (title).
    private static func model() -> NSManagedObjectModel {
        let tag = ModelFixtureKit.entity("Tag")
        let item = ModelFixtureKit.entity("Item")
        let items = ModelFixtureKit.relationship("items", to: item, maxCount: 0)
        let itemTag = ModelFixtureKit.relationship("tag", to: tag, maxCount: 1)
        ModelFixtureKit.inverse(items, itemTag)
        tag.properties = [ModelFixtureKit.attribute("name", .stringAttributeType), ModelFixtureKit.attribute("color", .stringAttributeType), items]
        tag.uniquenessConstraints = [["name"]]
        item.properties = [ModelFixtureKit.attribute("title", .stringAttributeType), itemTag]
        return ModelFixtureKit.model([tag, item])
    }

    /// A store holding the tag "swift" (red), and a new context to work in.
    private static func stack(_ storeType: String) throws -> (CtxStack, NSManagedObjectContext) {
        let stack = try CtxStack(model: model(), storeType: storeType)
        try stack.context.performAndWait {
            ctxInsert("Tag", into: stack.context, ["name": "swift", "color": "red"])
            try stack.context.save()
        }
        return (stack, stack.newContext())
    }

    private static func storedTags(_ stack: CtxStack) throws -> [(String?, String?, [String])] {
        let reader = stack.newContext()
        return try reader.performAndWait {
            try ctxFetch("Tag", in: reader, sortedBy: "name").map { tag in
                let items = ctxObjects(tag.value(forKey: "items")).compactMap { $0.value(forKey: "title") as? String }.sorted()
                return (tag.value(forKey: "name") as? String, tag.value(forKey: "color") as? String, items)
            }
        }
    }

    private static let storeTypes = [NSSQLiteStoreType, NSInMemoryStoreType]

    @Test(arguments: storeTypes)
    func aDuplicateOfAStoredRowFailsUnderTheErrorPolicy(storeType: String) throws {
        let (stack, context) = try Self.stack(storeType)
        let error = try #require(context.performAndWait {
            ctxError {
                ctxInsert("Tag", into: context, ["name": "swift", "color": "blue"])
                try context.save()
            }
        })
        #expect(error.code == NSManagedObjectConstraintMergeError)
        let conflict = try #require((error.userInfo[NSPersistentStoreSaveConflictsErrorKey] as? [NSConstraintConflict])?.first)
        #expect(conflict.constraint == ["name"])
        #expect(conflict.constraintValues["name"] as? String == "swift")
        #expect(context.performAndWait { conflict.databaseObject?.value(forKey: "color") as? String } == "red")
        #expect(conflict.databaseSnapshot?["color"] as? String == "red")
        #expect(conflict.conflictingObjects.count == 1)
        #expect(conflict.conflictingSnapshots.first?["color"] as? String == "blue")
        #expect(try Self.storedTags(stack).count == 1, "nothing was written")
    }

    @Test(arguments: storeTypes)
    func duplicatesWithinOneSaveConflictWithEachOther(storeType: String) throws {
        let (_, context) = try Self.stack(storeType)
        let error = try #require(context.performAndWait {
            ctxError {
                ctxInsert("Tag", into: context, ["name": "linux"])
                ctxInsert("Tag", into: context, ["name": "linux"])
                try context.save()
            }
        })
        let conflict = try #require((error.userInfo[NSPersistentStoreSaveConflictsErrorKey] as? [NSConstraintConflict])?.first)
        #expect(conflict.databaseObject == nil)
        #expect(conflict.conflictingObjects.count == 2)
    }

    @Test(arguments: storeTypes)
    func underTheTrumpPoliciesADuplicateBecomesAnUpdate(storeType: String) throws {
        for (policy, color) in [(NSMergeByPropertyObjectTrumpMergePolicy, "blue"), (NSOverwriteMergePolicy, "blue"),
                                (NSMergeByPropertyStoreTrumpMergePolicy, "red"), (NSRollbackMergePolicy, "red")] {
            let (stack, context) = try Self.stack(storeType)
            try context.performAndWait {
                context.mergePolicy = policy
                let duplicate = ctxInsert("Tag", into: context, ["name": "swift", "color": "blue"])
                ctxInsert("Item", into: context, ["title": "Package.swift", "tag": duplicate])
                try context.save()
                #expect(duplicate.managedObjectContext == nil, "\(policy): the duplicate is gone")
            }
            let tags = try Self.storedTags(stack)
            #expect(tags.count == 1, "\(policy)")
            #expect(tags.first?.1 == color, "\(policy)")
            #expect(tags.first?.2 == ["Package.swift"], "\(policy): the item moved to the stored tag")
        }
    }

    @Test(arguments: storeTypes)
    func duplicatesWithinOneSaveMergeIntoOne(storeType: String) throws {
        let (stack, context) = try Self.stack(storeType)
        try context.performAndWait {
            context.mergePolicy = NSMergePolicy.mergeByPropertyObjectTrump
            ctxInsert("Tag", into: context, ["name": "linux", "color": "green"])
            ctxInsert("Tag", into: context, ["name": "linux", "color": "yellow"])
            try context.save()
        }
        let linux = try Self.storedTags(stack).filter { $0.0 == "linux" }
        #expect(linux.count == 1)
        #expect(linux.first?.1 == "yellow", "the last object's values")
    }

    @Test(arguments: storeTypes)
    func objectsMergedForOneConstraintAreOutOfTheNextOne(storeType: String) throws {
        let tag = Self.model()
        tag.entitiesByName["Tag"]?.uniquenessConstraints = [["name"], ["color"]]
        let stack = try CtxStack(model: tag, storeType: storeType)
        try stack.context.performAndWait {
            stack.context.mergePolicy = NSMergeByPropertyObjectTrumpMergePolicy
            ctxInsert("Tag", into: stack.context, ["name": "x", "color": "c"])
            ctxInsert("Tag", into: stack.context, ["name": "x", "color": "c"])
            try stack.context.save()
        }
        #expect(try Self.storedTags(stack).count == 1)
    }

    @Test(arguments: storeTypes)
    func anInsertDuplicatingAnUpdatedObjectMergesIntoIt(storeType: String) throws {
        let (stack, context) = try Self.stack(storeType)
        try context.performAndWait {
            context.mergePolicy = NSMergeByPropertyStoreTrumpMergePolicy
            let existing = try #require(try ctxFetch("Tag", in: context).first)
            existing.setValue("green", forKey: "color")
            ctxInsert("Tag", into: context, ["name": "swift", "color": "blue"])
            try context.save()
        }
        let tags = try Self.storedTags(stack)
        #expect(tags.count == 1)
        #expect(tags.first?.1 == "green", "the updated object is the stored row, and keeps its change")
    }

    @Test(arguments: storeTypes)
    func nilValuesNeverConflict(storeType: String) throws {
        let (stack, context) = try Self.stack(storeType)
        try context.performAndWait {
            ctxInsert("Tag", into: context, ["color": "a"])
            ctxInsert("Tag", into: context, ["color": "b"])
            try context.save()
        }
        #expect(try Self.storedTags(stack).count == 3)
    }

    @Test(arguments: storeTypes)
    func anUpdateThatDuplicatesARowFailsUnderEveryPolicy(storeType: String) throws {
        let (_, context) = try Self.stack(storeType)
        let error = try context.performAndWait { () throws -> NSError? in
            ctxInsert("Tag", into: context, ["name": "other"])
            try context.save()
            context.mergePolicy = NSMergeByPropertyObjectTrumpMergePolicy
            let other = try ctxFetch("Tag", in: context, "name == 'other'").first
            other?.setValue("swift", forKey: "name")
            return ctxError { try context.save() }
        }
        #expect(error?.code == NSManagedObjectConstraintMergeError)
    }
}
