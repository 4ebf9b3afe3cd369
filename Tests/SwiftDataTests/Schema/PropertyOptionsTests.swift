import CoreData
@testable import SwiftData
import Testing

@Suite struct PropertyOptionsTests {
    let store = TemporaryStore()

    init() {
        ValueTransformer.setValueTransformer(TintTransformer(), forName: TintTransformer.name)
    }

    private func makeContainer() throws -> ModelContainer {
        try ModelContainer(for: Author.self, Book.self, configurations: ModelConfiguration(url: store.url))
    }

    private func entity(_ name: String, in container: ModelContainer) throws -> NSEntityDescription {
        try #require(container.coordinator.managedObjectModel.entitiesByName[name])
    }

    @Test func attributeOptionsBecomeTheCoreDataPropertiesSettings() throws {
        let container = try makeContainer()
        let book = try entity("Book", in: container)
        let attributes = book.attributesByName
        #expect(attributes["cover"]?.allowsExternalBinaryDataStorage == true)
        #expect(attributes["tint"]?.attributeType == .transformableAttributeType)
        #expect(attributes["tint"]?.valueTransformerName == "TintTransformer")
        #expect(attributes["isbn"]?.preservesValueInHistoryOnDeletion == true)
        #expect(attributes["isbn"]?.renamingIdentifier == "isbnNumber")
        #expect(attributes["title"]?.renamingIdentifier == "title", "a property is renamed from itself")
        #expect(attributes["summary"]?.versionHashModifier == "v2")
        #expect(attributes["isOpen"]?.isTransient == true)
        #expect(attributes["readCount"] == nil, "@Transient leaves the property out")
        #expect(book.uniquenessConstraints.map { $0.compactMap { $0 as? String } } == [["title", "edition"]])
        #expect(book.indexes.map { $0.elements.compactMap { $0.property?.name } } == [["title"], ["published", "title"]])
        #expect(try entity("Author", in: container).uniquenessConstraints.map { $0.compactMap { $0 as? String } } == [["name"]])
        #expect(book.renamingIdentifier == "Book")
        #expect(book.managedObjectClassName == "Book")
    }

    @Test func relationshipOptionsBecomeTheCoreDataRelationshipsSettings() throws {
        let container = try makeContainer()
        let book = try entity("Book", in: container).relationshipsByName
        let author = try entity("Author", in: container).relationshipsByName
        #expect(book["authors"]?.maxCount == 3)
        #expect(book["authors"]?.inverseRelationship?.name == "books", "the only relationships between the two pair up")
        #expect(book["shelf"]?.deleteRule == .noActionDeleteRule)
        #expect(book["shelf"]?.inverseRelationship?.name == "books")
        #expect(author["awards"]?.deleteRule == .denyDeleteRule)
        #expect(author["books"]?.deleteRule == .nullifyDeleteRule, "nullify by default")
        #expect(author["awards"]?.isOptional == false, "an array of models is a non-optional to-many")
        #expect(author["awards"]?.isOrdered == false)
    }

    @Test func aUniqueValueSavedAgainUpdatesTheStoredModel() throws {
        let container = try makeContainer()
        let context = ModelContext(container)
        context.insert(Author(name: "Le Guin", born: nil))
        try context.save()
        let again = ModelContext(container)
        again.insert(Author(name: "Le Guin", born: 1929))
        try again.save()
        let authors = try ModelContext(container).fetch(FetchDescriptor<Author>())
        #expect(authors.count == 1)
        #expect(authors.first?.born == 1929)
    }

    @Test func transformedExternalAndEphemeralValues() throws {
        let container = try makeContainer()
        let context = ModelContext(container)
        let book = Book(title: "Earthsea")
        book.tint = Tint(hex: "#336699")
        book.cover = Data(repeating: 7, count: 200_000)
        book.isOpen = true
        book.readCount = 3
        context.insert(book)
        try context.save()
        let read = try #require(try ModelContext(container).fetch(FetchDescriptor<Book>()).first)
        #expect(read.tint?.hex == "#336699")
        #expect(read.cover == Data(repeating: 7, count: 200_000))
        #expect(read.isOpen == false, "an ephemeral value is not saved")
        #expect(read.readCount == 0)
    }

    @Test func aDenyRuleStopsTheDeletion() throws {
        let context = ModelContext(try makeContainer())
        let author = Author(name: "Tolkien")
        context.insert(author)
        author.awards = [Award(title: "Hugo")]
        try context.save()
        context.delete(author)
        #expect(throws: NSError.self) { try context.save() }
    }

    @Test func tooManyModelsInARelationshipFailValidation() throws {
        let context = ModelContext(try makeContainer())
        let book = Book(title: "Anthology")
        context.insert(book)
        book.authors = (1...4).map { Author(name: "Author \($0)") }
        #expect(throws: NSError.self) { try context.save() }
    }

    @Test func aUniqueGroupOfValuesIsUnique() throws {
        let container = try makeContainer()
        let context = ModelContext(container)
        context.insert(Book(title: "Dune", edition: 1))
        context.insert(Book(title: "Dune", edition: 2))
        try context.save()
        let again = ModelContext(container)
        again.insert(Book(title: "Dune", edition: 2))
        try again.save()
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Book>()) == 2)
    }
}
