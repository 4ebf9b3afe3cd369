@testable import CoreData
@testable import CoreDataCrashWriter
import Testing

/// Several processes on one store file, as an app and its worker or two server workers have:
/// two crash writers (`CoreDataCrashWriter`) in child processes and this process's own
/// coordinator. Each must read the latest committed data — a connection left on an old snapshot
/// would hide the others' saves and fail its next save with `SQLITE_BUSY_SNAPSHOT` (517) — and
/// no save may fail because another process is writing.
@Suite struct MultiProcessTests {
    private static func batchCount(_ stack: SQLiteTestStack) throws -> Int {
        try stack.context.performAndWait { try stack.context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Batch")) }
    }

    private static func state(_ stack: SQLiteTestStack) throws -> CrashStoreState {
        try stack.context.performAndWait { try CrashStoreState(reading: stack.context) }
    }

    @Test func eachProcessSeesTheOthersSavesAndSavesAfterThem() throws {
        let directory = try SQLiteScratchDirectory("two-processes")
        defer { directory.remove() }
        let url = directory.file("Shared.sqlite")
        let reader = try SQLiteTestStack(model: CrashModel.make(), url: url)
        defer { reader.close() }
        let writers = try ["A", "B"].map { name in
            try CrashWriterProcess(store: url, writer: name, first: 1, mode: .commands, errorLog: directory.file("\(name).log"))
        }
        for writer in writers {
            #expect(writer.nextLine() == .ready, "\(writer.failure ?? writer.errors)")
        }
        var saves = ["A": 0, "B": 0]
        for _ in 1...3 {
            for (name, writer) in zip(["A", "B"], writers) {
                saves[name, default: 0] += 1
                let answer = writer.request(.save)
                try #require(answer == .saved(saves[name] ?? 0), "writer \(name): \(writer.failure ?? writer.errors)")
                let batches = CrashStoreState(saves: saves).batches.count
                for (otherName, other) in zip(["A", "B"], writers) {
                    #expect(other.request(.count) == .count(batches), "writer \(otherName) after save \(saves[name] ?? 0) of \(name)")
                }
                #expect(try Self.batchCount(reader) == batches, "this process after save \(saves[name] ?? 0) of \(name)")
            }
        }
        for writer in writers {
            writer.finish()
            #expect(writer.process.terminationStatus == 0, "\(writer.failure ?? writer.errors)")
        }
        let state = try Self.state(reader)
        #expect(state.differences(from: CrashStoreState(saves: saves)) == [])
        try CrashStoreInvariants.check(url, holding: state)
    }

    @Test func twoWritersSavingAtOnceLoseNothingAndNeverFailBusy() throws {
        let directory = try SQLiteScratchDirectory("concurrent-processes")
        defer { directory.remove() }
        let url = directory.file("Shared.sqlite")
        let reader = try SQLiteTestStack(model: CrashModel.make(), url: url)
        defer { reader.close() }
        let savesEach = 25
        let writers = try ["A", "B"].map { name in
            try CrashWriterProcess(store: url, writer: name, first: 1, mode: .saves(savesEach), errorLog: directory.file("\(name).log"))
        }
        // Each save adds a batch and removes one only once a writer has `window` of them, so the
        // number of batches never goes down; a pinned read sees whole saves of each writer.
        // Attachments are left out of pinned reads: a save removes the files of the values it
        // replaces or deletes when it commits, so an older snapshot may refer to files gone.
        var counts: [Int] = []
        while writers.contains(where: \.process.isRunning) {
            counts.append(try Self.batchCount(reader))
            let pinned = try Self.pinnedState(reader.coordinator).withoutAttachments
            let expected = CrashStoreState(saves: ["A": pinned.lastSave(of: "A"), "B": pinned.lastSave(of: "B")]).withoutAttachments
            #expect(pinned.differences(from: expected) == [])
        }
        #expect(counts == counts.sorted(), "the number of batches went down: \(counts)")
        for (name, writer) in zip(["A", "B"], writers) {
            writer.finish()
            #expect(writer.process.terminationStatus == 0, "writer \(name): \(writer.failure ?? writer.errors)")
            #expect(writer.savedNumbers == Array(1...savesEach), "writer \(name)")
        }
        let state = try Self.state(reader)
        #expect(state.differences(from: CrashStoreState(saves: ["A": savesEach, "B": savesEach])) == [])
        try CrashStoreInvariants.check(url, holding: state)
    }

    /// The whole store read by a new context pinned to the current query generation.
    private static func pinnedState(_ coordinator: NSPersistentStoreCoordinator) throws -> CrashStoreState {
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return try context.performAndWait {
            try context.setQueryGenerationFrom(.current)
            return try CrashStoreState(reading: context)
        }
    }
}
