import CoreData
import Testing

/// Saving through the stores a program subclasses: an incremental store (`BookshelfStore`, which
/// gets an `NSSaveChangesRequest` after `obtainPermanentIDs(for:)`) and an atomic store
/// (`ShelfFileStore`, whose cache nodes are brought up to date before `save()`). Inserts,
/// updates, deletes and relationships reach the file, as a new coordinator reads it back.
@Suite struct CustomStoreSavingTests {
    typealias Kind = CustomStoreShelf.Kind

    /// Adds Borges and one of his books, changes a year and deletes a book, then saves.
    private func edit(_ context: NSManagedObjectContext) throws -> (author: NSManagedObject, book: NSManagedObject) {
        let borges = NSEntityDescription.insertNewObject(forEntityName: "Author", into: context)
        borges.setValue("Borges", forKey: "name")
        let ficciones = NSEntityDescription.insertNewObject(forEntityName: "Book", into: context)
        ficciones.setValue("Ficciones", forKey: "title")
        ficciones.setValue(1944, forKey: "year")
        ficciones.setValue(borges, forKey: "author")
        let books = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Book"))
        books.first { $0.value(forKey: "title") as? String == "Invisible Cities" }?.setValue(1973, forKey: "year")
        context.delete(try #require(books.first { $0.value(forKey: "title") as? String == "The Dispossessed" }))
        try context.save()
        return (borges, ficciones)
    }

    /// Title, year and author of every book, sorted by title.
    private func catalogue(_ context: NSManagedObjectContext) throws -> [String] {
        let request = NSFetchRequest<NSManagedObject>(entityName: "Book")
        request.sortDescriptors = [NSSortDescriptor(key: "title", ascending: true)]
        return try context.fetch(request).map { book in
            let author = (book.value(forKey: "author") as? NSManagedObject)?.value(forKey: "name") as? String ?? "-"
            return "\(book.value(forKey: "title") as? String ?? "?") \(book.value(forKey: "year") as? Int ?? 0) \(author)"
        }
    }

    private static let saved = [
        "A Wizard of Earthsea 1968 Le Guin", "Ficciones 1944 Borges", "Invisible Cities 1973 Calvino",
    ]

    @Test(arguments: Kind.allCases)
    func aSaveReachesTheFileWithPermanentIDsFromTheStoresReferenceObjects(_ kind: Kind) throws {
        let shelf = try kind.shelf()
        try shelf.context.performAndWait {
            let (borges, ficciones) = try edit(shelf.context)
            #expect(!borges.objectID.isTemporaryID && !ficciones.objectID.isTemporaryID)
            #expect(borges.objectID.persistentStore === shelf.store)
            #expect(borges.objectID.uriRepresentation().lastPathComponent == "p3")
            #expect(try shelf.context.existingObject(with: ficciones.objectID) === ficciones)
            #expect(try catalogue(shelf.context) == Self.saved)
        }
        let reopened = try shelf.reopened()
        try reopened.context.performAndWait {
            #expect(try catalogue(reopened.context) == Self.saved)
            let request = NSFetchRequest<NSManagedObject>(entityName: "Author")
            request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
            let counts = try reopened.context.fetch(request).map { ($0.value(forKey: "books") as? Set<NSManagedObject>)?.count ?? -1 }
            #expect(counts == [1, 1, 1], "Borges, Calvino, Le Guin")
        }
    }

    @Test(arguments: Kind.allCases)
    func anotherContextOfTheCoordinatorReadsTheSave(_ kind: Kind) throws {
        let shelf = try kind.shelf()
        try shelf.context.performAndWait { _ = try edit(shelf.context) }
        let other = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        other.persistentStoreCoordinator = shelf.context.persistentStoreCoordinator
        let titles = try other.performAndWait { try catalogue(other) }
        #expect(titles == Self.saved)
        let borgesBooks = try other.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Author")
            request.predicate = NSPredicate(format: "name == %@", "Borges")
            let borges = try #require(other.fetch(request).first)
            return (borges.value(forKey: "books") as? Set<NSManagedObject>)?.compactMap { $0.value(forKey: "title") as? String }
        }
        #expect(borgesBooks == ["Ficciones"], "the new author's to-many relationship, as the store saved it")
    }
}

/// A save across the SQLite store and an incremental store: the store without transactions
/// writes last, so a conflict in the SQLite store leaves the incremental store's file untouched.
@Suite struct CustomStoreAndSQLiteSavingTests {
    private static func model() -> NSManagedObjectModel {
        let model = BookshelfStore.model()
        let note = ModelFixtureKit.entity("Note", [ModelFixtureKit.attribute("text", .stringAttributeType)])
        let shelf = model.entities
        model.entities = shelf + [note]
        model.setEntities(shelf, forConfigurationName: "Shelf")
        model.setEntities([note], forConfigurationName: "Local")
        return model
    }

    @Test func aConflictInTheSQLiteStoreLeavesTheIncrementalStoreUnwritten() throws {
        NSPersistentStoreCoordinator.registerStoreClass(BookshelfStore.self, type: BookshelfStore.storeType)
        let directory = try CtxTemporaryDirectory()
        let shelfURL = directory.url.appendingPathComponent("shelf.json")
        try Data(BookshelfStore.sampleShelf.utf8).write(to: shelfURL)
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: Self.model())
        try coordinator.addPersistentStore(ofType: BookshelfStore.storeType.rawValue, configurationName: "Shelf", at: shelfURL, options: nil)
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: "Local", at: directory.url.appendingPathComponent("local.sqlite"), options: nil)
        func context() -> NSManagedObjectContext {
            let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
            context.persistentStoreCoordinator = coordinator
            return context
        }
        let first = context()
        let noteID = try first.performAndWait {
            let note = NSEntityDescription.insertNewObject(forEntityName: "Note", into: first)
            note.setValue("draft", forKey: "text")
            try first.save()
            return note.objectID
        }
        let before = try Data(contentsOf: shelfURL)
        let stale = context()
        // Held across the blocks: a context holds unchanged objects weakly.
        let staleNote = try stale.performAndWait {
            let note = try stale.existingObject(with: noteID)
            _ = note.value(forKey: "text")
            return note
        }
        try first.performAndWait {
            try first.existingObject(with: noteID).setValue("final", forKey: "text")
            try first.save()
        }
        try stale.performAndWait {
            let book = NSEntityDescription.insertNewObject(forEntityName: "Book", into: stale)
            book.setValue("Labyrinths", forKey: "title")
            staleNote.setValue("stale", forKey: "text")
            #expect { try stale.save() } throws: { ($0 as NSError).code == NSManagedObjectMergeError }
        }
        #expect(try Data(contentsOf: shelfURL) == before)
    }
}
