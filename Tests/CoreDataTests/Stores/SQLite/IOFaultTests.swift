@testable import CoreData
import CSQLite
import Testing

/// I/O error injection, SQLite's own test approach: every save path runs with SQLite's n-th file
/// operation failing, for each n, once (the call fails, later ones succeed) and persistently
/// (every call from the n-th on fails). Each run must throw a Cocoa error and leave the store as
/// it was, or, when the fault struck once the transaction had committed (SQLite ignores errors
/// after the commit, such as those of a checkpoint), succeed; then, with the fault gone, the same
/// context saves and writes what a save without faults writes. The faults reach SQLite's I/O only:
/// external data files are written by the store through Foundation.
@Suite("I/O errors in SQLite saves and migrations")
struct IOFaultTests {
    /// Authors, books, tags and chapters:
    /// - `Author.name` and `Tag.name` are unique;
    /// - `Book.tags` ↔ `Tag.books` is many-to-many (a join table);
    /// - `Book.chapters` is ordered, to-many, cascading, with a to-one inverse (an ordering column);
    /// - `Book.cover` allows external storage.
    private static func makeModel() -> NSManagedObjectModel {
        let cover = ModelFixtureKit.attribute("cover", .binaryDataAttributeType)
        cover.allowsExternalBinaryDataStorage = true
        let author = ModelFixtureKit.entity("Author", [ModelFixtureKit.attribute("name", .stringAttributeType)])
        let book = ModelFixtureKit.entity("Book", [ModelFixtureKit.attribute("title", .stringAttributeType), ModelFixtureKit.attribute("year", .integer32AttributeType), cover])
        let tag = ModelFixtureKit.entity("Tag", [ModelFixtureKit.attribute("name", .stringAttributeType)])
        let chapter = ModelFixtureKit.entity("Chapter", [ModelFixtureKit.attribute("title", .stringAttributeType)])
        author.uniquenessConstraints = [["name"]]
        tag.uniquenessConstraints = [["name"]]
        let books = ModelFixtureKit.relationship("books", to: book, maxCount: 0)
        let bookAuthor = ModelFixtureKit.relationship("author", to: author, maxCount: 1)
        let tags = ModelFixtureKit.relationship("tags", to: tag, maxCount: 0)
        let tagBooks = ModelFixtureKit.relationship("books", to: book, maxCount: 0)
        let chapters = ModelFixtureKit.relationship("chapters", to: chapter, maxCount: 0, ordered: true, deleteRule: .cascadeDeleteRule)
        let chapterBook = ModelFixtureKit.relationship("book", to: book, maxCount: 1)
        ModelFixtureKit.inverse(books, bookAuthor)
        ModelFixtureKit.inverse(tags, tagBooks)
        ModelFixtureKit.inverse(chapters, chapterBook)
        author.properties += [books]
        book.properties += [bookAuthor, tags, chapters]
        tag.properties += [tagBooks]
        chapter.properties += [chapterBook]
        return ModelFixtureKit.model([author, book, tag, chapter])
    }

    /// 160 KiB, above the threshold for external storage, a value per seed.
    private static func largeCover(seed: UInt8) -> Data {
        Data(repeating: seed, count: 160 * 1024)
    }

    /// The store every run copies: Earthsea (Le Guin; fantasy, classic; three chapters; a small
    /// cover, inline) and Dune (Herbert; science fiction; two chapters; a large cover, external).
    private static func makeBase(_ model: NSManagedObjectModel) throws -> SQLiteScratchDirectory {
        let base = try SQLiteScratchDirectory("iofault-base")
        let stack = try SQLiteTestStack(model: model, url: base.file("Library.sqlite"))
        defer { stack.close() }
        try stack.context.performAndWait {
            let context = stack.context
            let leGuin = ctxInsert("Author", into: context, ["name": "Le Guin"])
            let herbert = ctxInsert("Author", into: context, ["name": "Herbert"])
            let fantasy = ctxInsert("Tag", into: context, ["name": "fantasy"])
            let classic = ctxInsert("Tag", into: context, ["name": "classic"])
            let scienceFiction = ctxInsert("Tag", into: context, ["name": "science fiction"])
            let earthsea = ctxInsert("Book", into: context, ["title": "Earthsea", "year": 1968, "author": leGuin, "cover": Data([1, 2, 3]), "tags": NSSet(array: [fantasy, classic])])
            earthsea.setValue(NSOrderedSet(array: ["Warriors in the Mist", "The Hallowing", "The Shadow"].map { ctxInsert("Chapter", into: context, ["title": $0]) }), forKey: "chapters")
            let dune = ctxInsert("Book", into: context, ["title": "Dune", "year": 1965, "author": herbert, "cover": largeCover(seed: 1), "tags": NSSet(array: [scienceFiction])])
            dune.setValue(NSOrderedSet(array: ["Dune", "Muad'Dib"].map { ctxInsert("Chapter", into: context, ["title": $0]) }), forKey: "chapters")
            try context.save()
        }
        return base
    }

    private static func book(_ title: String, in context: NSManagedObjectContext) throws -> NSManagedObject {
        try #require(try ctxFetch("Book", in: context, "title == %@", [title]).first)
    }

    private static func tag(_ name: String, in context: NSManagedObjectContext) throws -> NSManagedObject {
        try #require(try ctxFetch("Tag", in: context, "name == %@", [name]).first)
    }

    private static func author(_ name: String, in context: NSManagedObjectContext) throws -> NSManagedObject {
        try #require(try ctxFetch("Author", in: context, "name == %@", [name]).first)
    }

    /// Sweeps faults over the save of the changes `change` makes to the base store (it runs
    /// without faults, and loads what it touches).
    private func sweepSave(kind: SQLiteFaultVFS.Kind = .any, result: Int32 = 0, transient: Int = 40, persistent: Int = 10, mergePolicy: NSMergePolicy? = nil, sourceLocation: SourceLocation = #_sourceLocation, _ change: @escaping (NSManagedObjectContext) throws -> Void) throws {
        let model = Self.makeModel()
        let base = try Self.makeBase(model)
        defer { base.remove() }
        let sweep = try FaultSweep(base: base, storeName: "Library.sqlite", models: [model]) { url in
            let stack = try SQLiteTestStack(model: model, url: url)
            try stack.context.performAndWait {
                if let mergePolicy { stack.context.mergePolicy = mergePolicy }
                try change(stack.context)
            }
            return FaultedOperation(run: { try stack.context.performAndWait { try stack.context.save() } }, close: stack.close)
        }
        let outcome = try sweep.run(kind: kind, result: result, transient: transient, persistent: persistent, sourceLocation: sourceLocation)
        #expect(outcome.thrown > 0, "faults make the save throw (\(outcome.thrown) of \(outcome.runs) runs)", sourceLocation: sourceLocation)
    }

    @Test("the fault VFS sees every kind of file operation of creating, saving and closing a store")
    func everyKindOfCallIsCounted() throws {
        let directory = try SQLiteScratchDirectory("iofault-kinds")
        defer { directory.remove() }
        let vfs = try SQLiteFaultVFS()
        vfs.route(directory.url)
        defer { vfs.unroute(directory.url) }
        let stack = try SQLiteTestStack(model: Self.makeModel(), url: directory.file("Library.sqlite"))
        try stack.context.performAndWait {
            ctxInsert("Author", into: stack.context, ["name": "Banks"])
            try stack.context.save()
        }
        stack.close()
        let kinds: [SQLiteFaultVFS.Kind] = [.read, .write, .sync, .truncate, .lock, .sharedMemoryLock, .fileSize, .sharedMemoryMap, .open]
        for kind in kinds {
            #expect(vfs.calls(kind) > 0, "\(kind)")
        }
        #expect(vfs.calls(.any) == kinds.map(vfs.calls).reduce(0, +))
    }

    @Test("inserts with to-one relationships")
    func inserts() throws {
        try sweepSave { context in
            let banks = ctxInsert("Author", into: context, ["name": "Banks"])
            ctxInsert("Book", into: context, ["title": "Excession", "year": 1996, "author": banks])
            ctxInsert("Book", into: context, ["title": "Inversions", "year": 1998, "author": banks])
        }
    }

    @Test("updates of attributes and of a to-one relationship")
    func updates() throws {
        try sweepSave { context in
            let earthsea = try Self.book("Earthsea", in: context)
            earthsea.setValue("A Wizard of Earthsea", forKey: "title")
            earthsea.setValue(1969, forKey: "year")
            try Self.author("Herbert", in: context).setValue("Frank Herbert", forKey: "name")
            try Self.book("Dune", in: context).setValue(try Self.author("Le Guin", in: context), forKey: "author")
        }
    }

    /// The relationships the delete rules visit are not loaded beforehand: the save loads them.
    @Test("deletes: cascade, nullify of to-one and many-to-many inverses, an external value made obsolete")
    func deletes() throws {
        try sweepSave { context in
            context.delete(try Self.book("Dune", in: context))
            context.delete(try Self.author("Le Guin", in: context))
            context.delete(try Self.tag("classic", in: context))
        }
    }

    @Test("to-many changes through a join table")
    func joinTable() throws {
        try sweepSave { context in
            let earthsea = try Self.book("Earthsea", in: context)
            let tags = earthsea.mutableSetValue(forKey: "tags")
            tags.remove(try Self.tag("classic", in: context))
            tags.add(try Self.tag("science fiction", in: context))
            let space = ctxInsert("Tag", into: context, ["name": "space"])
            try Self.book("Dune", in: context).mutableSetValue(forKey: "tags").add(space)
        }
    }

    @Test("ordered relationships: reordering, inserting in the middle, removing")
    func orderedRelationship() throws {
        try sweepSave { context in
            let earthsea = try Self.book("Earthsea", in: context)
            let chapters = earthsea.mutableOrderedSetValue(forKey: "chapters")
            chapters.exchangeObject(at: 0, withObjectAt: 2)
            chapters.insert(ctxInsert("Chapter", into: context, ["title": "The Loosing of the Shadow"]), at: 1)
            let dune = try Self.book("Dune", in: context)
            dune.mutableOrderedSetValue(forKey: "chapters").removeObject(at: 0)
        }
    }

    @Test("external binary data: an inline value made external, an external one replaced, a new one")
    func externalData() throws {
        try sweepSave { context in
            try Self.book("Earthsea", in: context).setValue(Self.largeCover(seed: 2), forKey: "cover")
            try Self.book("Dune", in: context).setValue(Self.largeCover(seed: 3), forKey: "cover")
            ctxInsert("Book", into: context, ["title": "Excession", "cover": Self.largeCover(seed: 4)])
        }
    }

    @Test("uniqueness constraints: a conflict the merge policy resolves, a unique value a deleted row held")
    func uniquenessConstraints() throws {
        let policy = NSMergePolicy(merge: .mergeByPropertyObjectTrumpMergePolicyType)
        try sweepSave(mergePolicy: policy) { context in
            let fantasy = ctxInsert("Tag", into: context, ["name": "fantasy"])
            try Self.book("Dune", in: context).mutableSetValue(forKey: "tags").add(fantasy)
            context.delete(try Self.author("Herbert", in: context))
            let herbert = ctxInsert("Author", into: context, ["name": "Herbert"])
            try Self.book("Dune", in: context).setValue(herbert, forKey: "author")
        }
    }

    @Test("writes failing with SQLITE_FULL, as on a full disk")
    func diskFull() throws {
        try sweepSave(kind: .write, result: SQLITE_FULL, transient: 0, persistent: 40) { context in
            ctxInsert("Book", into: context, ["title": "Excession", "year": 1996, "author": try Self.author("Herbert", in: context)])
        }
    }

    @Test("a lightweight migration when a coordinator adds the store")
    func lightweightMigration() throws {
        let version1 = try ShelfMigrationTests.shelf("Shelf")
        let version2 = try ShelfMigrationTests.shelf("Shelf 2")
        let base = try SQLiteScratchDirectory("iofault-base")
        defer { base.remove() }
        let stack = try SQLiteTestStack(model: version1, url: base.file("Shelf.sqlite"))
        try stack.context.performAndWait {
            let context = stack.context
            let tolkien = ctxInsert("Writer", into: context, ["name": "Tolkien", "country": "UK"])
            let hobbit = ctxInsert("Volume", into: context, ["title": "The Hobbit", "pages": 310, "isbn": "0261102214", "writer": tolkien])
            ctxInsert("Volume", into: context, ["title": "The Silmarillion", "writer": tolkien])
            ctxInsert("Reader", into: context, ["name": "Ann", "favorite": hobbit])
            ctxInsert("Sticker", into: context, ["text": "sale"])
            try context.save()
        }
        stack.close()
        var sweep = try FaultSweep(base: base, storeName: "Shelf.sqlite", models: [version1, version2]) { url in
            var opened: SQLiteTestStack?
            return FaultedOperation(
                run: {
                    opened?.close()
                    opened = try SQLiteTestStack(model: version2, url: url, options: MigrationScenario.lightweight)
                },
                close: { opened?.close() }
            )
        }
        sweep.mayCompleteBeforeThrowing = true
        let outcome = try sweep.run(transient: 24, persistent: 6)
        #expect(outcome.thrown > 0)
    }
}
