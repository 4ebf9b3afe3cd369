import CoreData
import Testing

/// `migratePersistentStore(_:to:options:type:)` from the stores a program subclasses to SQLite
/// and back to a new file of the same type keeps every object, attribute and relationship.
@Suite struct CustomStoreMigrationTests {
    typealias Kind = CustomStoreShelf.Kind

    /// Each book with its year and author, and each author with the number of their books.
    private func contents(of context: NSManagedObjectContext) throws -> [String] {
        try context.performAndWait {
            let books = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Book")).map { book in
                let author = (book.value(forKey: "author") as? NSManagedObject)?.value(forKey: "name") as? String
                return "\(book.value(forKey: "title") as? String ?? "?") \(book.value(forKey: "year") as? Int ?? 0) \(author ?? "-")"
            }
            let authors = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Author")).map { author in
                "\(author.value(forKey: "name") as? String ?? "?"): \((author.value(forKey: "books") as? Set<NSManagedObject>)?.count ?? -1)"
            }
            return (books + authors).sorted()
        }
    }

    @Test(arguments: Kind.allCases)
    func aStoreMovesToSQLiteAndBackWithEveryObject(_ kind: Kind) throws {
        let shelf = try kind.shelf()
        let expected = try contents(of: shelf.context)
        #expect(expected.count == 5)
        let coordinator = try #require(shelf.context.persistentStoreCoordinator)
        let sqlite = try coordinator.migratePersistentStore(shelf.store, to: shelf.directory.url.appendingPathComponent("shelf.sqlite"), options: nil, type: .sqlite)
        #expect(sqlite.type == NSSQLiteStoreType)
        #expect(try contents(of: shelf.context) == expected)

        let back = try coordinator.migratePersistentStore(sqlite, to: shelf.directory.url.appendingPathComponent("moved"), options: nil, type: kind.storeType)
        #expect(back.type == kind.storeType.rawValue)
        #expect(try contents(of: shelf.context) == expected)
        let other = NSPersistentStoreCoordinator(managedObjectModel: coordinator.managedObjectModel)
        try other.addPersistentStore(type: kind.storeType, at: try #require(back.url))
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = other
        #expect(try contents(of: context) == expected, "a new coordinator reads the moved file")
    }
}
