// A library of books and authors, as the SwiftData tutorials model it, as a program on Linux:
// unique authors (saving one again updates it), books with several authors, and a fetch of the
// authors with more than one book.
//
//     swift run SwiftDataLibrary [STORE-DIRECTORY]

import SwiftData

@Model final class Author {
    @Attribute(.unique) var name: String
    var books: [Book] = []

    init(name: String) { self.name = name }
}

@Model final class Book {
    var title: String
    var year: Int
    @Relationship(inverse: \Author.books) var authors: [Author] = []

    init(title: String, year: Int) {
        self.title = title
        self.year = year
    }
}

let directory = CommandLine.arguments.dropFirst().first.map { URL(fileURLWithPath: $0, isDirectory: true) }
    ?? FileManager.default.temporaryDirectory.appendingPathComponent("SwiftDataLibrary-\(UUID().uuidString)", isDirectory: true)
let container = try ModelContainer(for: Book.self, configurations: ModelConfiguration(url: directory.appendingPathComponent("Library.store")))
let context = ModelContext(container)

let pratchett = Author(name: "Terry Pratchett")
let gaiman = Author(name: "Neil Gaiman")
let goodOmens = Book(title: "Good Omens", year: 1990)
goodOmens.authors = [pratchett, gaiman]
let mort = Book(title: "Mort", year: 1987)
mort.authors = [pratchett]
let coraline = Book(title: "Coraline", year: 2002)
coraline.authors = [gaiman]
for book in [goodOmens, mort, coraline] { context.insert(book) }
try context.save()

let reading = ModelContext(container)
print("Books")
for book in try reading.fetch(FetchDescriptor<Book>(sortBy: [SortDescriptor(\.year)])) {
    print("  \(book.year) \(book.title) by \(book.authors.map(\.name).sorted().joined(separator: " & "))")
}
let prolific = FetchDescriptor<Author>(predicate: #Predicate { $0.books.count > 1 }, sortBy: [SortDescriptor(\.name)])
print("Authors of more than one book")
for author in try reading.fetch(prolific) {
    print("  \(author.name): \(author.books.count) books")
}
