import Foundation
import SwiftData

// The models of a library, as the SwiftData tutorials write them, with every option of
// `@Attribute` and `@Relationship` on some property.

/// A colour a value transformer stores, as a program's own class.
final class Tint: NSObject {
    let hex: String

    init(hex: String) {
        self.hex = hex
    }
}

/// Stores a `Tint` as the UTF-8 bytes of its hex string.
final class TintTransformer: ValueTransformer {
    static let name = NSValueTransformerName("TintTransformer")

    override class func allowsReverseTransformation() -> Bool { true }

    override func transformedValue(_ value: Any?) -> Any? {
        (value as? Tint).map { Data($0.hex.utf8) }
    }

    override func reverseTransformedValue(_ value: Any?) -> Any? {
        (value as? Data).map { Tint(hex: String(decoding: $0, as: UTF8.self)) }
    }
}

@Model final class Author {
    @Attribute(.unique) var name: String
    var born: Int?
    @Relationship(deleteRule: .deny) var awards: [Award] = []
    var books: [Book] = []

    init(name: String, born: Int? = nil) {
        self.name = name
        self.born = born
    }
}

@Model final class Book {
    #Unique<Book>([\.title, \.edition])
    #Index<Book>([\.title], [\.published, \.title])

    var title: String
    var edition: Int = 1
    var published: Date = Date(timeIntervalSinceReferenceDate: 0)
    @Attribute(.externalStorage) var cover: Data?
    @Attribute(.transformable(by: TintTransformer.name.rawValue)) var tint: Tint?
    @Attribute(.preserveValueOnDeletion, originalName: "isbnNumber") var isbn: String = ""
    @Attribute(.spotlight, hashModifier: "v2") var summary: String = ""
    @Attribute(.ephemeral) var isOpen: Bool = false
    @Relationship(minimumModelCount: 0, maximumModelCount: 3) var authors: [Author] = []
    @Relationship(deleteRule: .noAction) var shelf: Shelf?
    @Transient var readCount = 0

    init(title: String, edition: Int = 1) {
        self.title = title
        self.edition = edition
    }
}

@Model final class Shelf {
    var label: String
    var books: [Book] = []

    init(label: String) { self.label = label }
}

@Model final class Award {
    var title: String
    var author: Author?

    init(title: String) { self.title = title }
}
