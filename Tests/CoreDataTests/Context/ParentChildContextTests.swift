@testable import CoreData
import Foundation
import Testing

/// Parent and child contexts (spec MOC-11): a child reads its parent's unsaved state, and its
/// save pushes one level up, never to the store.
@Suite struct ParentChildContextTests {
    private static let stores = [NSSQLiteStoreType, NSInMemoryStoreType]

    private static func child(of parent: NSManagedObjectContext, _ type: NSManagedObjectContextConcurrencyType = .privateQueueConcurrencyType) -> NSManagedObjectContext {
        let child = NSManagedObjectContext(concurrencyType: type)
        child.parent = parent
        return child
    }

    /// A stack whose store holds Alien (1979, with the characters Ripley and Ash) and Heat (1995).
    private static func stack(_ storeType: String) throws -> CtxStack {
        let stack = try CtxStack(model: MovieModel.make(), storeType: storeType)
        try stack.context.performAndWait {
            let alien = ctxInsert("Movie", into: stack.context, ["title": "Alien", "year": 1979])
            ctxInsert("Character", into: stack.context, ["name": "Ripley", "movie": alien])
            ctxInsert("Character", into: stack.context, ["name": "Ash", "movie": alien])
            ctxInsert("Movie", into: stack.context, ["title": "Heat", "year": 1995])
            try stack.context.save()
            stack.context.reset()
        }
        return stack
    }

    /// How many objects of an entity the store holds, read by a new context of the coordinator.
    private static func storedCount(in stack: CtxStack, _ entityName: String) throws -> Int {
        let reader = stack.newContext()
        return try reader.performAndWait { try ctxStoredCount(entityName, in: reader) }
    }

    private static func titles(in context: NSManagedObjectContext, _ format: String? = nil) throws -> [String] {
        try context.performAndWait {
            try ctxFetch("Movie", in: context, format, sortedBy: "title").map { $0.value(forKey: "title") as? String ?? "?" }
        }
    }

    @Test func aChildTakesItsParentsCoordinator() throws {
        let stack = try Self.stack(NSSQLiteStoreType)
        let child = Self.child(of: stack.context)
        #expect(child.parent === stack.context)
        #expect(child.persistentStoreCoordinator === stack.coordinator)
        #expect(child.managedObjectModel === stack.model)
    }

    @Test(arguments: stores) func aChildFetchSeesItsParentsUnsavedChanges(storeType: String) throws {
        let stack = try Self.stack(storeType)
        let parent = stack.context
        try parent.performAndWait {
            let movies = try ctxFetch("Movie", in: parent, sortedBy: "title")
            movies[0].setValue("Alien (1979)", forKey: "title")
            parent.delete(movies[1])
            ctxInsert("Movie", into: parent, ["title": "Ronin", "year": 1998])
        }
        let child = Self.child(of: parent)
        #expect(try Self.titles(in: child) == ["Alien (1979)", "Ronin"])
        #expect(try Self.titles(in: child, "year > 1990") == ["Ronin"])
        #expect(try child.performAndWait { try child.count(for: NSFetchRequest<NSManagedObject>(entityName: "Movie")) } == 2)
        #expect(try Self.storedCount(in: stack, "Movie") == 2)
    }

    @Test(arguments: stores) func aChildOverlaysItsOwnChangesOnItsParents(storeType: String) throws {
        let stack = try Self.stack(storeType)
        let parent = stack.context
        parent.performAndWait { _ = ctxInsert("Movie", into: parent, ["title": "Ronin", "year": 1998]) }
        let child = Self.child(of: parent)
        try child.performAndWait {
            let movies = try ctxFetch("Movie", in: child, sortedBy: "title")
            child.delete(movies[0])
            ctxInsert("Movie", into: child, ["title": "Brazil", "year": 1985])
        }
        #expect(try Self.titles(in: child) == ["Brazil", "Heat", "Ronin"])
        let request = NSFetchRequest<NSManagedObject>(entityName: "Movie")
        request.predicate = NSPredicate(format: "year < 1996")
        #expect(try child.performAndWait { try child.count(for: request) } == 2)
        request.fetchLimit = 1
        request.sortDescriptors = [NSSortDescriptor(key: "year", ascending: false)]
        #expect(try child.performAndWait { try child.fetch(request).map { $0.value(forKey: "title") as? String } } == ["Heat"])
        #expect(try Self.titles(in: parent) == ["Alien", "Heat", "Ronin"])
    }

    @Test(arguments: stores) func savingAChildPushesIntoTheParentOnly(storeType: String) throws {
        let stack = try Self.stack(storeType)
        let parent = stack.context
        let child = Self.child(of: parent)
        try child.performAndWait {
            let movies = try ctxFetch("Movie", in: child, sortedBy: "title")
            movies[0].setValue(Int16(1980), forKey: "year")
            child.delete(movies[1])
            ctxInsert("Movie", into: child, ["title": "Ronin", "year": 1998])
            try child.save()
            #expect(!child.hasChanges)
        }
        parent.performAndWait {
            #expect(parent.hasChanges)
            #expect(parent.insertedObjects.map { $0.value(forKey: "title") as? String } == ["Ronin"])
            #expect(parent.updatedObjects.map { $0.value(forKey: "year") as? Int } == [1980])
            #expect(parent.deletedObjects.map { $0.value(forKey: "title") as? String } == ["Heat"])
        }
        let reader = stack.newContext()
        #expect(try Self.titles(in: reader) == ["Alien", "Heat"])
        try parent.performAndWait { try parent.save() }
        #expect(try Self.titles(in: reader) == ["Alien", "Ronin"])
        #expect(try reader.performAndWait { try ctxFetch("Movie", in: reader, "title == 'Alien'")[0].value(forKey: "year") as? Int } == 1980)
    }

    @Test func theChildsDidSaveNotificationListsWhatItPushed() throws {
        let stack = try Self.stack(NSSQLiteStoreType)
        let child = Self.child(of: stack.context)
        let saves = CtxNotificationRecorder(.NSManagedObjectContextDidSave, object: child)
        let parentChanges = CtxNotificationRecorder(.NSManagedObjectContextObjectsDidChange, object: stack.context)
        defer { saves.stop(); parentChanges.stop() }
        try child.performAndWait {
            ctxInsert("Movie", into: child, ["title": "Ronin"])
            try child.save()
        }
        let saved = try #require(saves.notifications.first)
        #expect(ctxObjects(in: saved, key: NSInsertedObjectsKey).count == 1)
        let changed = try #require(parentChanges.notifications.first)
        #expect(ctxObjects(in: changed, key: NSInsertedObjectsKey).map { $0.value(forKey: "title") as? String } == ["Ronin"])
    }

    @Test(arguments: stores) func relationshipChangesReachTheParentWithTheirInverses(storeType: String) throws {
        let stack = try Self.stack(storeType)
        let parent = stack.context
        let child = Self.child(of: parent)
        try child.performAndWait {
            let movies = try ctxFetch("Movie", in: child, sortedBy: "title")
            let ash = try #require(ctxObjects(movies[0].value(forKey: "characters")).first { $0.value(forKey: "name") as? String == "Ash" })
            ash.setValue(movies[1], forKey: "movie")
            ctxInsert("Character", into: child, ["name": "Vincent", "movie": movies[1]])
            try child.save()
        }
        try parent.performAndWait {
            let movies = try ctxFetch("Movie", in: parent, sortedBy: "title")
            let names = { (movie: NSManagedObject) in Set(ctxObjects(movie.value(forKey: "characters")).compactMap { $0.value(forKey: "name") as? String }) }
            #expect(names(movies[0]) == ["Ripley"])
            #expect(names(movies[1]) == ["Ash", "Vincent"])
            try parent.save()
        }
        let reader = stack.newContext()
        try reader.performAndWait {
            let heat = try ctxFetch("Movie", in: reader, "title == 'Heat'")[0]
            #expect(Set(ctxObjects(heat.value(forKey: "characters")).compactMap { $0.value(forKey: "name") as? String }) == ["Ash", "Vincent"])
        }
    }

    @Test(arguments: stores) func aChildsToManyFaultSeesItsParentsUnsavedDestinations(storeType: String) throws {
        let stack = try Self.stack(storeType)
        let parent = stack.context
        try parent.performAndWait {
            let alien = try ctxFetch("Movie", in: parent, "title == 'Alien'")[0]
            ctxInsert("Character", into: parent, ["name": "Dallas", "movie": alien])
            let ripley = try #require(ctxObjects(alien.value(forKey: "characters")).first { $0.value(forKey: "name") as? String == "Ripley" })
            ripley.setValue("Ellen Ripley", forKey: "name")
        }
        let child = Self.child(of: parent)
        try child.performAndWait {
            let alien = try ctxFetch("Movie", in: child, "title == 'Alien'")[0]
            #expect(alien.hasFault(forRelationshipNamed: "characters"))
            #expect(alien.objectIDs(forRelationshipNamed: "characters").count == 3)
            let names = Set(ctxObjects(alien.value(forKey: "characters")).compactMap { $0.value(forKey: "name") as? String })
            #expect(names == ["Ellen Ripley", "Ash", "Dallas"])
        }
    }

    @Test(arguments: stores) func prefetchingInAChildReadsThroughTheParent(storeType: String) throws {
        let stack = try Self.stack(storeType)
        let parent = stack.context
        try parent.performAndWait {
            let heat = try ctxFetch("Movie", in: parent, "title == 'Heat'")[0]
            ctxInsert("Character", into: parent, ["name": "McCauley", "movie": heat])
        }
        let child = Self.child(of: parent)
        try child.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Movie")
            request.sortDescriptors = [NSSortDescriptor(key: "title", ascending: true)]
            request.relationshipKeyPathsForPrefetching = ["characters"]
            let movies = try child.fetch(request)
            let counts = movies.map { ctxObjects($0.value(forKey: "characters")).count }
            #expect(counts == [2, 1])
        }
    }

    @Test(arguments: stores) func objectsInsertedInTheParentKeepTheirTemporaryIDsInTheChild(storeType: String) throws {
        let stack = try Self.stack(storeType)
        let parent = stack.context
        let ronin = parent.performAndWait { ctxInsert("Movie", into: parent, ["title": "Ronin"]).objectID }
        #expect(ronin.isTemporaryID)
        let child = Self.child(of: parent)
        try child.performAndWait {
            let fault = child.object(with: ronin)
            #expect(fault.isFault)
            #expect(fault.value(forKey: "title") as? String == "Ronin")
            #expect(try child.existingObject(with: ronin) === fault)
            fault.setValue("Ronin (1998)", forKey: "title")
            try child.save()
        }
        try parent.performAndWait {
            let object = try #require(parent.registeredObject(for: ronin))
            #expect(object.isInserted)
            #expect(object.value(forKey: "title") as? String == "Ronin (1998)")
            try parent.save()
            #expect(!object.objectID.isTemporaryID)
        }
    }

    @Test(arguments: stores) func permanentIDsObtainedInAChildReachTheParent(storeType: String) throws {
        let stack = try Self.stack(storeType)
        let parent = stack.context
        let child = Self.child(of: parent)
        let (temporary, permanent) = try child.performAndWait { () throws -> (NSManagedObjectID, NSManagedObjectID) in
            let movie = ctxInsert("Movie", into: child, ["title": "Ronin"])
            let temporary = movie.objectID
            try child.obtainPermanentIDs(for: [movie])
            #expect(!movie.objectID.isTemporaryID)
            try child.save()
            return (temporary, movie.objectID)
        }
        try parent.performAndWait {
            #expect(parent.registeredObject(for: temporary) == nil)
            let movie = try #require(parent.registeredObject(for: permanent))
            #expect(movie.isInserted)
            try parent.save()
            #expect(movie.objectID == permanent)
        }
        let reader = stack.newContext()
        try reader.performAndWait { () throws in
            #expect(try reader.existingObject(with: permanent).value(forKey: "title") as? String == "Ronin")
        }
    }

    @Test func obtainingPermanentIDsInAChildRenamesTheParentsInsertedObject() throws {
        let stack = try Self.stack(NSSQLiteStoreType)
        let parent = stack.context
        let temporary = parent.performAndWait { ctxInsert("Movie", into: parent, ["title": "Ronin"]).objectID }
        let child = Self.child(of: parent)
        let permanent = try child.performAndWait { () throws -> NSManagedObjectID in
            let movie = child.object(with: temporary)
            try child.obtainPermanentIDs(for: [movie])
            return movie.objectID
        }
        #expect(!permanent.isTemporaryID)
        try parent.performAndWait {
            #expect(parent.registeredObject(for: permanent)?.value(forKey: "title") as? String == "Ronin")
            try parent.save()
        }
        #expect(try Self.storedCount(in: stack, "Movie") == 3)
    }

    @Test(arguments: stores) func rollbackAndResetInAChildLeaveTheParentAlone(storeType: String) throws {
        let stack = try Self.stack(storeType)
        let parent = stack.context
        try parent.performAndWait {
            try ctxFetch("Movie", in: parent, "title == 'Heat'")[0].setValue(Int16(1996), forKey: "year")
        }
        let child = Self.child(of: parent)
        try child.performAndWait {
            let heat = try ctxFetch("Movie", in: child, "title == 'Heat'")[0]
            #expect(heat.value(forKey: "year") as? Int == 1996)
            heat.setValue(Int16(2000), forKey: "year")
            ctxInsert("Movie", into: child, ["title": "Ronin"])
            child.rollback()
            #expect(heat.value(forKey: "year") as? Int == 1996)
            #expect(!child.hasChanges)
            child.reset()
            #expect(child.registeredObjects.isEmpty)
        }
        #expect(try Self.titles(in: child) == ["Alien", "Heat"])
        parent.performAndWait {
            #expect(parent.updatedObjects.count == 1)
            #expect(parent.insertedObjects.isEmpty)
        }
    }

    @Test(arguments: stores) func deletesFromAChildRunTheParentsDeleteRules(storeType: String) throws {
        let stack = try Self.stack(storeType)
        let parent = stack.context
        let child = Self.child(of: parent)
        try child.performAndWait {
            child.delete(try ctxFetch("Movie", in: child, "title == 'Alien'")[0])
            try child.save()
        }
        try parent.performAndWait {
            #expect(parent.deletedObjects.count == 3)
            try parent.save()
        }
        #expect(try Self.storedCount(in: stack, "Character") == 0)
    }

    @Test(arguments: stores) func aThreeLevelChainSavesOneLevelAtATime(storeType: String) throws {
        let stack = try Self.stack(storeType)
        let root = stack.context
        let middle = Self.child(of: root)
        let leaf = Self.child(of: middle)
        try leaf.performAndWait {
            let heat = try ctxFetch("Movie", in: leaf, "title == 'Heat'")[0]
            ctxInsert("Character", into: leaf, ["name": "Hanna", "movie": heat])
            try leaf.save()
        }
        #expect(middle.performAndWait { middle.hasChanges })
        #expect(!root.performAndWait { root.hasChanges })
        let leafView = try leaf.performAndWait { try ctxFetch("Character", in: leaf, sortedBy: "name").map { $0.value(forKey: "name") as? String } }
        #expect(leafView == ["Ash", "Hanna", "Ripley"])
        try middle.performAndWait { try middle.save() }
        #expect(root.performAndWait { root.hasChanges })
        #expect(try Self.storedCount(in: stack, "Character") == 2)
        try root.performAndWait { try root.save() }
        #expect(try Self.storedCount(in: stack, "Character") == 3)
    }

    @Test(arguments: stores) func aChildMergesItsParentsSavesAutomatically(storeType: String) throws {
        let stack = try Self.stack(storeType)
        let parent = stack.context
        let child = Self.child(of: parent)
        child.automaticallyMergesChangesFromParent = true
        let heat = try child.performAndWait { () throws -> NSManagedObject in
            let heat = try ctxFetch("Movie", in: child, "title == 'Heat'")[0]
            _ = heat.value(forKey: "year")
            return heat
        }
        try parent.performAndWait {
            try ctxFetch("Movie", in: parent, "title == 'Heat'")[0].setValue(Int16(1996), forKey: "year")
            try parent.save()
        }
        // The merge was enqueued on the child's queue by the save; this block runs after it.
        #expect(child.performAndWait { heat.value(forKey: "year") as? Int } == 1996)
    }

    @Test func aRootContextDoesNotMergeAChildsSave() throws {
        let stack = try Self.stack(NSSQLiteStoreType)
        let observer = stack.newContext()
        observer.automaticallyMergesChangesFromParent = true
        let recorder = CtxNotificationRecorder(.NSManagedObjectContextObjectsDidChange, object: observer)
        defer { recorder.stop() }
        let heat = try observer.performAndWait { () throws -> NSManagedObject in
            let heat = try ctxFetch("Movie", in: observer, "title == 'Heat'")[0]
            _ = heat.value(forKey: "year")
            return heat
        }
        let child = Self.child(of: stack.context)
        try child.performAndWait {
            try ctxFetch("Movie", in: child, "title == 'Heat'")[0].setValue(Int16(1996), forKey: "year")
            try child.save()
        }
        #expect(observer.performAndWait { heat.value(forKey: "year") as? Int } == 1995)
        #expect(recorder.notifications.isEmpty)
    }

    @Test func aChildSeesTheParentsDeletesAsMissingObjects() throws {
        let stack = try Self.stack(NSSQLiteStoreType)
        let parent = stack.context
        let heatID = try parent.performAndWait { () throws -> NSManagedObjectID in
            let heat = try ctxFetch("Movie", in: parent, "title == 'Heat'")[0]
            parent.delete(heat)
            return heat.objectID
        }
        let child = Self.child(of: parent)
        child.performAndWait {
            #expect((try? child.existingObject(with: heatID)) == nil)
            let fault = child.object(with: heatID)
            #expect(fault.value(forKey: "title") == nil)
            #expect(fault.isDeleted)
        }
    }

    @Test func childAndParentCanBeOfDifferentQueueTypes() throws {
        let stack = try Self.stack(NSSQLiteStoreType)
        let confined = NSManagedObjectContext(concurrencyType: .confinementConcurrencyType)
        confined.parent = stack.context
        let grandchild = Self.child(of: confined)
        try grandchild.performAndWait {
            ctxInsert("Movie", into: grandchild, ["title": "Ronin"])
            try grandchild.save()
        }
        #expect(confined.insertedObjects.count == 1)
        try confined.save()
        try stack.context.performAndWait { try stack.context.save() }
        #expect(try Self.storedCount(in: stack, "Movie") == 3)
    }
}

/// Nested blocks of a parent and its child on one thread.
@Suite(.timeLimit(.minutes(1))) struct NestedParentChildBlockTests {
    @Test func aChildUsedInsideItsParentsBlockReadsThroughItWithoutWaitingForItself() throws {
        let stack = try CtxStack(model: MovieModel.make())
        let parent = stack.context
        let child = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        child.parent = parent
        try parent.performAndWait {
            ctxInsert("Movie", into: parent, ["title": "Alien"])
            try child.performAndWait {
                #expect(try ctxFetch("Movie", in: child).count == 1)
                ctxInsert("Movie", into: child, ["title": "Heat"])
                try child.save()
            }
            #expect(parent.insertedObjects.count == 2)
        }
    }
}
