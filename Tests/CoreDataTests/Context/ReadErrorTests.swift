@testable import CoreData
@testable import CoreDataCrashWriter
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
        try breakTable(table, inStoreAt: try #require(stack.storeURL))
    }

    static func breakTable(_ table: String, inStoreAt url: URL) throws {
        try renameTable(table, to: table + "_UNREADABLE", inStoreAt: url)
    }

    /// Undoes `breakTable(_:inStoreAt:)`.
    static func repairTable(_ table: String, inStoreAt url: URL) throws {
        try renameTable(table + "_UNREADABLE", to: table, inStoreAt: url)
    }

    private static func renameTable(_ table: String, to newName: String, inStoreAt url: URL) throws {
        let connection = try SQLiteConnection(path: url.path, readOnly: false, create: false)
        defer { connection.close() }
        try connection.execute("ALTER TABLE \(table) RENAME TO \(newName)")
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

    /// `COREDATA_TRAP_ON_READ_ERRORS=1` stops the program at a read error, where Apple's raises;
    /// without it the program goes on with the relationship read as empty. A crash writer in a
    /// child process reads every batch's items after its item table broke.
    @Test(arguments: [true, false])
    func theTrapSwitchStopsTheProcessAtAReadError(trapping: Bool) throws {
        let directory = try SQLiteScratchDirectory("read-error-trap")
        defer { directory.remove() }
        let url = directory.file("Batches.sqlite")
        let saver = try CrashWriterProcess(store: url, writer: "A", first: 1, mode: .saves(2), errorLog: directory.file("saver.log"))
        saver.finish()
        try #require(saver.savedNumbers == [1, 2], "\(saver.failure ?? saver.errors)")

        // The backtracer would only slow the trap down.
        let environment = trapping ? ["COREDATA_TRAP_ON_READ_ERRORS": "1", "SWIFT_BACKTRACE": "enable=no"] : [:]
        let reader = try CrashWriterProcess(store: url, writer: "A", first: 3, mode: .commands, errorLog: directory.file("reader.log"), environment: environment)
        try #require(reader.nextLine() == .ready, "\(reader.failure ?? reader.errors)")
        let plan = CrashPlan(writer: "A")
        #expect(reader.request(.items) == .count(plan.itemCount(batch: 1) + plan.itemCount(batch: 2)), "read before the table breaks")
        try Self.breakTable("ZITEM", inStoreAt: url)
        let answer = reader.request(.items)
        reader.finish()

        if trapping {
            #expect(answer == nil, "the reader stopped before answering")
            #expect(reader.process.terminationReason == .uncaughtSignal)
        } else {
            #expect(answer == .count(0))
            #expect(reader.process.terminationReason == .exit && reader.process.terminationStatus == 0)
        }
        #expect(reader.errors.contains("could not read the items of"), "the error is reported: \(reader.errors)")
    }
}
