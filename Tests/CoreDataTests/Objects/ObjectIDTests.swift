import CoreData
import Testing

/// Object IDs and their URIs (MOC-1, MOC-20, MOC-21): temporary before save, permanent after,
/// `obtainPermanentIDs(for:)`, URI round trips through the coordinator, and IDs as Hashable,
/// Equatable, Sendable values.
@Suite struct ObjectIDTests {
    private func movies(_ storeType: String = NSSQLiteStoreType) throws -> CtxStack {
        try CtxStack(model: MovieModel.make(), storeType: storeType)
    }

    private func requireSendable<T: Sendable>(_ value: T) -> T {
        value
    }

    // MARK: Temporary and permanent

    @Test func anInsertedObjectHasATemporaryID() throws {
        let stack = try movies()
        stack.context.performAndWait {
            let movie = ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            #expect(movie.objectID.isTemporaryID)
            #expect(movie.isInserted)
            #expect(movie.objectID.entity.name == "Movie")
            #expect(movie.objectID.persistentStore == nil)
            let uri = movie.objectID.uriRepresentation()
            #expect(uri.scheme == "x-coredata")
            #expect(uri.absoluteString.hasPrefix("x-coredata:///Movie/t"))
            #expect(uri.host == nil || uri.host == "")
            // The ID is stable while the object stays unsaved.
            #expect(movie.objectID == movie.objectID)
        }
    }

    @Test func temporaryIDsAreUnique() throws {
        let stack = try movies()
        stack.context.performAndWait {
            let a = ctxInsert("Movie", into: stack.context)
            let b = ctxInsert("Movie", into: stack.context)
            #expect(a.objectID != b.objectID)
            #expect(a.objectID.uriRepresentation() != b.objectID.uriRepresentation())
        }
    }

    @Test func aSavedObjectHasAPermanentIDNamingItsStore() throws {
        let stack = try movies()
        try stack.context.performAndWait { () throws in
            let movie = ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            try stack.context.save()
            let id = movie.objectID
            #expect(!id.isTemporaryID)
            #expect(id.persistentStore === stack.store)
            let uuid = try #require(stack.storeUUID)
            #expect(!uuid.isEmpty)
            #expect(stack.store.identifier == uuid)

            let uri = id.uriRepresentation()
            #expect(uri.scheme == "x-coredata")
            #expect(uri.host == uuid)
            let prefix = "x-coredata://\(uuid)/Movie/p"
            #expect(uri.absoluteString.hasPrefix(prefix))
            let primaryKey = Int(uri.absoluteString.dropFirst(prefix.count))
            #expect(primaryKey != nil)
            #expect((primaryKey ?? 0) >= 1)
        }
    }

    /// A fetched object's ID is made from its row when first asked for; the object keeps it when
    /// it gives the row up (turned back into a fault), and leaves its context when released.
    @Test func aFetchedObjectKeepsItsIDWithoutItsRowAndLeavesItsContextWhenReleased() throws {
        let stack = try movies()
        let savedIDs = try stack.context.performAndWait { () throws in
            let movies = ["Alien", "Brazil"].map { ctxInsert("Movie", into: stack.context, ["title": $0]) }
            try stack.context.save()
            return movies.map(\.objectID)
        }
        let reader = stack.newContext()
        try reader.performAndWait {
            let fetched = try ctxFetch("Movie", in: reader, sortedBy: "title")
            #expect(fetched[0].value(forKey: "title") as? String == "Alien")
            reader.refresh(fetched[0], mergeChanges: false)
            #expect(fetched[0].isFault)
            #expect(fetched.map(\.objectID) == savedIDs)
            #expect(reader.object(with: savedIDs[0]) === fetched[0])
            #expect(fetched[1].value(forKey: "title") as? String == "Brazil")
        }
        try reader.performAndWait {
            _ = try ctxFetch("Movie", in: reader)
            #expect(reader.registeredObjects.isEmpty)
        }
    }

    @Test func primaryKeysAreDistinctPerEntity() throws {
        let stack = try movies()
        try stack.context.performAndWait { () throws in
            let movies = (0..<3).map { ctxInsert("Movie", into: stack.context, ["title": "M\($0)"]) }
            try stack.context.save()
            let uris = Set(movies.map { $0.objectID.uriRepresentation() })
            #expect(uris.count == 3)
        }
    }

    @Test func inMemoryStoresGivePermanentIDsToo() throws {
        let stack = try movies(NSInMemoryStoreType)
        try stack.context.performAndWait { () throws in
            let movie = ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            try stack.context.save()
            #expect(!movie.objectID.isTemporaryID)
            let uri = movie.objectID.uriRepresentation()
            #expect(uri.host == stack.store.identifier)
            #expect(stack.coordinator.managedObjectID(forURIRepresentation: uri) == movie.objectID)
        }
    }

    @Test func subentityObjectsHaveIDsOfTheirOwnEntity() throws {
        let stack = try CtxStack(model: CtxGraphModel.make())
        try stack.context.performAndWait { () throws in
            let dog = ctxInsert("Dog", into: stack.context, ["name": "Rex"])
            #expect(dog.objectID.uriRepresentation().absoluteString.hasPrefix("x-coredata:///Dog/t"))
            try stack.context.save()
            let uri = dog.objectID.uriRepresentation()
            #expect(uri.absoluteString.hasPrefix("x-coredata://\(try #require(stack.storeUUID))/Dog/p"))
            let id = try #require(stack.coordinator.managedObjectID(forURIRepresentation: uri))
            #expect(id.entity.name == "Dog")
            #expect(id == dog.objectID)
        }
        let reopened = try stack.reopened()
        try reopened.context.performAndWait { () throws in
            let animals = try ctxFetch("Animal", in: reopened.context)
            #expect(animals.first?.objectID.entity.name == "Dog")
            #expect(animals.first?.entity.name == "Dog")
        }
    }

    // MARK: obtainPermanentIDs

    @Test func obtainPermanentIDsKeepsTheObjectsInserted() throws {
        let stack = try movies()
        try stack.context.performAndWait { () throws in
            let movie = ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            let temporary = movie.objectID
            try stack.context.obtainPermanentIDs(for: [movie])
            let permanent = movie.objectID
            #expect(!permanent.isTemporaryID)
            #expect(permanent != temporary)
            #expect(movie.isInserted)
            #expect(stack.context.insertedObjects.contains(movie))
            #expect(stack.context.hasChanges)
            #expect(stack.context.registeredObject(for: permanent) === movie)
            #expect(stack.context.object(with: permanent) === movie)

            try stack.context.save()
            #expect(movie.objectID == permanent)
            #expect(!movie.isInserted)
        }
        #expect(try stack.storedCountAfterReopening("Movie") == 1)
    }

    @Test func obtainPermanentIDsSkipsObjectsThatAlreadyHaveOne() throws {
        let stack = try movies()
        try stack.context.performAndWait { () throws in
            let saved = ctxInsert("Movie", into: stack.context, ["title": "Saved"])
            try stack.context.save()
            let savedID = saved.objectID
            let fresh = ctxInsert("Movie", into: stack.context, ["title": "Fresh"])
            try stack.context.obtainPermanentIDs(for: [saved, fresh])
            #expect(saved.objectID == savedID)
            #expect(!fresh.objectID.isTemporaryID)
            #expect(fresh.objectID != savedID)
        }
    }

    // MARK: URIs

    @Test func uriRoundTripsThroughTheCoordinator() throws {
        let stack = try movies()
        try stack.context.performAndWait { () throws in
            let movie = ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            try stack.context.save()
            let uri = movie.objectID.uriRepresentation()
            let id = try #require(stack.coordinator.managedObjectID(forURIRepresentation: uri))
            #expect(id == movie.objectID)
            #expect(id.entity.name == "Movie")
            #expect(stack.context.object(with: id) === movie)
        }
    }

    @Test func uriRoundTripsAcrossReopening() throws {
        let stack = try movies()
        let uri = try stack.context.performAndWait { () throws in
            let movie = ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            try stack.context.save()
            return movie.objectID.uriRepresentation()
        }
        let reopened = try stack.reopened()
        #expect(reopened.storeUUID == stack.storeUUID)
        try reopened.context.performAndWait { () throws in
            let id = try #require(reopened.coordinator.managedObjectID(forURIRepresentation: uri))
            let movie = try reopened.context.existingObject(with: id)
            #expect(movie.value(forKey: "title") as? String == "Alien")
            #expect(movie.objectID.uriRepresentation() == uri)
        }
    }

    @Test func unknownStoreUUIDGivesNil() throws {
        let stack = try movies()
        try stack.context.performAndWait { () throws in
            ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            try stack.context.save()
        }
        let uri = try #require(URL(string: "x-coredata://\(UUID().uuidString)/Movie/p1"))
        #expect(stack.coordinator.managedObjectID(forURIRepresentation: uri) == nil)
    }

    @Test(arguments: [
        "x-coredata://STORE/Movie",
        "x-coredata://STORE/Movie/p",
        "x-coredata://STORE/Movie/pabc",
        "x-coredata://STORE/NoSuchEntity/p1",
        "x-coredata:///Movie/p1",
        "https://STORE/Movie/p1",
        "x-coredata://STORE",
    ])
    func malformedURIsGiveNil(template: String) throws {
        let stack = try movies()
        try stack.context.performAndWait { () throws in
            ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            try stack.context.save()
        }
        let uuid = try #require(stack.storeUUID)
        let uri = try #require(URL(string: template.replacingOccurrences(of: "STORE", with: uuid)))
        #expect(stack.coordinator.managedObjectID(forURIRepresentation: uri) == nil)
    }

    @Test func aTemporaryURIDoesNotResolve() throws {
        let stack = try movies()
        let uri = stack.context.performAndWait { ctxInsert("Movie", into: stack.context).objectID.uriRepresentation() }
        #expect(stack.coordinator.managedObjectID(forURIRepresentation: uri) == nil)
    }

    // MARK: Value semantics

    @Test func idsOfOneRecordAreEqualAndHashAlikeAcrossContexts() throws {
        let stack = try movies()
        try stack.context.performAndWait { () throws in
            ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            ctxInsert("Movie", into: stack.context, ["title": "Heat"])
            try stack.context.save()
        }
        let a = try stack.context.performAndWait { () throws in try ctxFetch("Movie", in: stack.context, sortedBy: "title").map(\.objectID) }
        let other = stack.newContext()
        let b = try other.performAndWait { () throws in try ctxFetch("Movie", in: other, sortedBy: "title").map(\.objectID) }
        try #require(a.count == 2 && b.count == 2)
        #expect(a[0] == b[0])
        #expect(a[0].hashValue == b[0].hashValue)
        #expect(a[0] != a[1])
        #expect(Set(a + b).count == 2)
        let byID = Dictionary(uniqueKeysWithValues: a.map { ($0, $0.uriRepresentation()) })
        #expect(byID[b[1]] == a[1].uriRepresentation())

        // An ID rebuilt from its URI is equal too.
        let rebuilt = try #require(stack.coordinator.managedObjectID(forURIRepresentation: a[0].uriRepresentation()))
        #expect(rebuilt == a[0])
        #expect(rebuilt.hashValue == a[0].hashValue)
    }

    @Test func idsOfDifferentEntitiesWithTheSamePrimaryKeyDiffer() throws {
        let stack = try movies()
        try stack.context.performAndWait { () throws in
            let movie = ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            let actor = ctxInsert("Actor", into: stack.context, ["name": "Sigourney Weaver"])
            try stack.context.save()
            #expect(movie.objectID != actor.objectID)
        }
    }

    @Test func idsAreSendableAndWorkOnAnotherQueue() async throws {
        let stack = try movies()
        let id = try stack.context.performAndWait { () throws in
            let movie = ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            try stack.context.save()
            return movie.objectID
        }
        let sent = requireSendable(id)
        let coordinator = stack.coordinator
        let title = try await Task.detached { () throws -> String? in
            let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
            context.persistentStoreCoordinator = coordinator
            return try context.performAndWait { () throws in
                try context.existingObject(with: sent).value(forKey: "title") as? String
            }
        }.value
        #expect(title == "Alien")
    }

    // MARK: The store of an ID

    @Test func idsOfOneRowAreEqualAcrossLookupsAndCoordinatorsAndNameTheirOwnStore() throws {
        let stack = try movies()
        let id = try stack.context.performAndWait { () throws in
            let movie = ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            try stack.context.save()
            return movie.objectID
        }
        let other = stack.newContext()
        let fetched = try other.performAndWait { () throws in try ctxFetch("Movie", in: other)[0].objectID }
        let rebuilt = try #require(stack.coordinator.managedObjectID(forURIRepresentation: id.uriRepresentation()))
        for lookup in [fetched, rebuilt] {
            #expect(lookup == id)
            #expect(lookup.hashValue == id.hashValue)
            #expect(lookup.persistentStore === stack.store)
        }

        // Another coordinator on the same file: an equal ID, but naming that coordinator's store.
        let reopened = try stack.reopened()
        let elsewhere = try reopened.context.performAndWait { () throws in try ctxFetch("Movie", in: reopened.context)[0].objectID }
        #expect(elsewhere == id)
        #expect(elsewhere.hashValue == id.hashValue)
        #expect(elsewhere.uriRepresentation() == id.uriRepresentation())
        #expect(elsewhere.persistentStore === reopened.store)
        #expect(id.persistentStore === stack.store)
    }

    @Test func anIDOfARemovedAndDeallocatedStoreNamesNoStoreButKeepsItsURI() throws {
        let model = MovieModel.make()
        let directory = try CtxTemporaryDirectory()
        weak var removedStore: NSPersistentStore?
        let (id, uri) = try { () throws -> (NSManagedObjectID, URL) in
            let stack = try CtxStack(model: model, directory: directory)
            let id = try stack.context.performAndWait { () throws in
                let movie = ctxInsert("Movie", into: stack.context, ["title": "Alien"])
                try stack.context.save()
                return movie.objectID
            }
            #expect(id.persistentStore === stack.store)
            try stack.coordinator.remove(stack.store)
            removedStore = stack.store
            return (id, id.uriRepresentation())
        }()
        try #require(removedStore == nil, "nothing else keeps the removed store")
        #expect(id.persistentStore == nil)
        #expect(!id.isTemporaryID)
        #expect(id.uriRepresentation() == uri)
        #expect(uri.absoluteString.hasPrefix("x-coredata://"))

        // The file opened again gives an equal ID naming the new store; the old ID still names none.
        let reopened = try CtxStack(model: model, directory: directory)
        let again = try #require(reopened.coordinator.managedObjectID(forURIRepresentation: uri))
        #expect(again == id)
        #expect(again.hashValue == id.hashValue)
        #expect(again.persistentStore === reopened.store)
        #expect(id.persistentStore == nil)
    }

    @Test func anIDIsItsOwnCopy() throws {
        let stack = try movies()
        stack.context.performAndWait {
            let id = ctxInsert("Movie", into: stack.context).objectID
            let copy = id.copy() as? NSManagedObjectID
            #expect(copy == id)
        }
    }
}
