import CoreDataPostgreSQL
import Foundation
import Testing

@Suite(.enabled(if: PostgreSQLTestServer.isAvailable, Comment(rawValue: PostgreSQLTestServer.skipMessage)))
struct PostgreSQLStoreTests {
    // MARK: Saving and fetching

    @Test func objectsSavedByOneCoordinatorAreFetchedByAnother() throws {
        let stack = try PostgreSQLStack(model: LibraryModel.make())
        let context = stack.newContext()
        let identifier = UUID()
        let born = Date(timeIntervalSinceReferenceDate: -1_000_000)
        try context.performAndWait {
            let author = NSEntityDescription.insertNewObject(forEntityName: "Author", into: context)
            author.setValue("Ursula", forKey: "name")
            author.setValue(born, forKey: "born")
            for (index, title) in ["Earthsea", "The Dispossessed", "Lavinia"].enumerated() {
                let book = NSEntityDescription.insertNewObject(forEntityName: "Book", into: context)
                book.setValue(title, forKey: "title")
                book.setValue(100 * (index + 1), forKey: "pages")
                book.setValue(9.5 + Double(index), forKey: "price")
                book.setValue(index != 1, forKey: "isAvailable")
                book.setValue(index == 0 ? identifier : nil, forKey: "identifier")
                book.setValue(Data([0, 1, 2, UInt8(index)]), forKey: "cover")
                book.setValue(author, forKey: "author")
            }
            try context.save()
        }

        let other = try stack.another().newContext()
        try other.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Book")
            request.predicate = NSPredicate(format: "pages >= %d AND author.name == %@", 200, "Ursula")
            request.sortDescriptors = [NSSortDescriptor(key: "title", ascending: true)]
            let books = try other.fetch(request)
            #expect(books.map { $0.value(forKey: "title") as? String } == ["Lavinia", "The Dispossessed"])
            #expect(books.map { $0.value(forKey: "isAvailable") as? Bool } == [true, false])
            #expect(books.first?.value(forKey: "price") as? Double == 11.5)
            #expect(books.first?.value(forKey: "cover") as? Data == Data([0, 1, 2, 2]))
            let author = try #require(books.first?.value(forKey: "author") as? NSManagedObject)
            #expect(author.value(forKey: "born") as? Date == born)
            #expect((author.value(forKey: "books") as? Set<NSManagedObject>)?.count == 3)

            let byIdentifier = NSFetchRequest<NSManagedObject>(entityName: "Book")
            byIdentifier.predicate = NSPredicate(format: "identifier == %@", identifier as CVarArg)
            #expect(try other.fetch(byIdentifier).map { $0.value(forKey: "title") as? String } == ["Earthsea"])
            #expect(try other.count(for: NSFetchRequest<NSManagedObject>(entityName: "Book")) == 3)
        }
    }

    @Test func updatesAndDeletesReachOtherCoordinators() throws {
        let stack = try PostgreSQLStack(model: LibraryModel.make())
        let context = stack.newContext()
        let ids = try context.performAndWait {
            let books = (0..<3).map { index in
                let book = NSEntityDescription.insertNewObject(forEntityName: "Book", into: context)
                book.setValue("Book \(index)", forKey: "title")
                return book
            }
            try context.save()
            books[0].setValue("Renamed", forKey: "title")
            context.delete(books[1])
            try context.save()
            return books.map(\.objectID)
        }
        let other = try stack.another().newContext()
        try other.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Book")
            request.sortDescriptors = [NSSortDescriptor(key: "title", ascending: true)]
            let titles = try other.fetch(request).map { $0.value(forKey: "title") as? String }
            #expect(titles == ["Book 2", "Renamed"])
            #expect(ids.allSatisfy { !$0.isTemporaryID })
        }
    }

    @Test func manyToManyRelationshipsUseTheirJoinTable() throws {
        let stack = try PostgreSQLStack(model: LibraryModel.make())
        let context = stack.newContext()
        try context.performAndWait {
            let shelves = ["Fiction", "Favourites"].map { label in
                let shelf = NSEntityDescription.insertNewObject(forEntityName: "Shelf", into: context)
                shelf.setValue(label, forKey: "label")
                return shelf
            }
            let book = NSEntityDescription.insertNewObject(forEntityName: "Book", into: context)
            book.setValue("Earthsea", forKey: "title")
            book.setValue(Set(shelves), forKey: "shelves")
            try context.save()
            book.setValue(Set([shelves[0]]), forKey: "shelves")
            try context.save()
        }
        let other = try stack.another().newContext()
        let labels = try other.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Shelf")
            request.predicate = NSPredicate(format: "ANY books.title == %@", "Earthsea")
            return try other.fetch(request).map { $0.value(forKey: "label") as? String }
        }
        #expect(labels == ["Fiction"])
    }

    @Test func keysOfCoordinatorsSavingAtOnceNeverCollide() throws {
        let first = try PostgreSQLStack(model: LibraryModel.make())
        let second = try first.another()
        let contexts = [first.newContext(), second.newContext()]
        for round in 0..<3 {
            for (index, context) in contexts.enumerated() {
                try context.performAndWait {
                    for number in 0..<(50 * (index + 1)) {
                        let book = NSEntityDescription.insertNewObject(forEntityName: "Book", into: context)
                        book.setValue("\(round)-\(index)-\(number)", forKey: "title")
                    }
                    try context.save()
                }
            }
        }
        let count = try contexts[0].performAndWait {
            try contexts[0].count(for: NSFetchRequest<NSManagedObject>(entityName: "Book"))
        }
        #expect(count == 3 * 150)
    }

    // MARK: Optimistic locking

    @Test func aConcurrentChangeIsAConflictUnderTheDefaultMergePolicy() throws {
        let stack = try PostgreSQLStack(model: LibraryModel.make())
        let other = try stack.another()
        let (mine, theirs) = (stack.newContext(), other.newContext())
        let objectID = try mine.performAndWait {
            let book = NSEntityDescription.insertNewObject(forEntityName: "Book", into: mine)
            book.setValue("Draft", forKey: "title")
            try mine.save()
            return book.objectID
        }
        let theirBook = try theirs.performAndWait { try theirs.existingObject(with: try #require(other.coordinator.managedObjectID(forURIRepresentation: objectID.uriRepresentation()))) }
        theirs.performAndWait {
            _ = theirBook.value(forKey: "title")
        }
        try mine.performAndWait {
            try mine.existingObject(with: objectID).setValue("Mine", forKey: "title")
            try mine.save()
        }
        try theirs.performAndWait {
            theirBook.setValue("Theirs", forKey: "title")
            let error = #expect(throws: NSError.self) { try theirs.save() }
            #expect(error?.code == NSManagedObjectMergeError)
            theirs.mergePolicy = NSMergePolicy.mergeByPropertyObjectTrump
            try theirs.save()
        }
        let third = try stack.another().newContext()
        let titles = try third.performAndWait {
            try third.fetch(NSFetchRequest<NSManagedObject>(entityName: "Book")).map { $0.value(forKey: "title") as? String }
        }
        #expect(titles == ["Theirs"])
    }

    @Test(arguments: [1, 2])
    func aSaveTheServerRollsBackToBreakADeadlockRunsAgain(changedBooks: Int) throws {
        let stack = try PostgreSQLStack(model: LibraryModel.make())
        let context = stack.newContext()
        let books = try context.performAndWait {
            let books = (0..<changedBooks).map { index in
                let book = NSEntityDescription.insertNewObject(forEntityName: "Book", into: context)
                book.setValue("Book \(index)", forKey: "title")
                return book
            }
            try context.save()
            return books
        }
        try Self.failAsDeadlocked("UPDATE", always: false, inSchema: stack.schema)
        try context.performAndWait {
            for book in books { book.setValue("Saved", forKey: "title") }
            try context.save()
        }
        let other = try stack.another().newContext()
        let titles = try other.performAndWait { try other.fetch(NSFetchRequest<NSManagedObject>(entityName: "Book")).map { $0.value(forKey: "title") as? String } }
        #expect(titles == Array(repeating: "Saved", count: changedBooks))
    }

    @Test func aSaveThatKeepsMeetingDeadlocksFailsWithTheServersState() throws {
        let stack = try PostgreSQLStack(model: LibraryModel.make())
        let context = stack.newContext()
        let book = try context.performAndWait {
            let book = NSEntityDescription.insertNewObject(forEntityName: "Book", into: context)
            book.setValue("Kept", forKey: "title")
            try context.save()
            return book
        }
        try Self.failAsDeadlocked("UPDATE", always: true, inSchema: stack.schema)
        let error = context.performAndWait {
            book.setValue("Changed", forKey: "title")
            return #expect(throws: NSError.self) { try context.save() }
        }
        #expect(error?.domain == NSCocoaErrorDomain)
        #expect(error?.code == NSPersistentStoreSaveError)
        #expect(error?.userInfo["PostgreSQLState"] as? String == "40P01")
    }

    /// Makes the server fail the first `operation` (`UPDATE`, `DELETE` or `INSERT`) of a book's
    /// row, or every one, as its deadlock detector fails a transaction.
    private static func failAsDeadlocked(_ operation: String, always: Bool, inSchema schema: String) throws {
        try PostgreSQLTestServer.administer("CREATE SEQUENCE deadlock_calls", inSchema: schema)
        try PostgreSQLTestServer.administer("""
            CREATE FUNCTION deadlock() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF \(always ? "TRUE" : "nextval('deadlock_calls') = 1") THEN
                    RAISE EXCEPTION 'deadlock detected' USING ERRCODE = 'deadlock_detected';
                END IF;
                RETURN COALESCE(NEW, OLD);
            END $$;
            """, inSchema: schema)
        try PostgreSQLTestServer.administer("CREATE TRIGGER deadlock BEFORE \(operation) ON zbook FOR EACH ROW EXECUTE FUNCTION deadlock()", inSchema: schema)
    }

    @Test(arguments: ["UPDATE", "DELETE", "INSERT"])
    func aBatchRequestTheServerRollsBackToBreakADeadlockRunsAgain(operation: String) throws {
        let stack = try PostgreSQLStack(model: LibraryModel.make())
        try stack.saveBooks(titled: (0..<3).map { "Book \($0)" })
        try Self.failAsDeadlocked(operation, always: false, inSchema: stack.schema)
        let request: NSPersistentStoreRequest
        var expected: [String?]
        switch operation {
        case "UPDATE":
            let update = NSBatchUpdateRequest(entityName: "Book")
            update.propertiesToUpdate = ["title": "Batched"]
            request = update
            expected = Array(repeating: "Batched", count: 3)
        case "DELETE":
            request = NSBatchDeleteRequest(fetchRequest: NSFetchRequest<NSFetchRequestResult>(entityName: "Book"))
            expected = []
        default:
            request = NSBatchInsertRequest(entityName: "Book", objects: [["title": "Book 3"], ["title": "Book 4"]])
            expected = (0..<5).map { "Book \($0)" }
        }
        let context = stack.newContext()
        try context.performAndWait { _ = try context.execute(request) }
        #expect(try stack.another().bookTitles() == expected)
    }

    @Test func aBatchRequestThatKeepsMeetingDeadlocksFailsWithTheServersState() throws {
        let stack = try PostgreSQLStack(model: LibraryModel.make())
        try stack.saveBooks(titled: ["Kept"])
        try Self.failAsDeadlocked("UPDATE", always: true, inSchema: stack.schema)
        let update = NSBatchUpdateRequest(entityName: "Book")
        update.propertiesToUpdate = ["title": "Changed"]
        let context = stack.newContext()
        let error = context.performAndWait {
            #expect(throws: NSError.self) { try context.execute(update) }
        }
        #expect(error?.domain == NSCocoaErrorDomain)
        #expect(error?.userInfo["PostgreSQLState"] as? String == "40P01")
        #expect(try stack.bookTitles() == ["Kept"])
    }

    @Test func theDatabaseItselfRefusesADuplicateOfAUniqueValue() throws {
        let model = LibraryModel.make()
        let book = try #require(model.entitiesByName["Book"])
        book.uniquenessConstraints = [["title"]]
        let stack = try PostgreSQLStack(model: model)
        let context = stack.newContext()
        try context.performAndWait {
            NSEntityDescription.insertNewObject(forEntityName: "Book", into: context).setValue("Earthsea", forKey: "title")
            try context.save()
        }
        // A writer that skips the context's check (another program on the database) is refused too.
        let error = #expect(throws: (any Error).self) {
            try PostgreSQLTestServer.administer("INSERT INTO zbook (z_pk, z_ent, z_opt, ztitle) VALUES (1000, 2, 1, 'Earthsea')", inSchema: stack.schema)
        }
        #expect("\(String(reflecting: error))".contains("23505"))
    }

    // MARK: Sorting

    @Test(arguments: ["caseInsensitiveCompare:", "localizedCompare:", "localizedCaseInsensitiveCompare:", "localizedStandardCompare:"] as [Selector])
    func sortsByComparisonMethodsOrderAsTheInMemoryStoreDoes(selector: Selector) throws {
        let titles = ["file10", "file2", "File2", "Éclair", "eclair", "e\u{301}clair", "zebra", "Zebra", "a", "B", "ä", "10", "9", ""]
        func fill(_ context: NSManagedObjectContext) throws {
            try context.performAndWait {
                for (rank, title) in titles.enumerated() {
                    let author = NSEntityDescription.insertNewObject(forEntityName: "Author", into: context)
                    author.setValue(titles[(rank + 5) % titles.count], forKey: "name")
                    let book = NSEntityDescription.insertNewObject(forEntityName: "Book", into: context)
                    book.setValue(title, forKey: "title")
                    book.setValue(rank, forKey: "pages")
                    book.setValue(author, forKey: "author")
                }
                try context.save()
            }
        }
        func pages(_ context: NSManagedObjectContext, by key: String, ascending: Bool) throws -> [Int] {
            try context.performAndWait {
                let request = NSFetchRequest<NSManagedObject>(entityName: "Book")
                request.sortDescriptors = [NSSortDescriptor(key: key, ascending: ascending, selector: selector), NSSortDescriptor(key: "pages", ascending: true)]
                request.fetchOffset = 2
                request.fetchLimit = 9
                return try context.fetch(request).map { ($0.value(forKey: "pages") as? Int) ?? -1 }
            }
        }
        let server = try PostgreSQLStack(model: LibraryModel.make()).newContext()
        try fill(server)
        let memoryCoordinator = NSPersistentStoreCoordinator(managedObjectModel: LibraryModel.make())
        try memoryCoordinator.addPersistentStore(ofType: NSInMemoryStoreType, configurationName: nil, at: nil)
        let memory = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        memory.persistentStoreCoordinator = memoryCoordinator
        try fill(memory)
        for key in ["title", "author.name"] {
            for ascending in [true, false] {
                let fetched = try pages(server, by: key, ascending: ascending)
                #expect(fetched.count == 9)
                #expect(fetched == (try pages(memory, by: key, ascending: ascending)), "\(selector) \(key) \(ascending)")
            }
        }
        let count = try server.performAndWait { () throws -> Int in
            let request = NSFetchRequest<NSManagedObject>(entityName: "Book")
            request.sortDescriptors = [NSSortDescriptor(key: "title", ascending: true, selector: selector)]
            return try server.count(for: request)
        }
        #expect(count == titles.count)
    }

    @Test func aDictionaryFetchGroupedByAnExpressionIsSortedByAnotherKey() throws {
        let context = try PostgreSQLStack(model: LibraryModel.make()).newContext()
        try context.performAndWait {
            for (pages, price) in [(120, 10.0), (180, 20.0), (250, 5.0), (310, 7.0), (390, 9.0)] {
                let book = NSEntityDescription.insertNewObject(forEntityName: "Book", into: context)
                book.setValue("\(pages)", forKey: "title")
                book.setValue(pages, forKey: "pages")
                book.setValue(price, forKey: "price")
            }
            try context.save()
        }
        let hundreds = NSExpressionDescription()
        hundreds.name = "hundreds"
        hundreds.expression = NSExpression(format: "pages / 100 * 100")
        hundreds.expressionResultType = .integer64AttributeType
        let books = NSExpressionDescription()
        books.name = "books"
        books.expression = NSExpression(forFunction: "count:", arguments: [NSExpression(forKeyPath: "title")])
        books.expressionResultType = .integer64AttributeType
        let request = NSFetchRequest<NSDictionary>(entityName: "Book")
        request.resultType = .dictionaryResultType
        request.propertiesToFetch = [hundreds, books]
        request.propertiesToGroupBy = [hundreds]
        for ascending in [true, false] {
            request.sortDescriptors = [NSSortDescriptor(key: "pages", ascending: ascending)]
            let rows = try context.performAndWait { try context.fetch(request) }
            let groups = rows.map { [($0["hundreds"] as? NSNumber)?.intValue, ($0["books"] as? NSNumber)?.intValue] }
            let expected: [[Int?]] = [[100, 2], [200, 1], [300, 2]]
            #expect(groups == (ascending ? expected : expected.reversed()))
        }
    }

    // MARK: Query generations

    @Test func aPinnedContextDoesNotSeeWhatAnotherServerSavesUntilItMovesOn() throws {
        let stack = try PostgreSQLStack(model: LibraryModel.make())
        let writer = try stack.another().newContext()
        func insertBook(_ title: String) throws {
            try writer.performAndWait {
                NSEntityDescription.insertNewObject(forEntityName: "Book", into: writer).setValue(title, forKey: "title")
                try writer.save()
            }
        }
        try insertBook("Before")
        let pinned = stack.newContext()
        let bookCount = { try pinned.performAndWait { try pinned.count(for: NSFetchRequest<NSManagedObject>(entityName: "Book")) } }
        try pinned.performAndWait { try pinned.setQueryGenerationFrom(.current) }
        #expect(try bookCount() == 1)
        try insertBook("After")
        #expect(try bookCount() == 1)
        try pinned.performAndWait { try pinned.setQueryGenerationFrom(.current) }
        #expect(try bookCount() == 2)
    }


    @Test func valuesAreBoundNotSpliced() throws {
        let stack = try PostgreSQLStack(model: LibraryModel.make())
        let context = stack.newContext()
        let hostile = "x'); DROP TABLE ZBOOK; --"
        try context.performAndWait {
            let book = NSEntityDescription.insertNewObject(forEntityName: "Book", into: context)
            book.setValue(hostile, forKey: "title")
            try context.save()
            let request = NSFetchRequest<NSManagedObject>(entityName: "Book")
            request.predicate = NSPredicate(format: "title == %@ OR title BEGINSWITH[c] %@", hostile, "X'")
            #expect(try context.fetch(request).count == 1)
        }
    }

    @Test func aStringWithANulCharacterIsRefusedAndNothingIsSaved() throws {
        let stack = try PostgreSQLStack(model: LibraryModel.make())
        let context = stack.newContext()
        let error = context.performAndWait {
            NSEntityDescription.insertNewObject(forEntityName: "Book", into: context).setValue("Fine", forKey: "title")
            NSEntityDescription.insertNewObject(forEntityName: "Book", into: context).setValue("Nul\u{0}Byte", forKey: "title")
            return #expect(throws: NSError.self) { try context.save() }
        }
        #expect(error?.domain == NSCocoaErrorDomain)
        #expect(error?.code == NSPersistentStoreSaveError)
        let other = try stack.another().newContext()
        let count = try other.performAndWait { try other.count(for: NSFetchRequest<NSManagedObject>(entityName: "Book")) }
        #expect(count == 0)
    }

    @Test func aSchemaNameThatIsNotAnIdentifierIsRefused() throws {
        let url = try #require(PostgreSQLTestServer.url)
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: LibraryModel.make())
        let error = #expect(throws: NSError.self) {
            try coordinator.addPersistentStore(ofType: NSPostgreSQLStoreType, configurationName: nil, at: url, options: [NSPostgreSQLSchemaOption: "x\"; DROP SCHEMA public; --"])
        }
        #expect(error?.domain == NSCocoaErrorDomain)
        #expect(coordinator.persistentStores.isEmpty)
    }

    @Test func aModelThatDoesNotMatchTheStoreIsRefused() throws {
        let stack = try PostgreSQLStack(model: LibraryModel.make())
        let changed = LibraryModel.make()
        let extra = NSAttributeDescription()
        extra.name = "subtitle"
        extra.attributeType = .stringAttributeType
        changed.entitiesByName["Book"]?.properties.append(extra)
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: changed)
        let url = try #require(PostgreSQLTestServer.url)
        let error = #expect(throws: NSError.self) {
            try coordinator.addPersistentStore(ofType: NSPostgreSQLStoreType, configurationName: nil, at: url, options: stack.options)
        }
        #expect(error?.code == NSPersistentStoreIncompatibleVersionHashError)
    }

    @Test func aServerThatIsNotThereIsAClearErrorAtAddPersistentStore() throws {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: LibraryModel.make())
        let url = try #require(URL(string: "postgres://postgres@%2Fnonexistent-\(UUID().uuidString)/coredata"))
        let error = #expect(throws: NSError.self) {
            try coordinator.addPersistentStore(ofType: NSPostgreSQLStoreType, configurationName: nil, at: url, options: nil)
        }
        #expect(error?.code == NSPersistentStoreOpenError)
        #expect(error?.localizedDescription.contains("cannot be reached") == true)
    }

    @Test func theStoreTypeRegistersItsClass() throws {
        #expect(NSPersistentStore.StoreType.postgreSQL.rawValue == "PostgreSQL")
        register()
        let stack = try PostgreSQLStack(model: LibraryModel.make())
        #expect(stack.store.type == NSPostgreSQLStoreType)
        #expect(stack.store.metadata[NSStoreModelVersionHashesKey] != nil)
    }
}
