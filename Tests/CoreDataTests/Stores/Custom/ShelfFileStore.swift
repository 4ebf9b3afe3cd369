import CoreData

/// A read-only atomic store over a text file of `|`-separated lines, written as a program would
/// write one: `author|1|Le Guin` and `book|earthsea|A Wizard of Earthsea|1968|1`. It serves
/// `BookshelfStore.model()`: `load()` makes a cache node per line, with a book's author as the
/// author's node and an author's books as a set of nodes.
final class ShelfFileStore: NSAtomicStore, @unchecked Sendable {
    static let storeType = NSPersistentStore.StoreType(rawValue: "ShelfFile")

    override var type: String {
        Self.storeType.rawValue
    }

    override func load() throws {
        guard let url, let text = try? String(contentsOf: url, encoding: .utf8) else { throw CocoaError(.fileReadNoSuchFile) }
        let model = persistentStoreCoordinator!.managedObjectModel
        var authors: [String: NSAtomicStoreCacheNode] = [:]
        var books: [(node: NSAtomicStoreCacheNode, author: String)] = []
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: "|").map(String.init)
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
        for (book, authorKey) in books {
            guard let author = authors[authorKey] else { throw CocoaError(.fileReadCorruptFile) }
            book.setValue(author, forKey: "author")
            let written = (author.value(forKey: "books") as? NSSet) ?? NSSet()
            author.setValue(written.adding(book) as NSSet, forKey: "books")
        }
        addCacheNodes(Set(authors.values).union(books.map(\.node)))
    }
}
