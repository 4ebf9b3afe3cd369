import CoreData

/// An atomic store over a text file of `|`-separated lines, written as a program would write
/// one: `author|1|Le Guin` and `book|earthsea|A Wizard of Earthsea|1968|1`. It serves
/// `BookshelfStore.model()`: `load()` makes a cache node per line, with a book's author as the
/// author's node and an author's books as a set of nodes; `save()` writes every node's line.
/// New objects are named by numbers for authors, strings for books.
final class ShelfFileStore: NSAtomicStore, @unchecked Sendable {
    static let storeType = NSPersistentStore.StoreType(rawValue: "ShelfFile")

    /// A file of two authors and their books, in the store's format.
    static let sampleShelf = """
        author|1|Le Guin
        author|2|Calvino
        book|earthsea|A Wizard of Earthsea|1968|1
        book|dispossessed|The Dispossessed|1974|1
        book|cities|Invisible Cities|1972|2
        """

    override var type: String {
        Self.storeType.rawValue
    }

    /// Reads the file; a store where there is none yet is empty.
    override func load() throws {
        guard let url else { throw CocoaError(.fileReadNoSuchFile) }
        let isNew = !FileManager.default.fileExists(atPath: url.path)
        guard let text = isNew ? "" : try? String(contentsOf: url, encoding: .utf8) else { throw CocoaError(.fileReadCorruptFile) }
        let model = persistentStoreCoordinator!.managedObjectModel
        var authors: [String: NSAtomicStoreCacheNode] = [:]
        var books: [(node: NSAtomicStoreCacheNode, author: String)] = []
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            switch fields.first {
            case "author" where fields.count == 3:
                let node = NSAtomicStoreCacheNode(objectID: objectID(for: model.entitiesByName["Author"]!, withReferenceObject: Int(fields[1])!))
                node.setValue(fields[2], forKey: "name")
                authors[fields[1]] = node
            case "book" where fields.count == 5:
                let node = NSAtomicStoreCacheNode(objectID: objectID(for: model.entitiesByName["Book"]!, withReferenceObject: fields[1]))
                node.setValue(fields[2], forKey: "title")
                node.setValue(NSNumber(value: Int(fields[3])!), forKey: "year")
                books.append((node, fields[4]))
            default:
                throw CocoaError(.fileReadCorruptFile, userInfo: [NSURLErrorKey: url])
            }
        }
        for (book, authorKey) in books where !authorKey.isEmpty {
            guard let author = authors[authorKey] else { throw CocoaError(.fileReadCorruptFile) }
            book.setValue(author, forKey: "author")
            let written = (author.value(forKey: "books") as? NSSet) ?? NSSet()
            author.setValue(written.adding(book) as NSSet, forKey: "books")
        }
        addCacheNodes(Set(authors.values).union(books.map(\.node)))
    }

    /// Authors get the next number after those the store holds or has handed out; books a UUID.
    override func newReferenceObject(for managedObject: NSManagedObject) -> Any {
        guard managedObject.entity.name == "Author" else { return UUID().uuidString }
        let numbers = cacheNodes().compactMap { referenceObject(for: $0.objectID) as? NSNumber }.map(\.intValue)
        lastAuthorNumber = max(lastAuthorNumber, numbers.max() ?? 0) + 1
        return lastAuthorNumber
    }

    private var lastAuthorNumber = 0

    /// Writes every node's line; a book titled "Unwritable" makes the write fail, as a full disk
    /// would, before the file is touched.
    override func save() throws {
        if cacheNodes().contains(where: { $0.value(forKey: "title") as? String == "Unwritable" }) {
            throw CocoaError(.fileWriteOutOfSpace)
        }
        let lines = cacheNodes().map { node -> String in
            let key = "\(referenceObject(for: node.objectID))"
            if node.objectID.entity.name == "Author" {
                return "author|\(key)|\(node.value(forKey: "name") as? String ?? "")"
            }
            let author = (node.value(forKey: "author") as? NSAtomicStoreCacheNode).map { "\(referenceObject(for: $0.objectID))" } ?? ""
            return "book|\(key)|\(node.value(forKey: "title") as? String ?? "")|\((node.value(forKey: "year") as? NSNumber)?.intValue ?? 0)|\(author)"
        }
        try Data(lines.sorted().joined(separator: "\n").utf8).write(to: url!, options: .atomic)
    }
}
