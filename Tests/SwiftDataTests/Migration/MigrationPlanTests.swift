import CoreData
import Foundation
import SwiftData
import Testing

// Three releases of a library app's schema, as an app declares them: each version has its own
// model classes of the same names.
enum Library {
    enum V1: VersionedSchema {
        static let versionIdentifier = Schema.Version(1, 0, 0)
        static var models: [any PersistentModel.Type] { [Book.self, Author.self] }

        @Model final class Book {
            var title: String
            var published: Int
            var author: Author?

            init(title: String, published: Int, author: Author? = nil) {
                self.title = title
                self.published = published
                self.author = author
            }
        }

        @Model final class Author {
            var name: String
            @Relationship(inverse: \Book.author) var books: [Book] = []

            init(name: String) {
                self.name = name
            }
        }
    }

    // Lightweight from V1: `published` is renamed `year`, and `genre` is new with a default.
    enum V2: VersionedSchema {
        static let versionIdentifier = Schema.Version(2, 0, 0)
        static var models: [any PersistentModel.Type] { [Book.self, Author.self] }

        @Model final class Book {
            var title: String
            @Attribute(originalName: "published") var year: Int
            var genre: String = "Unsorted"
            var author: Author?

            init(title: String, year: Int, author: Author? = nil) {
                self.title = title
                self.year = year
                self.author = author
            }
        }

        @Model final class Author {
            var name: String
            @Relationship(inverse: \Book.author) var books: [Book] = []

            init(name: String) {
                self.name = name
            }
        }
    }

    // Custom from V2: titles become unique, so duplicates must go first; `bookCount` is new and
    // is filled from the authors' books.
    enum V3: VersionedSchema {
        static let versionIdentifier = Schema.Version(3, 1, 2)
        static var models: [any PersistentModel.Type] { [Book.self, Author.self] }

        @Model final class Book {
            @Attribute(.unique) var title: String
            var year: Int
            var genre: String = "Unsorted"
            var author: Author?

            init(title: String, year: Int, author: Author? = nil) {
                self.title = title
                self.year = year
                self.author = author
            }
        }

        @Model final class Author {
            var name: String
            var bookCount: Int = 0
            @Relationship(inverse: \Book.author) var books: [Book] = []

            init(name: String) {
                self.name = name
            }
        }
    }

    // A release that never shipped with the plan: its store has nothing to migrate from.
    enum Unreleased: VersionedSchema {
        static let versionIdentifier = Schema.Version(0, 9, 0)
        static var models: [any PersistentModel.Type] { [Book.self] }

        @Model final class Book {
            var isbn: String

            init(isbn: String) {
                self.isbn = isbn
            }
        }
    }

    enum Plan: SchemaMigrationPlan {
        static var schemas: [any VersionedSchema.Type] { [V1.self, V2.self, V3.self] }
        static var stages: [MigrationStage] { [v1ToV2, v2ToV3] }

        static let v1ToV2 = MigrationStage.lightweight(fromVersion: V1.self, toVersion: V2.self)

        static let v2ToV3 = MigrationStage.custom(
            fromVersion: V2.self, toVersion: V3.self,
            willMigrate: { context in
                // The store is still at V2: its models are V2's, and their titles may repeat.
                var seen = Set<String>()
                for book in try context.fetch(FetchDescriptor<V2.Book>(sortBy: [SortDescriptor(\.year)])) where !seen.insert(book.title).inserted {
                    context.delete(book)
                }
                try context.save()
            },
            didMigrate: { context in
                // The store is at V3: the new attribute is there, with its default.
                for author in try context.fetch(FetchDescriptor<V3.Author>()) {
                    author.bookCount = author.books.count
                }
                try context.save()
            })
    }
}

@Suite struct MigrationPlanTests {
    let store = TemporaryStore()

    private func container(_ version: any VersionedSchema.Type, plan: (any SchemaMigrationPlan.Type)? = nil) throws -> ModelContainer {
        try ModelContainer(for: Schema(versionedSchema: version), migrationPlan: plan, configurations: ModelConfiguration(url: store.url))
    }

    private func writeV1Library() throws {
        let context = ModelContext(try container(Library.V1.self))
        let austen = Library.V1.Author(name: "Austen")
        let tolkien = Library.V1.Author(name: "Tolkien")
        context.insert(austen)
        context.insert(tolkien)
        context.insert(Library.V1.Book(title: "Emma", published: 1815, author: austen))
        context.insert(Library.V1.Book(title: "Persuasion", published: 1817, author: austen))
        context.insert(Library.V1.Book(title: "Emma", published: 1816, author: austen))
        context.insert(Library.V1.Book(title: "The Hobbit", published: 1937, author: tolkien))
        try context.save()
    }

    private func storeVersionIdentifiers() throws -> [String] {
        let metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: store.url, options: nil)
        return metadata[NSStoreModelVersionIdentifiersKey] as? [String] ?? []
    }

    private func expectMigratedLibrary(in container: ModelContainer) throws {
        let context = ModelContext(container)
        let books = try context.fetch(FetchDescriptor<Library.V3.Book>(sortBy: [SortDescriptor(\.title)]))
        #expect(books.map(\.title) == ["Emma", "Persuasion", "The Hobbit"])
        #expect(books.map(\.year) == [1815, 1817, 1937])
        #expect(books.allSatisfy { $0.genre == "Unsorted" })
        let authors = try context.fetch(FetchDescriptor<Library.V3.Author>(sortBy: [SortDescriptor(\.name)]))
        #expect(authors.map(\.name) == ["Austen", "Tolkien"])
        #expect(authors.map(\.bookCount) == [2, 1])
    }

    @Test func aV1StoreMigratesThroughBothStages() throws {
        try writeV1Library()
        let migrated = try container(Library.V3.self, plan: Library.Plan.self)
        try expectMigratedLibrary(in: migrated)
        #expect(try storeVersionIdentifiers() == ["3.1.2"])
    }

    @Test func aV2StoreMigratesThroughTheRemainingStage() throws {
        do {
            let context = ModelContext(try container(Library.V2.self))
            let austen = Library.V2.Author(name: "Austen")
            let tolkien = Library.V2.Author(name: "Tolkien")
            for (title, year, author) in [("Emma", 1815, austen), ("Emma", 1816, austen), ("Persuasion", 1817, austen), ("The Hobbit", 1937, tolkien)] {
                context.insert(Library.V2.Book(title: title, year: year, author: author))
            }
            try context.save()
        }
        #expect(try storeVersionIdentifiers() == ["2.0.0"])
        try expectMigratedLibrary(in: try container(Library.V3.self, plan: Library.Plan.self))
    }

    @Test func aStoreAlreadyAtTheLatestVersionOpensAsItIs() throws {
        do {
            let context = ModelContext(try container(Library.V3.self))
            let author = Library.V3.Author(name: "Le Guin")
            context.insert(author)
            // Not what the custom stage would compute: the stage must not run on this store.
            author.bookCount = 7
            context.insert(Library.V3.Book(title: "Earthsea", year: 1968, author: author))
            try context.save()
        }
        let reopened = ModelContext(try container(Library.V3.self, plan: Library.Plan.self))
        #expect(try reopened.fetch(FetchDescriptor<Library.V3.Author>()).map(\.bookCount) == [7])
        #expect(try reopened.fetch(FetchDescriptor<Library.V3.Book>()).map(\.title) == ["Earthsea"])
    }

    @Test func aStoreOfAVersionThePlanDoesNotHaveFailsAndStaysAsItWas() throws {
        do {
            let context = ModelContext(try container(Library.Unreleased.self))
            context.insert(Library.Unreleased.Book(isbn: "978-0"))
            try context.save()
        }
        let before = try Data(contentsOf: store.url)
        #expect {
            _ = try container(Library.V3.self, plan: Library.Plan.self)
        } throws: { error in
            guard let error = error as? SwiftDataError, error == .loadIssueModelContainer else { return false }
            return "\(error)".contains("0.9.0")
        }
        #expect(try Data(contentsOf: store.url) == before)
        #expect(try storeVersionIdentifiers() == ["0.9.0"])
    }

    @Test func aVersionedSchemaGivesTheStoreItsVersionIdentifier() throws {
        let schema = Schema(versionedSchema: Library.V3.self)
        #expect(schema.version == Schema.Version(3, 1, 2))
        _ = try container(Library.V3.self)
        #expect(try storeVersionIdentifiers() == ["3.1.2"])
    }

    @Test func withoutTheWillMigrateStepTheDuplicatesStopTheMigration() throws {
        try writeV1Library()
        #expect(throws: SwiftDataError.loadIssueModelContainer) {
            _ = try container(Library.V3.self, plan: PlanWithoutDeduplication.self)
        }
        // Each stage migrates the store in place: the lightweight stage before the failing one stays done.
        #expect(try storeVersionIdentifiers() == ["2.0.0"])
    }

    private enum PlanWithoutDeduplication: SchemaMigrationPlan {
        static var schemas: [any VersionedSchema.Type] { Library.Plan.schemas }
        static var stages: [MigrationStage] {
            [Library.Plan.v1ToV2, .custom(fromVersion: Library.V2.self, toVersion: Library.V3.self, willMigrate: nil, didMigrate: nil)]
        }
    }
}
