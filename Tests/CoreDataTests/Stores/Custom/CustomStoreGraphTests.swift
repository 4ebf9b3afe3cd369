import CoreData
import Testing

/// The object graph over the stores a program subclasses (`BookshelfStore`, `ShelfFileStore`):
/// delete rules, relationship faults from both sides, and saves merged into other contexts of
/// the coordinator.
@Suite struct CustomStoreGraphTests {
    typealias Kind = CustomStoreShelf.Kind

    /// The author named `name`.
    private func author(_ name: String, in context: NSManagedObjectContext) throws -> NSManagedObject {
        let request = NSFetchRequest<NSManagedObject>(entityName: "Author")
        request.predicate = NSPredicate(format: "name == %@", name)
        return try #require(try context.fetch(request).first)
    }

    /// Each book's title and author ("-" for none), sorted by title.
    private func books(in context: NSManagedObjectContext) throws -> [String] {
        let request = NSFetchRequest<NSManagedObject>(entityName: "Book")
        request.sortDescriptors = [NSSortDescriptor(key: "title", ascending: true)]
        return try context.fetch(request).map { book in
            let author = (book.value(forKey: "author") as? NSManagedObject)?.value(forKey: "name") as? String
            return "\(book.value(forKey: "title") as? String ?? "?") (\(author ?? "-"))"
        }
    }

    /// Deletes Le Guin under a model whose rule for her books is `rule`, saves, and returns the
    /// books a new coordinator reads from the file.
    private func deleteLeGuin(_ kind: Kind, rule: NSDeleteRule) throws -> [String] {
        let shelf = try kind.shelf(model: BookshelfStore.model(booksDeleteRule: rule))
        try shelf.context.performAndWait {
            shelf.context.delete(try author("Le Guin", in: shelf.context))
            try shelf.context.save()
        }
        let reopened = try shelf.reopened()
        return try reopened.context.performAndWait { try books(in: reopened.context) }
    }

    @Test(arguments: Kind.allCases)
    func cascadeDeletesTheAuthorsBooksFromTheFile(_ kind: Kind) throws {
        #expect(try deleteLeGuin(kind, rule: .cascadeDeleteRule) == ["Invisible Cities (Calvino)"])
    }

    @Test(arguments: Kind.allCases)
    func nullifyKeepsTheBooksWithoutAnAuthor(_ kind: Kind) throws {
        #expect(try deleteLeGuin(kind, rule: .nullifyDeleteRule) == ["A Wizard of Earthsea (-)", "Invisible Cities (Calvino)", "The Dispossessed (-)"])
    }

    @Test(arguments: Kind.allCases)
    func denyRefusesTheSaveAndLeavesTheFileAsItWas(_ kind: Kind) throws {
        let shelf = try kind.shelf(model: BookshelfStore.model(booksDeleteRule: .denyDeleteRule))
        let url = try #require(shelf.store.url)
        let before = try Data(contentsOf: url)
        try shelf.context.performAndWait {
            shelf.context.delete(try author("Le Guin", in: shelf.context))
            #expect { try shelf.context.save() } throws: { ($0 as NSError).code == NSValidationRelationshipDeniedDeleteError }
        }
        #expect(try Data(contentsOf: url) == before)
    }

    /// A fetched book's author is a fault until read; the author's books are a relationship
    /// fault until read, then faults that fire one by one.
    @Test(arguments: Kind.allCases)
    func relationshipFaultsFireFromBothSides(_ kind: Kind) throws {
        let shelf = try kind.shelf()
        let context = shelf.context
        try context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Book")
            request.predicate = NSPredicate(format: "title == %@", "Invisible Cities")
            let book = try #require(try context.fetch(request).first)
            let calvino = try #require(book.value(forKey: "author") as? NSManagedObject)
            #expect(calvino.isFault)
            #expect(calvino.value(forKey: "name") as? String == "Calvino")
            #expect(!calvino.isFault)

            let leGuin = try author("Le Guin", in: context)
            #expect(leGuin.hasFault(forRelationshipNamed: "books"))
            let written = try #require(leGuin.value(forKey: "books") as? Set<NSManagedObject>)
            #expect(!leGuin.hasFault(forRelationshipNamed: "books"))
            #expect(written.map { $0.value(forKey: "title") as? String ?? "?" }.sorted() == ["A Wizard of Earthsea", "The Dispossessed"])
            #expect(written.allSatisfy { $0.value(forKey: "author") as? NSManagedObject === leGuin })
        }
    }

    /// Another context renames Calvino, deletes The Dispossessed and adds a book by Le Guin.
    private func saveElsewhere(_ shelf: CustomStoreShelf) throws -> Notification {
        let writer = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        writer.persistentStoreCoordinator = shelf.context.persistentStoreCoordinator
        let saves = CtxNotificationRecorder(.NSManagedObjectContextDidSave, object: writer)
        defer { saves.stop() }
        try writer.performAndWait {
            try author("Calvino", in: writer).setValue("Italo Calvino", forKey: "name")
            let request = NSFetchRequest<NSManagedObject>(entityName: "Book")
            request.predicate = NSPredicate(format: "title == %@", "The Dispossessed")
            writer.delete(try #require(try writer.fetch(request).first))
            let lathe = NSEntityDescription.insertNewObject(forEntityName: "Book", into: writer)
            lathe.setValue("The Lathe of Heaven", forKey: "title")
            lathe.setValue(1971, forKey: "year")
            lathe.setValue(try author("Le Guin", in: writer), forKey: "author")
            try writer.save()
        }
        return try #require(saves.notifications.first)
    }

    private static let merged = ["A Wizard of Earthsea (Le Guin)", "Invisible Cities (Italo Calvino)", "The Lathe of Heaven (Le Guin)"]

    /// Reads Calvino and Le Guin's books in `context`, so that a merge has registered objects to
    /// refresh; returns them.
    private func readAuthors(in context: NSManagedObjectContext) throws -> (calvino: NSManagedObject, leGuin: NSManagedObject) {
        try context.performAndWait {
            let (calvino, leGuin) = (try author("Calvino", in: context), try author("Le Guin", in: context))
            #expect((leGuin.value(forKey: "books") as? Set<NSManagedObject>)?.count == 2)
            return (calvino, leGuin)
        }
    }

    @Test(arguments: Kind.allCases)
    func aDidSaveNotificationMergedByHandBringsTheOtherContextsChanges(_ kind: Kind) throws {
        let shelf = try kind.shelf()
        let (calvino, leGuin) = try readAuthors(in: shelf.context)
        let saved = try saveElsewhere(shelf)
        try shelf.context.performAndWait {
            shelf.context.mergeChanges(fromContextDidSave: saved)
            #expect(calvino.value(forKey: "name") as? String == "Italo Calvino")
            let titles = (leGuin.value(forKey: "books") as? Set<NSManagedObject>)?.compactMap { $0.value(forKey: "title") as? String }
            #expect(titles?.sorted() == ["A Wizard of Earthsea", "The Lathe of Heaven"])
            let catalogue = try books(in: shelf.context)
            #expect(catalogue == Self.merged)
        }
    }

    @Test(arguments: Kind.allCases)
    func aContextThatMergesAutomaticallyFollowsTheOtherContextsSave(_ kind: Kind) throws {
        let shelf = try kind.shelf()
        shelf.context.automaticallyMergesChangesFromParent = true
        let (calvino, leGuin) = try readAuthors(in: shelf.context)
        _ = try saveElsewhere(shelf)
        // The merge runs on the context's queue; a block queued after it runs once it is done.
        shelf.context.performAndWait {}
        try shelf.context.performAndWait {
            #expect(calvino.value(forKey: "name") as? String == "Italo Calvino")
            #expect((leGuin.value(forKey: "books") as? Set<NSManagedObject>)?.count == 2)
            let catalogue = try books(in: shelf.context)
            #expect(catalogue == Self.merged)
        }
    }

    /// Two contexts change one author: the second save conflicts (133020) under the default merge
    /// policy and wins under `NSMergeByPropertyObjectTrumpMergePolicy`, by the nodes' versions.
    @Test(arguments: Kind.allCases)
    func aSaveOverAnotherContextsChangeConflictsAndTheMergePolicyResolvesIt(_ kind: Kind) throws {
        let shelf = try kind.shelf()
        let other = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        other.persistentStoreCoordinator = shelf.context.persistentStoreCoordinator
        let mine = try shelf.context.performAndWait { try author("Calvino", in: shelf.context) }
        let theirs = try other.performAndWait { try author("Calvino", in: other) }
        try shelf.context.performAndWait { _ = mine.value(forKey: "name") }
        try other.performAndWait {
            theirs.setValue("Italo Calvino", forKey: "name")
            try other.save()
        }
        try shelf.context.performAndWait {
            mine.setValue("I. Calvino", forKey: "name")
            #expect { try shelf.context.save() } throws: { ($0 as NSError).code == NSManagedObjectMergeError }
            shelf.context.mergePolicy = NSMergePolicy.mergeByPropertyObjectTrump
            try shelf.context.save()
            mine.setValue("Calvino, Italo", forKey: "name")
            try shelf.context.save()
        }
        let reopened = try shelf.reopened()
        #expect(try reopened.context.performAndWait { try author("Calvino, Italo", in: reopened.context).value(forKey: "name") as? String } == "Calvino, Italo")
    }
}
