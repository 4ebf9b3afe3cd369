@testable import CoreData
import Testing

/// A book with hand-written accessors over key-value coding, as the README recommends.
final class SortKeyPathBook: NSManagedObject {
    /// Every read of `isbn`, to see that a key path is probed once.
    static let isbnReads = CtxLog<Int>()

    var title: String {
        value(forKey: "title") as! String
    }

    var pages: Int64 {
        value(forKey: "pages") as! Int64
    }

    var isbn: String? {
        Self.isbnReads.append(1)
        return value(forKey: "isbn") as? String
    }

    var author: SortKeyPathAuthor? {
        value(forKey: "author") as? SortKeyPathAuthor
    }

    var authorName: String {
        (value(forKey: "author") as! SortKeyPathAuthor).name
    }

    /// Reads two properties: no single key.
    var summary: String {
        "\(title), \(pages) pages"
    }

    /// Reads no property.
    var shelf: Int {
        7
    }
}

final class SortKeyPathAuthor: NSManagedObject {
    var name: String {
        value(forKey: "name") as! String
    }
}

/// A book whose initializer sets and reads a value, which the probe must survive.
final class SortKeyPathDraft: NSManagedObject {
    required init(entity: NSEntityDescription, insertInto context: NSManagedObjectContext?) {
        super.init(entity: entity, insertInto: context)
        setValue("untitled", forKey: "title")
        _ = value(forKey: "title")
    }

    var title: String {
        value(forKey: "title") as! String
    }
}

/// A subclass no entity of any model names.
final class SortKeyPathStray: NSManagedObject {
    var name: String {
        value(forKey: "name") as! String
    }
}

/// `NSSortDescriptor(keyPath:ascending:)` on managed object subclasses: the key path is mapped to
/// the property key path its accessors read (once, then cached), and such descriptors sort SQLite
/// fetches like their string-key twins. Key paths that map to no key still sort in memory.
@Suite struct SortDescriptorKeyPathTests {
    @Test func anInitializerThatSetsAndReadsValuesDoesNotDisturbTheProbe() throws {
        let draft = ModelFixtureKit.entity("Draft")
        draft.managedObjectClassName = String(reflecting: SortKeyPathDraft.self)
        draft.properties = [ModelFixtureKit.attribute("title", .stringAttributeType, optional: false)]
        let stack = try CtxStack(model: ModelFixtureKit.model([draft]))
        withExtendedLifetime(stack) {
            #expect(NSSortDescriptor(keyPath: \SortKeyPathDraft.title, ascending: true).key == "title")
        }
    }

    /// Book (title, pages, isbn, author) → to-one Author (name), with the classes above.
    static func stack() throws -> CtxStack {
        let book = ModelFixtureKit.entity("Book")
        book.managedObjectClassName = String(reflecting: SortKeyPathBook.self)
        let author = ModelFixtureKit.entity("Author")
        author.managedObjectClassName = String(reflecting: SortKeyPathAuthor.self)
        let toAuthor = ModelFixtureKit.relationship("author", to: author, maxCount: 1)
        let books = ModelFixtureKit.relationship("books", to: book, maxCount: 0)
        ModelFixtureKit.inverse(toAuthor, books)
        book.properties = [
            ModelFixtureKit.attribute("title", .stringAttributeType, optional: false),
            ModelFixtureKit.attribute("pages", .integer64AttributeType),
            ModelFixtureKit.attribute("isbn", .stringAttributeType),
            toAuthor,
        ]
        author.properties = [ModelFixtureKit.attribute("name", .stringAttributeType, optional: false), books]
        let stack = try CtxStack(model: ModelFixtureKit.model([book, author]))
        try stack.context.performAndWait { () throws in
            let authors = ["Le Guin", "banks", "Ćosić"].map { ctxInsert("Author", into: stack.context, ["name": $0]) }
            let rows: [(String, Int, Int)] = [("file10", 300, 0), ("File2", 120, 1), ("file1", 500, 2), ("éa", 80, 0)]
            for (title, pages, author) in rows {
                ctxInsert("Book", into: stack.context, ["title": title, "pages": pages, "author": authors[author]])
            }
            try stack.context.save()
        }
        return try stack.reopened()
    }

    static func titles(_ stack: CtxStack, _ descriptors: [NSSortDescriptor]) throws -> [String] {
        try stack.context.performAndWait { () throws in
            let request = NSFetchRequest<SortKeyPathBook>(entityName: "Book")
            request.sortDescriptors = descriptors
            return try stack.context.fetch(request).map(\.title)
        }
    }

    @Test func keyPathsMapToTheKeysTheirAccessorsRead() throws {
        // The classes' entities are found among the models in use, so the stack must live.
        let stack = try Self.stack()
        defer { withExtendedLifetime(stack) {} }
        #expect(NSSortDescriptor(keyPath: \SortKeyPathBook.title, ascending: true).key == "title")
        #expect(NSSortDescriptor(keyPath: \SortKeyPathBook.pages, ascending: false).key == "pages")
        #expect(NSSortDescriptor(keyPath: \SortKeyPathBook.author?.name, ascending: true).key == "author.name")
        #expect(NSSortDescriptor(keyPath: \SortKeyPathBook.authorName, ascending: true).key == "author.name")
        let descriptor = NSSortDescriptor(keyPath: \SortKeyPathBook.title, ascending: true)
        #expect(descriptor.keyPath == \SortKeyPathBook.title)
        #expect(descriptor.description == "(title, ascending, compare:)")
        #expect(descriptor == NSSortDescriptor(key: "title", ascending: true))
        let reversed = try #require(descriptor.reversedSortDescriptor as? NSSortDescriptor)
        #expect(reversed.keyPath == \SortKeyPathBook.title)
        #expect(reversed.key == "title")
    }

    @Test func aKeyPathIsProbedOnce() throws {
        let stack = try Self.stack()
        defer { withExtendedLifetime(stack) {} }
        let first = NSSortDescriptor(keyPath: \SortKeyPathBook.isbn, ascending: true)
        #expect(first.key == "isbn")
        #expect(SortKeyPathBook.isbnReads.elements.count == 1)
        let second = NSSortDescriptor(keyPath: \SortKeyPathBook.isbn, ascending: false)
        #expect(second.key == "isbn")
        #expect(SortKeyPathBook.isbnReads.elements.count == 1, "the second descriptor uses the cached key")
    }

    @Test func keyPathDescriptorsSortSQLiteFetches() throws {
        let stack = try Self.stack()
        #expect(try Self.titles(stack, [NSSortDescriptor(keyPath: \SortKeyPathBook.pages, ascending: true)]) == ["éa", "File2", "file10", "file1"])
        let standard = NSSortDescriptor(keyPath: \SortKeyPathBook.title, ascending: true, comparator: { _, _ in .orderedSame })
        #expect(standard.key == "title")
        #expect(ctxError { _ = try Self.titles(stack, [standard]) }?.explanation.contains("comparator") == true)
        let byAuthor = [NSSortDescriptor(keyPath: \SortKeyPathBook.author?.name, ascending: false), NSSortDescriptor(keyPath: \SortKeyPathBook.pages, ascending: true)]
        let byAuthorKey = [NSSortDescriptor(key: "author.name", ascending: false), NSSortDescriptor(key: "pages", ascending: true)]
        #expect(try Self.titles(stack, byAuthor) == Self.titles(stack, byAuthorKey))
        #expect(try Self.titles(stack, byAuthor) == ["file1", "File2", "éa", "file10"], "Ćosić after banks: compare: orders by bytes")
    }

    @Test func keyPathsThatReadNoSinglePropertyHaveNoKey() throws {
        let stack = try Self.stack()
        let summary = NSSortDescriptor(keyPath: \SortKeyPathBook.summary, ascending: true)
        #expect(summary.key == nil)
        #expect(summary.description == "((null), ascending, compare:)")
        #expect(NSSortDescriptor(keyPath: \SortKeyPathBook.shelf, ascending: true).key == nil)
        #expect(NSSortDescriptor(keyPath: \SortKeyPathStray.name, ascending: true).key == nil, "no model names the class")
        #expect(summary != NSSortDescriptor(keyPath: \SortKeyPathBook.shelf, ascending: true))
        #expect(summary == NSSortDescriptor(keyPath: \SortKeyPathBook.summary, ascending: true))
        let error = ctxError { _ = try Self.titles(stack, [summary]) }
        #expect(error?.domain == NSCocoaErrorDomain, "a SQLite fetch needs a key")
        // In memory such a descriptor reads the Swift key path.
        let sorted = try stack.context.performAndWait { () throws in
            let books = try ctxFetch("Book", in: stack.context).compactMap { $0 as? SortKeyPathBook }
            return try SortOrdering.sorted(books, by: [summary]).map(\.title)
        }
        #expect(sorted == ["File2", "file1", "file10", "éa"], "compare: orders by bytes, in memory as in SQL")
    }

    @Test func keyPathsIntoOtherTypesSortInMemory() {
        struct Point {
            var x: Int
            var label: String?
        }
        let descriptor = NSSortDescriptor(keyPath: \Point.x, ascending: false)
        #expect(descriptor.key == nil)
        #expect(descriptor.keyPath == \Point.x)
        #expect(descriptor.compare(Point(x: 1), to: Point(x: 2)) == .orderedDescending)
        let labels = NSSortDescriptor(keyPath: \Point.label, ascending: true)
        #expect(labels.compare(Point(x: 0, label: nil), to: Point(x: 0, label: "a")) == .orderedAscending, "an empty optional is nil")
        #expect(labels.compare("not a point", to: Point(x: 0, label: "a")) == .orderedAscending, "another type reads as nil")
    }
}
