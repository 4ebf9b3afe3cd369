@testable import CoreData
import Testing

// Stores that Apple's Core Data wrote, committed as test fixtures in public repositories, opened
// with the Xcode models they were written with (AppleStores/README.md names each file's source).
// Every expected value below was read from the fixture files with Python's sqlite3 module, not
// with this library.

/// A fixture store copied (with its write-ahead log, when it has one) into a scratch directory,
/// so that no test changes the committed files.
private struct AppleStoreFixture {
    let directory: SQLiteScratchDirectory
    let url: URL
    let model: NSManagedObjectModel

    init(store: String, model modelName: String) throws {
        let fixtures = try #require(Bundle.module.url(forResource: "AppleStores", withExtension: nil))
        directory = try SQLiteScratchDirectory("apple-store")
        url = directory.file(store)
        for suffix in ["", "-wal"] {
            let source = fixtures.appendingPathComponent(store + suffix)
            if FileManager.default.fileExists(atPath: source.path) {
                try FileManager.default.copyItem(at: source, to: URL(fileURLWithPath: url.path + suffix))
            }
        }
        model = try NSManagedObjectModel(validatingContentsOf: fixtures.appendingPathComponent(modelName))
    }

    /// Opens the copy, runs `body` with a fresh stack, and closes it.
    func open<T>(_ body: (SQLiteTestStack) throws -> T) throws -> T {
        let stack = try SQLiteTestStack(model: model, url: url)
        defer { stack.close() }
        return try body(stack)
    }

    /// The entity version hashes the store's metadata holds.
    func storedHashes() throws -> [String: Data] {
        let metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url)
        return try #require(metadata[NSStoreModelVersionHashesKey] as? [String: Data])
    }
}

private extension NSManagedObjectContext {
    /// Every object of an entity (sub-entities included), sorted by a key.
    func all(_ entity: String, sortedBy key: String) throws -> [NSManagedObject] {
        try performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: entity)
            request.sortDescriptors = [NSSortDescriptor(key: key, ascending: true)]
            return try fetch(request)
        }
    }
}

@Suite("Stores written by Apple's Core Data")
struct AppleWrittenStoreTests {
    // MARK: Self-referential, ordered many-to-many (DuckDuckGo bookmarks, framework 1251)

    /// `BookmarkEntity.favorites` (ordered) ↔ `favoriteFolders`: Apple keeps the pair in
    /// `Z_1FAVORITES (Z_1FAVORITEFOLDERS, Z_1FAVORITES, Z_FOK_1FAVORITES)`, named after `favorites`.
    @Test("a self-referential ordered many-to-many reads back from Apple's Z_1FAVORITES")
    func bookmarksReadBack() throws {
        let fixture = try AppleStoreFixture(store: "Bookmarks_V5.sqlite", model: "BookmarksModel 5.xcdatamodel")
        defer { fixture.directory.remove() }
        try fixture.open { stack in
            let context = stack.context
            let bookmarks = try context.all("BookmarkEntity", sortedBy: "uuid")
            try context.performAndWait {
                #expect(bookmarks.map { $0.value(forKey: "uuid") as? String } == ["1", "2", "3", "31", "32", "33", "4", "5", "bookmarks_root", "favorites_root"])
                let byUUID = Dictionary(uniqueKeysWithValues: bookmarks.map { ($0.value(forKey: "uuid") as? String ?? "", $0) })
                let favoritesRoot = try #require(byUUID["favorites_root"])
                let favorites = try #require(favoritesRoot.value(forKey: "favorites") as? NSOrderedSet)
                #expect(favorites.array.map { ($0 as? NSManagedObject)?.value(forKey: "uuid") as? String } == ["5", "4", "33", "32", "2"])
                for uuid in ["5", "4", "33", "32", "2"] {
                    let folders = try #require(byUUID[uuid]?.value(forKey: "favoriteFolders") as? Set<NSManagedObject>)
                    #expect(folders.map { $0.objectID } == [favoritesRoot.objectID])
                }
                #expect((byUUID["1"]?.value(forKey: "favoriteFolders") as? Set<NSManagedObject>)?.isEmpty == true)
                let root = try #require(byUUID["bookmarks_root"])
                let children = try #require(root.value(forKey: "children") as? NSOrderedSet)
                #expect(children.array.map { ($0 as? NSManagedObject)?.value(forKey: "uuid") as? String } == ["1", "2", "3", "4", "5"])
                let folder = try #require(byUUID["3"])
                #expect(folder.value(forKey: "isFolder") as? Bool == true)
                #expect(folder.value(forKey: "url") == nil)
                #expect((folder.value(forKey: "children") as? NSOrderedSet)?.array.map { ($0 as? NSManagedObject)?.value(forKey: "uuid") as? String } == ["31", "32", "33"])
                let bookmark = try #require(byUUID["33"])
                #expect(bookmark.value(forKey: "title") as? String == "33")
                #expect(bookmark.value(forKey: "url") as? String == "33")
                #expect(bookmark.value(forKey: "isPendingDeletion") as? Bool == false)
                #expect((bookmark.value(forKey: "parent") as? NSManagedObject)?.objectID == folder.objectID)
                #expect(bookmark.value(forKey: "modifiedAt") as? Date == Date(timeIntervalSinceReferenceDate: 731947175.404992))
                #expect(root.value(forKey: "modifiedAt") == nil)
            }
        }
    }

    @Test("new favorites land in Apple's Z_1FAVORITES, folder in Z_1FAVORITEFOLDERS, position in Z_FOK_1FAVORITES")
    func bookmarksWrite() throws {
        let fixture = try AppleStoreFixture(store: "Bookmarks_V5.sqlite", model: "BookmarksModel 5.xcdatamodel")
        defer { fixture.directory.remove() }
        try fixture.open { stack in
            let context = stack.context
            try context.performAndWait {
                let request = NSFetchRequest<NSManagedObject>(entityName: "BookmarkEntity")
                request.predicate = NSPredicate(format: "uuid == %@", "favorites_root")
                let favoritesRoot = try #require(try context.fetch(request).first)
                let added = NSEntityDescription.insertNewObject(forEntityName: "BookmarkEntity", into: context)
                added.setValue("new", forKey: "uuid")
                added.setValue(false, forKey: "isFolder")
                favoritesRoot.mutableOrderedSetValue(forKey: "favorites").insert(added, at: 0)
                try context.save()
            }
        }
        #expect(try RawStoreSQL.value(fixture.url, "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = 1")?.integer == 11)
        #expect(try RawStoreSQL.value(fixture.url, "SELECT Z_ENT FROM ZBOOKMARKENTITY WHERE Z_PK = 11 AND ZUUID = 'new'")?.integer == 1)
        let rows = try RawStoreSQL.rows(fixture.url, "SELECT Z_1FAVORITEFOLDERS, Z_1FAVORITES FROM Z_1FAVORITES ORDER BY Z_FOK_1FAVORITES")
        #expect(rows.map { [$0[0].integer, $0[1].integer] } == [[6, 11], [6, 3], [6, 1], [6, 9], [6, 2], [6, 10]])
        #expect(try RawStoreSQL.tables(fixture.url).filter { $0.hasPrefix("Z_1") } == ["Z_1FAVORITES"])

        let reopened = try fixture.open { stack in
            try stack.context.performAndWait {
                let request = NSFetchRequest<NSManagedObject>(entityName: "BookmarkEntity")
                request.predicate = NSPredicate(format: "uuid == %@", "new")
                let added = try #require(try stack.context.fetch(request).first)
                let folders = added.value(forKey: "favoriteFolders") as? Set<NSManagedObject> ?? []
                return folders.compactMap { $0.value(forKey: "uuid") as? String }
            }
        }
        #expect(reopened == ["favorites_root"])
    }

    // MARK: Many-to-many between two entities (Big Nerd Ranch CoreDataStack, framework 637)

    @Test("Author.books ↔ Book.authors is written into Apple's Z_1BOOKS (Z_1AUTHORS, Z_2BOOKS) and read back")
    func authorsAndBooks() throws {
        let fixture = try AppleStoreFixture(store: "TestModel.sqlite", model: "TestModel.xcdatamodel")
        defer { fixture.directory.remove() }
        try fixture.open { stack in
            let context = stack.context
            #expect(try context.all("Author", sortedBy: "lastName").isEmpty)
            try context.performAndWait {
                let ada = NSEntityDescription.insertNewObject(forEntityName: "Author", into: context)
                ada.setValue("Ada", forKey: "firstName")
                let bob = NSEntityDescription.insertNewObject(forEntityName: "Author", into: context)
                bob.setValue("Bob", forKey: "firstName")
                let book = NSEntityDescription.insertNewObject(forEntityName: "Book", into: context)
                book.setValue("Shared", forKey: "title")
                let solo = NSEntityDescription.insertNewObject(forEntityName: "Book", into: context)
                solo.setValue("Solo", forKey: "title")
                book.mutableSetValue(forKey: "authors").addObjects(from: [ada, bob])
                ada.mutableSetValue(forKey: "books").add(solo)
                try context.save()
            }
        }
        let authors = try RawStoreSQL.rows(fixture.url, "SELECT Z_PK, ZFIRSTNAME FROM ZAUTHOR ORDER BY Z_PK")
        let books = try RawStoreSQL.rows(fixture.url, "SELECT Z_PK, ZTITLE FROM ZBOOK ORDER BY Z_PK")
        let authorKey = Dictionary(uniqueKeysWithValues: authors.map { ($0[1].text ?? "", $0[0].integer ?? 0) })
        let bookKey = Dictionary(uniqueKeysWithValues: books.map { ($0[1].text ?? "", $0[0].integer ?? 0) })
        let pairs = try RawStoreSQL.rows(fixture.url, "SELECT Z_1AUTHORS, Z_2BOOKS FROM Z_1BOOKS").map { [$0[0].integer ?? 0, $0[1].integer ?? 0] }
        let expected = [["Ada", "Shared"], ["Bob", "Shared"], ["Ada", "Solo"]].map { [authorKey[$0[0]] ?? -1, bookKey[$0[1]] ?? -1] }
        #expect(Set(pairs) == Set(expected))
        #expect(try RawStoreSQL.tables(fixture.url).filter { $0.hasPrefix("Z_1") || $0.hasPrefix("Z_2") } == ["Z_1BOOKS"])

        let titles = try fixture.open { stack in
            let authors = try stack.context.all("Author", sortedBy: "firstName")
            return stack.context.performAndWait {
                authors.map { author in
                    ((author.value(forKey: "books") as? Set<NSManagedObject>) ?? []).compactMap { $0.value(forKey: "title") as? String }.sorted()
                }
            }
        }
        #expect(titles == [["Shared", "Solo"], ["Shared"]])
    }

    /// A store that lacks a join table its model needs is refused, rather than reading the
    /// relationship back empty.
    @Test("a store without the join table of a many-to-many is refused with 134020")
    func missingJoinTable() throws {
        let fixture = try AppleStoreFixture(store: "TestModel.sqlite", model: "TestModel.xcdatamodel")
        defer { fixture.directory.remove() }
        let connection = try SQLiteConnection(path: fixture.url.path, readOnly: false, create: false)
        try connection.execute("DROP TABLE Z_1BOOKS")
        connection.close()
        #expect {
            try fixture.open { _ in }
        } throws: { error in
            let error = error as NSError
            return error.code == NSPersistentStoreIncompatibleSchemaError && error.explanation.contains("Z_1BOOKS")
        }
    }

    // MARK: New stores named as Apple names them

    /// The shape of wireapp/wire-ios-data-model's stores (read for their layout only): Apple wrote
    /// `Z_9USERS (Z_9SYSTEMMESSAGES, Z_14USERS1)`, `Z_12USERS (Z_12REACTIONS, Z_14USERS)` and
    /// `Z_15TRUSTEDCLIENTS (Z_15TRUSTEDBYCLIENTS, Z_15TRUSTEDCLIENTS)` for SystemMessage (a
    /// sub-entity of Message) = 9, Reaction = 12, User = 14 and UserClient = 15, from framework 641
    /// to 977. Here Message = 1, SystemMessage = 2, Reaction = 3 and User = 4.
    @Test("a new store names join tables and colliding join columns as Apple does")
    func newStoreJoinTableNames() throws {
        typealias Kit = ModelFixtureKit
        let message = Kit.entity("Message", abstract: true)
        let systemMessage = Kit.entity("SystemMessage")
        let reaction = Kit.entity("Reaction")
        let user = Kit.entity("User", [Kit.attribute("name", .stringAttributeType)])
        message.subentities = [systemMessage]
        let systemMessageUsers = Kit.relationship("users", to: user, maxCount: 0)
        let userSystemMessages = Kit.relationship("systemMessages", to: systemMessage, maxCount: 0)
        let reactionUsers = Kit.relationship("users", to: user, maxCount: 0)
        let userReactions = Kit.relationship("reactions", to: reaction, maxCount: 0)
        let trusted = Kit.relationship("trustedClients", to: user, maxCount: 0)
        let trustedBy = Kit.relationship("trustedByClients", to: user, maxCount: 0)
        Kit.inverse(systemMessageUsers, userSystemMessages)
        Kit.inverse(reactionUsers, userReactions)
        Kit.inverse(trusted, trustedBy)
        systemMessage.properties = [systemMessageUsers]
        reaction.properties = [reactionUsers]
        user.properties += [userSystemMessages, userReactions, trusted, trustedBy]
        let model = Kit.model([message, systemMessage, reaction, user])

        let directory = try SQLiteScratchDirectory("apple-names")
        defer { directory.remove() }
        let url = directory.file("Names.sqlite")
        let stack = try SQLiteTestStack(model: model, url: url)
        try stack.context.performAndWait {
            let ada = NSEntityDescription.insertNewObject(forEntityName: "User", into: stack.context)
            ada.setValue("Ada", forKey: "name")
            let bob = NSEntityDescription.insertNewObject(forEntityName: "User", into: stack.context)
            bob.setValue("Bob", forKey: "name")
            let note = NSEntityDescription.insertNewObject(forEntityName: "SystemMessage", into: stack.context)
            let like = NSEntityDescription.insertNewObject(forEntityName: "Reaction", into: stack.context)
            note.mutableSetValue(forKey: "users").addObjects(from: [ada, bob])
            like.mutableSetValue(forKey: "users").add(bob)
            ada.mutableSetValue(forKey: "trustedClients").add(bob)
            try stack.context.save()
        }
        stack.close()

        #expect(try RawStoreSQL.columns(url, "Z_2USERS").map(\.name) == ["Z_2SYSTEMMESSAGES", "Z_4USERS1"])
        #expect(try RawStoreSQL.columns(url, "Z_3USERS").map(\.name) == ["Z_3REACTIONS", "Z_4USERS"])
        #expect(try RawStoreSQL.columns(url, "Z_4TRUSTEDCLIENTS").map(\.name) == ["Z_4TRUSTEDBYCLIENTS", "Z_4TRUSTEDCLIENTS"])
        #expect(try RawStoreSQL.indexes(url).contains("Z_2USERS_Z_4USERS1_INDEX"))
        let names = Dictionary(uniqueKeysWithValues: try RawStoreSQL.rows(url, "SELECT ZNAME, Z_PK FROM ZUSER").map { ($0[0].text ?? "", $0[1].integer ?? 0) })
        #expect(try RawStoreSQL.rows(url, "SELECT Z_4USERS1 FROM Z_2USERS ORDER BY Z_4USERS1").map { $0[0].integer } == [names["Ada"], names["Bob"]].sorted { ($0 ?? 0) < ($1 ?? 0) })
        #expect(try RawStoreSQL.rows(url, "SELECT Z_4USERS FROM Z_3USERS").map { $0[0].integer } == [names["Bob"]])
        // Ada trusts Bob: the first column holds the trusting client, the second the trusted one.
        #expect(try RawStoreSQL.rows(url, "SELECT Z_4TRUSTEDBYCLIENTS, Z_4TRUSTEDCLIENTS FROM Z_4TRUSTEDCLIENTS").map { [$0[0].integer, $0[1].integer] } == [[names["Ada"], names["Bob"]]])

        let reopened = try SQLiteTestStack(model: model, url: url)
        defer { reopened.close() }
        let users = try reopened.context.all("User", sortedBy: "name")
        reopened.context.performAndWait {
            #expect(users.map { ($0.value(forKey: "systemMessages") as? Set<NSManagedObject>)?.count } == [1, 1])
            #expect(users.map { ($0.value(forKey: "reactions") as? Set<NSManagedObject>)?.count } == [0, 1])
            #expect(users.map { ($0.value(forKey: "trustedClients") as? Set<NSManagedObject>)?.count } == [1, 0])
            #expect(users.map { ($0.value(forKey: "trustedByClients") as? Set<NSManagedObject>)?.count } == [0, 1])
        }
    }

    // MARK: An entity renamed by Apple's migration (CoreDataPlus, framework 1044)

    /// Apple migrated the store from the model where `LuxuryCar` was `ExpensiveSportCar`
    /// (`elementID="ExpensiveSportCar"`); `Z_PRIMARYKEY` still names entity 3 `ExpensiveSportCar`.
    @Test("a store whose Z_PRIMARYKEY keeps an entity's old name opens with the model that renamed it")
    func renamedEntityReadBack() throws {
        let fixture = try AppleStoreFixture(store: "SampleModel_V2.sqlite", model: "SampleModel2.xcdatamodel")
        defer { fixture.directory.remove() }
        try fixture.open { stack in
            let context = stack.context
            #expect(try context.all("Car", sortedBy: "numberPlate").count == 125)
            #expect(try context.all("SportCar", sortedBy: "numberPlate").count == 10)
            let luxury = try context.all("LuxuryCar", sortedBy: "numberPlate")
            #expect(luxury.count == 5)
            context.performAndWait {
                #expect(luxury.map { $0.entity.name } == Array(repeating: "LuxuryCar", count: 5))
                #expect(luxury.map { $0.value(forKey: "isLimitedEdition") as? Bool }.filter { $0 == true }.count == 2)
            }
            let people = try context.all("Person", sortedBy: "lastName")
            #expect(people.count == 20)
            try context.performAndWait {
                let counts = people.map { (($0.value(forKey: "cars") as? Set<NSManagedObject>) ?? []).count }
                #expect(counts.reduce(0, +) == 118)
                #expect(counts.max() == 100)
                let first = try #require(people.first { $0.objectID.primaryKey == 1 })
                #expect(first.value(forKey: "firstName") as? String == "Victoria")
                #expect(first.value(forKey: "lastName") as? String == "Coster")
                #expect(first.value(forKey: "updatedAt") as? Date == Date(timeIntervalSinceReferenceDate: 639503569.638733))
            }
        }
    }

    @Test("a new object of the renamed entity gets the old name's entity number")
    func renamedEntityWrite() throws {
        let fixture = try AppleStoreFixture(store: "SampleModel_V2.sqlite", model: "SampleModel2.xcdatamodel")
        defer { fixture.directory.remove() }
        try fixture.open { stack in
            try stack.context.performAndWait {
                let car = NSEntityDescription.insertNewObject(forEntityName: "LuxuryCar", into: stack.context)
                car.setValue("NEW-1", forKey: "numberPlate")
                car.setValue(true, forKey: "isLimitedEdition")
                try stack.context.save()
            }
        }
        #expect(try RawStoreSQL.value(fixture.url, "SELECT Z_ENT FROM ZCAR WHERE ZNUMBERPLATE = 'NEW-1'")?.integer == 3)
        #expect(try RawStoreSQL.value(fixture.url, "SELECT Z_PK FROM ZCAR WHERE ZNUMBERPLATE = 'NEW-1'")?.integer == 126)
        #expect(try RawStoreSQL.value(fixture.url, "SELECT Z_NAME FROM Z_PRIMARYKEY WHERE Z_ENT = 3")?.text == "ExpensiveSportCar")
        #expect(try RawStoreSQL.value(fixture.url, "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = 1")?.integer == 126)
    }

    // MARK: External binary data

    /// wireapp/wire-ios-data-model's stores (frameworks 640 to 866, read for their encoding only)
    /// hold `User.imageMediumData` (`allowsExternalBinaryDataStorage`) as `01` + the bytes when
    /// inline (51 values) and as `02` + a 36-character UUID + `00`, 38 bytes, when in a file (46).
    @Test("external binary data columns are written as Apple writes them: 02, the file's UUID, 00")
    func externalDataColumn() throws {
        typealias Kit = ModelFixtureKit
        let blob = Kit.attribute("blob", .binaryDataAttributeType)
        blob.allowsExternalBinaryDataStorage = true
        let model = Kit.model([Kit.entity("Document", [Kit.attribute("name", .stringAttributeType), blob])])
        let directory = try SQLiteScratchDirectory("apple-external")
        defer { directory.remove() }
        let url = directory.file("Docs.sqlite")
        let large = Data((0..<(ExternalBinaryStorage.threshold + 10)).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        do {
            let stack = try SQLiteTestStack(model: model, url: url)
            defer { stack.close() }
            try stack.context.performAndWait {
                for (name, value) in [("big", large), ("small", Data([1, 2, 3]))] {
                    let document = NSEntityDescription.insertNewObject(forEntityName: "Document", into: stack.context)
                    document.setValue(name, forKey: "name")
                    document.setValue(value, forKey: "blob")
                }
                try stack.context.save()
            }
        }
        let big = try #require(try RawStoreSQL.value(url, "SELECT ZBLOB FROM ZDOCUMENT WHERE ZNAME = 'big'")?.blob)
        #expect(big.count == 38)
        #expect(big.first == 2 && big.last == 0)
        let name = String(decoding: big.dropFirst().dropLast(), as: UTF8.self)
        #expect(UUID(uuidString: name) != nil)
        #expect(try RawStoreSQL.value(url, "SELECT ZBLOB FROM ZDOCUMENT WHERE ZNAME = 'small'")?.blob == Data([1, 1, 2, 3]))

        // A reference without the final 00 (written by earlier versions of this library) still reads.
        let connection = try SQLiteConnection(path: url.path, readOnly: false, create: false)
        let update = try connection.statement("UPDATE ZDOCUMENT SET ZBLOB = ? WHERE ZNAME = 'big'")
        update.bind(big.dropLast(), at: 1)
        try update.run()
        connection.close()
        let stack = try SQLiteTestStack(model: model, url: url)
        defer { stack.close() }
        let values = try stack.context.all("Document", sortedBy: "name")
        stack.context.performAndWait {
            #expect(values.map { $0.value(forKey: "blob") as? Data } == [large, Data([1, 2, 3])])
        }
    }

    // MARK: Version hashes

    @Test("our version hashes of each fixture's model equal the hashes Apple stored", arguments: [
        ("Bookmarks_V5.sqlite", "BookmarksModel 5.xcdatamodel"),
        ("TestModel.sqlite", "TestModel.xcdatamodel"),
        ("SampleModel_V2.sqlite", "SampleModel2.xcdatamodel"),
    ])
    func versionHashes(store: String, model: String) throws {
        let fixture = try AppleStoreFixture(store: store, model: model)
        defer { fixture.directory.remove() }
        #expect(fixture.model.entityVersionHashesByName == (try fixture.storedHashes()))
    }
}
