@testable import CoreData
import Testing

/// A store error met where the API cannot throw (a fault, a to-many relationship, a fetched
/// property) is reported, never read silently as "no data", while the fetch of the same rows
/// throws.
@Suite struct ReadErrorTests {
    /// A movie with two characters, saved; then a new coordinator's context, with the movie
    /// fetched as a fault.
    private static func savedMovie() throws -> (stack: CtxStack, reader: CtxStack, movie: NSManagedObject) {
        let stack = try CtxStack(model: MovieModel.make())
        try stack.context.performAndWait {
            let movie = ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            ctxInsert("Character", into: stack.context, ["name": "Ripley", "movie": movie])
            ctxInsert("Character", into: stack.context, ["name": "Ash", "movie": movie])
            try stack.context.save()
        }
        let reader = try stack.reopened()
        let movie = try reader.context.performAndWait { try #require(try ctxFetch("Movie", in: reader.context).first) }
        return (stack, reader, movie)
    }

    /// Makes a table unreadable behind the stores' backs, as a damaged page does.
    private static func breakTable(_ table: String, of stack: CtxStack) throws {
        let connection = try SQLiteConnection(path: try #require(stack.storeURL).path, readOnly: false, create: false)
        defer { connection.close() }
        try connection.execute("ALTER TABLE \(table) RENAME TO \(table)_UNREADABLE")
    }

    @Test func aToManyRelationshipThatCannotBeReadIsReportedAndItsFetchThrows() throws {
        let (stack, reader, movie) = try Self.savedMovie()
        try Self.breakTable("ZCHARACTER", of: stack)
        reader.context.performAndWait {
            #expect(ctxObjects(movie.value(forKey: "characters")).isEmpty)
            #expect(ctxError { _ = try ctxFetch("Character", in: reader.context) } != nil, "fetching the same rows throws")
        }
        let reported = ReadErrorLog.shared.recentMessages.filter { $0.contains("characters of \(movie.objectID)") }
        #expect(reported.count == 1)
        #expect(reported.first?.contains("ZCHARACTER") == true, "the message says what failed: \(reported)")
    }

    @Test func aFaultWhoseRowCannotBeReadIsReported() throws {
        let (stack, reader, _) = try Self.savedMovie()
        let movie = try reader.context.performAndWait { () throws -> NSManagedObject in
            let request = NSFetchRequest<NSManagedObject>(entityName: "Movie")
            request.includesPropertyValues = false   // the fault reads its row when it fires
            return try #require(try reader.context.fetch(request).first)
        }
        reader.context.performAndWait { reader.context.refresh(movie, mergeChanges: false) }
        try Self.breakTable("ZMOVIE", of: stack)
        reader.context.performAndWait {
            #expect(movie.isFault)
            #expect(movie.value(forKey: "title") == nil)
        }
        #expect(ReadErrorLog.shared.recentMessages.contains { $0.contains("values of \(movie.objectID)") })
    }
}
