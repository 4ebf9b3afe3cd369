import CoreData
import Testing

/// What is particular to incremental stores: object IDs made from a store's reference objects.
@Suite struct IncrementalStoreTests {
    @Test func objectIDsComeFromReferenceObjectsAndGiveThemBack() throws {
        let shelf = try CustomStoreShelf.Kind.incremental.shelf()
        let context = shelf.context
        let incremental = try #require(shelf.store as? BookshelfStore)
        try context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Book")
            request.predicate = NSPredicate(format: "year == 1968")
            let book = try #require(context.fetch(request).first)
            #expect(incremental.referenceObject(for: book.objectID) as? String == "earthsea")
            let author = try #require(book.value(forKey: "author") as? NSManagedObject)
            #expect((incremental.referenceObject(for: author.objectID) as? NSNumber)?.intValue == 1)
            #expect(author.objectID.uriRepresentation().absoluteString == "x-coredata://bookshelf-shelf.json/Author/p1")
            let again = incremental.newObjectID(for: book.entity, referenceObject: "earthsea")
            #expect(again == book.objectID)
            #expect(context.object(with: again) === book)
            #expect(try context.existingObject(with: again) === book)
        }
    }

    /// A string reference object is the URI's key, so the URI names the object in any
    /// coordinator, after a relaunch too.
    @Test func theURIOfAnObjectNamedByAStringRoundTripsInEveryCoordinator() throws {
        let shelf = try CustomStoreShelf.Kind.incremental.shelf()
        let uri = try shelf.context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Book")
            request.predicate = NSPredicate(format: "year == 1968")
            let book = try #require(shelf.context.fetch(request).first)
            let uri = book.objectID.uriRepresentation()
            #expect(uri.absoluteString == "x-coredata://bookshelf-shelf.json/Book/pearthsea")
            #expect(shelf.context.persistentStoreCoordinator?.managedObjectID(forURIRepresentation: uri) == book.objectID)
            return uri
        }
        let reopened = try shelf.reopened()
        let title = try reopened.context.performAndWait {
            let objectID = try #require(reopened.context.persistentStoreCoordinator?.managedObjectID(forURIRepresentation: uri))
            return try reopened.context.existingObject(with: objectID).value(forKey: "title") as? String
        }
        #expect(title == "A Wizard of Earthsea")
    }

    /// A store that names every new object by the same reference object.
    final class OneNameStore: NSIncrementalStore, @unchecked Sendable {
        override var type: String { "OneName" }

        override func loadMetadata() throws {
            metadata = [NSStoreTypeKey: type, NSStoreUUIDKey: "one-name"]
        }

        override func execute(_ request: NSPersistentStoreRequest, with context: NSManagedObjectContext?) throws -> Any {
            [Any]()
        }

        override func obtainPermanentIDs(for array: [NSManagedObject]) throws -> [NSManagedObjectID] {
            array.map { newObjectID(for: $0.entity, referenceObject: "same") }
        }
    }

    @Test func permanentIDsAStoreGivesTwiceAreRefusedWith134070() throws {
        NSPersistentStoreCoordinator.registerStoreClass(OneNameStore.self, forStoreType: "OneName")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: BookshelfStore.model())
        try coordinator.addPersistentStore(ofType: "OneName", configurationName: nil, at: URL(fileURLWithPath: "/tmp/one-name"), options: nil)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        context.performAndWait {
            let authors = (0..<2).map { _ in NSEntityDescription.insertNewObject(forEntityName: "Author", into: context) }
            #expect { try context.save() } throws: { ($0 as NSError).code == NSPersistentStoreOperationError }
            #expect(authors.allSatisfy { $0.objectID.isTemporaryID && $0.isInserted })
        }
    }

    /// A count, or a fetch of faults, without a predicate or an order needs no values: the store
    /// is asked for them only when a fault fires.
    @Test func countsAndFaultsWithoutAPredicateAskForNoValues() throws {
        let shelf = try CustomStoreShelf.Kind.incremental.shelf()
        let store = try #require(shelf.store as? BookshelfStore)
        try shelf.context.performAndWait {
            #expect(try shelf.context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Book")) == 3)
            let request = NSFetchRequest<NSManagedObject>(entityName: "Book")
            request.includesPropertyValues = false
            let books = try shelf.context.fetch(request)
            #expect(books.count == 3 && books.allSatisfy(\.isFault))
            #expect(store.valueRequests == 0)
            _ = books[0].value(forKey: "title")
            #expect(store.valueRequests >= 1, "firing a fault asks for the values of its batch")
        }
    }

    /// A context tells its store which objects it registers, once per operation: a fetch's
    /// objects, a relationship's destination, an insert once a save gave it its permanent ID;
    /// and which it unregisters: those a save deleted, then every other one at `reset()`. Each
    /// registration is balanced by one unregistration.
    @Test func theStoreHearsOfTheObjectsAContextRegistersAndUnregisters() throws {
        let shelf = try CustomStoreShelf.Kind.incremental.shelf()
        let store = try #require(shelf.store as? BookshelfStore)
        let context = shelf.context
        try context.performAndWait {
            let books = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Book"))
            #expect(store.registrations.map(Set.init) == [Set(books.map(\.objectID))])
            let earthsea = try #require(books.first { $0.value(forKey: "title") as? String == "A Wizard of Earthsea" })
            let leGuin = try #require(earthsea.value(forKey: "author") as? NSManagedObject)
            #expect(store.registrations.last == [leGuin.objectID])

            let borges = NSEntityDescription.insertNewObject(forEntityName: "Author", into: context)
            borges.setValue("Borges", forKey: "name")
            context.delete(earthsea)
            try context.save()
            #expect(store.registrations.count == 3)
            #expect(store.registrations.last == [borges.objectID])
            #expect(store.unregistrations == [[earthsea.objectID]])

            context.reset()
            #expect(store.unregistrations.count == 2)
            let registered = store.registrations.joined()
            #expect(Set(registered).count == registered.count, "no ID registered twice")
            #expect(Set(store.unregistrations.joined()) == Set(registered))
        }
    }

    /// Objects the program no longer holds leave the context; the store hears of them at the
    /// context's next operation.
    @Test func objectsAContextReleasesAreUnregisteredAtItsNextOperation() throws {
        let shelf = try CustomStoreShelf.Kind.incremental.shelf()
        let store = try #require(shelf.store as? BookshelfStore)
        let context = shelf.context
        try context.performAndWait {
            let released = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Book")).map(\.objectID)
            #expect(store.unregistrations.isEmpty)
            let authors = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Author"))
            #expect(store.unregistrations.map(Set.init) == [Set(released)])
            #expect(store.registrations.map(Set.init) == [Set(released), Set(authors.map(\.objectID))])
        }
    }
}
