import CoreData

/// The model whose version hashes `VersionHashTests` checks against test vectors computed outside
/// the library (Python's hashlib, following spec/store-format.md §3.1–3.3 byte by byte).
///
/// ```
/// Media (abstract)          Zeta: Integer 32 (required)      createdAt: Date (optional)
/// └─ Book                   title: String (required, versionHashModifier "v2")
///    │                      isbn: String (optional, preservesValueInHistoryOnDeletion)
///    │                      notes: String (optional, TRANSIENT: not hashed)
///    │                      similar: fetched property (not hashed)
///    │                      author: to-one Author, required, minCount 1, inverse Author.books
///    │                      shelves: ordered to-many Shelf, inverse Shelf.books
///    │                      entity versionHashModifier "bookmod"
///    │                      uniquenessConstraints [["title", "isbn"], ["isbn"]]
///    └─ Comic               (declares nothing)
/// Author                    name: String (required)
///                           books: to-many Book (unbounded), inverse Book.author
///                           favorite: to-one Shelf, no inverse
///                           awards: to-many Shelf, maxCount Int.max, minCount 2, no inverse
/// Shelf                     label: String (optional)
///                           books: to-many Book, maxCount 10000, minCount 1, inverse Book.shelves
/// ```
enum HashVectorModel {
    static func make() -> NSManagedObjectModel {
        let media = entity("Media", abstract: true)
        let book = entity("Book")
        let comic = entity("Comic")
        let author = entity("Author")
        let shelf = entity("Shelf")

        media.properties = [
            attribute("Zeta", .integer32AttributeType, optional: false),
            attribute("createdAt", .dateAttributeType, optional: true),
        ]

        let title = attribute("title", .stringAttributeType, optional: false)
        title.versionHashModifier = "v2"
        let isbn = attribute("isbn", .stringAttributeType, optional: true)
        isbn.preservesValueInHistoryOnDeletion = true
        let notes = attribute("notes", .stringAttributeType, optional: true)
        notes.isTransient = true
        let similar = NSFetchedPropertyDescription()
        similar.name = "similar"
        let similarRequest = NSFetchRequest<NSFetchRequestResult>(entityName: "Book")
        similar.fetchRequest = similarRequest

        let bookAuthor = relationship("author", to: author, maxCount: 1, minCount: 1, optional: false)
        let bookShelves = relationship("shelves", to: shelf, maxCount: 0, minCount: 0, optional: true)
        bookShelves.isOrdered = true
        let authorBooks = relationship("books", to: book, maxCount: 0, minCount: 0, optional: true)
        let authorFavorite = relationship("favorite", to: shelf, maxCount: 1, minCount: 0, optional: true)
        let authorAwards = relationship("awards", to: shelf, maxCount: Int.max, minCount: 2, optional: true)
        let shelfBooks = relationship("books", to: book, maxCount: 10000, minCount: 1, optional: true)
        bookAuthor.inverseRelationship = authorBooks
        authorBooks.inverseRelationship = bookAuthor
        bookShelves.inverseRelationship = shelfBooks
        shelfBooks.inverseRelationship = bookShelves

        book.properties = [title, isbn, notes, similar, bookAuthor, bookShelves]
        book.versionHashModifier = "bookmod"
        book.uniquenessConstraints = [["title", "isbn"], ["isbn"]]
        author.properties = [attribute("name", .stringAttributeType, optional: false), authorBooks, authorFavorite, authorAwards]
        shelf.properties = [attribute("label", .stringAttributeType, optional: true), shelfBooks]

        media.subentities = [book]
        book.subentities = [comic]

        let model = NSManagedObjectModel()
        model.entities = [media, book, comic, author, shelf]
        return model
    }

    /// Expected entity hashes (hex SHA-256), computed independently of the library.
    static let expectedEntityHashes: [String: String] = [
        "Media": "c725a02810187a23cb4d484cd126569687c201a05dd1edd957783ad15511d12a",
        "Book": "49da453fd4dcc11ee87b62b1dc5c5a7f1093cfab91a416a80ad1da3e5d091e51",
        "Comic": "fbff96fee6f98e747b11c526d8a556714eba4dc5fb04325cd6469743f2d092fe",
        "Author": "334e1dafa17aa732c33a71789c79372f18981e8094a8c7aba2c5af4333c87fa2",
        "Shelf": "c10e71802ee156673e5dee8fede6a08b13a2b78443508ac8c81da5d396888768",
    ]

    /// base64(SHA-512(concat over names in code-point order: utf8(name) || hash)).
    static let expectedDigest = "sQnbCsWMH1uR3L08WMTVYP2mTbWG35znHVyCnN/aIGfjVoZb+mSamG4K7uTmKjFE6yhnl0ebcv3motkZvwopXw=="
    /// base64(SHA-256(concat over names in code-point order: hash)).
    static let expectedChecksum = "5oKtMYUhYMKmyS1F/5hXvxFt01gajiLGrgbeOnz/DhI="

    static func entity(_ name: String, abstract: Bool = false) -> NSEntityDescription {
        let entity = NSEntityDescription()
        entity.name = name
        entity.isAbstract = abstract
        return entity
    }

    static func attribute(_ name: String, _ type: NSAttributeType, optional: Bool) -> NSAttributeDescription {
        let attribute = NSAttributeDescription()
        attribute.name = name
        attribute.attributeType = type
        attribute.isOptional = optional
        return attribute
    }

    static func relationship(_ name: String, to destination: NSEntityDescription, maxCount: Int, minCount: Int, optional: Bool) -> NSRelationshipDescription {
        let relationship = NSRelationshipDescription()
        relationship.name = name
        relationship.destinationEntity = destination
        relationship.maxCount = maxCount
        relationship.minCount = minCount
        relationship.isOptional = optional
        return relationship
    }
}

extension Data {
    /// Lower-case hex, for comparing with the literal test vectors.
    var hashTestHex: String {
        map { byte in
            let digits = Array("0123456789abcdef")
            return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0f)]])
        }.joined()
    }
}
