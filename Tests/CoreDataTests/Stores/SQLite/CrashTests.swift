@testable import CoreData
@testable import CoreDataCrashWriter
import Testing

/// A writer in a child process (`CoreDataCrashWriter`) saving batches into a store — inserts,
/// updates, cascading deletes, join-table rows, inline and external binary data — killed with
/// SIGKILL at random moments, its start and the opening of the store included. After each kill
/// the store must pass SQLite's integrity check and the store's invariants, hold every save the
/// writer acknowledged and nothing of a save it did not finish, and take a new save.
///
/// `swift test` runs a few rounds; `COREDATA_CRASH_ROUNDS=1000 swift test --filter CrashTests`
/// runs more, and `COREDATA_CRASH_SEED` repeats the kill moments of a printed seed.
@Suite struct CrashTests {
    private static let environment = ProcessInfo.processInfo.environment
    private static let rounds = environment["COREDATA_CRASH_ROUNDS"].flatMap { Int($0) } ?? 12
    private static let seed = environment["COREDATA_CRASH_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: 1...UInt64(UInt32.max))

    @Test func aKilledWriterLosesNoAcknowledgedSaveAndLeavesASoundStore() throws {
        print("CrashTests: \(Self.rounds) rounds, seed \(Self.seed) (COREDATA_CRASH_SEED=\(Self.seed) repeats them)")
        var random = SeededGenerator(seed: Self.seed)
        let directory = try SQLiteScratchDirectory("crash")
        defer { directory.remove() }
        let url = directory.file("Crash.sqlite")
        var committed = 0
        var acknowledgedSaves = 0
        var orphanedFiles: [String] = []
        for round in 1...Self.rounds {
            let context = "round \(round), seed \(Self.seed)"
            let writer = try CrashWriterProcess(store: url, writer: "A", first: committed + 1, mode: .forever, errorLog: directory.file("writer.log"))
            // One round in eight kills the writer while it starts and opens the store.
            if random.next() % 8 != 0 {
                #expect(writer.nextLine() == .ready, "\(context): \(writer.failure ?? writer.errors)")
            }
            Thread.sleep(forTimeInterval: Double.random(in: 0..<0.1, using: &random))
            writer.kill()
            writer.finish()
            #expect(writer.process.terminationStatus == SIGKILL, "\(context): \(writer.failure ?? writer.errors)")
            let acknowledged = writer.savedNumbers
            #expect(acknowledged == Array((committed + 1)..<(committed + 1 + acknowledged.count)), "\(context)")
            acknowledgedSaves += acknowledged.count
            committed = try verify(url, acknowledging: acknowledged.last ?? committed, context)
            let survivor = try CrashWriter(storeURL: url, writer: "A")
            try survivor.save(committed + 1)
            survivor.close()
            committed += 1
            orphanedFiles = try CrashStoreInvariants.check(url, holding: CrashStoreState(saves: ["A": committed]))
        }
        try verify(url, acknowledging: committed, "after the last round, seed \(Self.seed)")
        print("CrashTests: \(acknowledgedSaves) saves acknowledged by killed writers; \(orphanedFiles.count) external files no row refers to")
    }

    /// A writer killed while it starts, mostly while it creates the store, leaves a file that opens
    /// as a store, empty or with the saves the writer acknowledged.
    @Test func aWriterKilledWhileItCreatesTheStoreLeavesOneThatOpens() throws {
        var random = SeededGenerator(seed: Self.seed)
        for round in 1...8 {
            let directory = try SQLiteScratchDirectory("crash-creation")
            defer { directory.remove() }
            let url = directory.file("Crash.sqlite")
            let writer = try CrashWriterProcess(store: url, writer: "A", first: 1, mode: .forever, errorLog: directory.file("writer.log"))
            Thread.sleep(forTimeInterval: Double.random(in: 0..<0.1, using: &random))
            writer.kill()
            writer.finish()
            let context = "round \(round), seed \(Self.seed)"
            let saves = try verify(url, acknowledging: writer.savedNumbers.last ?? 0, context)
            try CrashStoreInvariants.check(url, holding: CrashStoreState(saves: ["A": saves]))
        }
    }

    /// What a process killed while it creates a store leaves once SQLite has rolled back the
    /// unfinished creation: a database without a table. It holds nothing, so it becomes a new
    /// store, as an empty file does.
    @Test func aDatabaseWithoutATableBecomesANewStore() throws {
        let directory = try SQLiteScratchDirectory("crash-no-table")
        defer { directory.remove() }
        let url = directory.file("Crash.sqlite")
        let connection = try SQLiteConnection(path: url.path, readOnly: false, create: true)
        try connection.execute("PRAGMA journal_mode = WAL")
        connection.close()
        #expect(StoreFileProbe.size(url) > 0)
        let writer = try CrashWriter(storeURL: url, writer: "A")
        try writer.save(1)
        writer.close()
        try verify(url, acknowledging: 1, "a database without a table")
    }

    /// Reads the store through the public API and checks that it holds the acknowledged saves,
    /// perhaps the one in progress at the kill, and each of them whole; returns the number of saves it holds.
    @discardableResult
    private func verify(_ url: URL, acknowledging acknowledged: Int, _ context: String) throws -> Int {
        let stack = try SQLiteTestStack(model: CrashModel.make(), url: url)
        defer { stack.close() }
        let state = try stack.context.performAndWait { try CrashStoreState(reading: stack.context) }
        let saves = state.lastSave(of: "A")
        #expect(saves == acknowledged || saves == acknowledged + 1, "\(context): the store holds \(saves) saves, \(acknowledged) were acknowledged")
        let expected = CrashStoreState(saves: ["A": saves])
        #expect(state.differences(from: expected) == [], "\(context): the store after \(saves) saves")
        return saves
    }
}
