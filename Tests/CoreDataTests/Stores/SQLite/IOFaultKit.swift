@testable import CoreData
import CSQLiteFaultVFS
import Testing

/// A fault-injecting SQLite VFS of `CSQLiteFaultVFS`, SQLite's own I/O error tests on the store's
/// real files: files under the directories `route(_:)` names open through it, others never do. Each
/// instance registers a VFS of its own, with its own counts, so that tests can run in parallel.
final class SQLiteFaultVFS {
    enum Kind {
        case any, read, write, sync, truncate, lock, sharedMemoryLock, fileSize, sharedMemoryMap, open

        var raw: cdfault_kind {
            switch self {
            case .any: CDFAULT_ANY
            case .read: CDFAULT_READ
            case .write: CDFAULT_WRITE
            case .sync: CDFAULT_SYNC
            case .truncate: CDFAULT_TRUNCATE
            case .lock: CDFAULT_LOCK
            case .sharedMemoryLock: CDFAULT_SHM_LOCK
            case .fileSize: CDFAULT_FILE_SIZE
            case .sharedMemoryMap: CDFAULT_SHM_MAP
            case .open: CDFAULT_OPEN
            }
        }
    }

    private let vfs: OpaquePointer

    init() throws {
        vfs = try #require(cdfault_install())
    }

    /// Opens the files under `directory` through the VFS until `unroute`.
    func route(_ directory: URL) {
        let name = String(cString: cdfault_name(vfs))
        SQLiteConnection.vfsByDirectory.withLock { $0[directory.path] = name }
    }

    func unroute(_ directory: URL) {
        _ = SQLiteConnection.vfsByDirectory.withLock { $0.removeValue(forKey: directory.path) }
    }

    /// Fails the `n`-th call of `kind` from now (and every later one when `persistent`), with
    /// the kind's I/O error or the given SQLite result code.
    func arm(_ kind: Kind, at n: Int, persistent: Bool, result: Int32 = 0) {
        cdfault_arm(vfs, kind.raw, Int32(n), persistent ? 1 : 0, result)
    }

    func disarm() {
        cdfault_disarm(vfs)
    }

    /// The calls failed since the last `arm`.
    var hits: Int {
        Int(cdfault_hits(vfs))
    }

    func resetCounts() {
        cdfault_reset_counts(vfs)
    }

    func calls(_ kind: Kind) -> Int {
        Int(cdfault_calls(vfs, kind.raw))
    }
}

/// Everything a store holds, read through SQLite's default VFS: the schema, every row of every
/// table (`Z_PRIMARYKEY` and `Z_METADATA` included) in a canonical order, the contents of the
/// external files rows refer to, and how many files no row refers to. Two equal snapshots are two
/// stores a program cannot tell apart.
struct StoreSnapshot: Equatable, CustomStringConvertible {
    let integrity: String
    let schema: [String]
    let tables: [String: [String]]
    /// The contents of the external files, in the order the rows refer to them.
    let externalValues: [Data?]
    let unreferencedFiles: Int

    init(_ url: URL) throws {
        let connection = try SQLiteConnection(path: url.path, readOnly: true, create: false)
        defer { connection.close() }
        let external = ExternalBinaryStorage(storeURL: url)
        integrity = try Self.strings(connection, "PRAGMA integrity_check").joined(separator: "; ")
        schema = try Self.strings(connection, "SELECT type || ' ' || name || ': ' || coalesce(sql, '') FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY name")
        var tables: [String: [String]] = [:]
        var externalValues: [Data?] = []
        var referenced = Set<String>()
        for table in try Self.strings(connection, "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'") {
            let columns = try Self.strings(connection, "SELECT name FROM pragma_table_info('\(table)') ORDER BY cid")
            let order = (1...columns.count).map(String.init).joined(separator: ", ")
            let statement = try connection.statement("SELECT \(columns.joined(separator: ", ")) FROM \(table) ORDER BY \(order)")
            var rows: [String] = []
            while try statement.step() {
                let values = (0..<columns.count).map { index -> String in
                    let value = statement.value(at: Int32(index))
                    guard let file = external.referencedFile(value.blob) else { return "\(value)" }
                    referenced.insert(file.lastPathComponent)
                    externalValues.append(StoreFileProbe.bytes(file))
                    return "external value \(externalValues.count)"
                }
                rows.append(values.joined(separator: " | "))
            }
            tables[table] = rows
        }
        self.tables = tables
        self.externalValues = externalValues
        let present = (try? FileManager.default.contentsOfDirectory(atPath: external.directory.path)) ?? []
        unreferencedFiles = Set(present).subtracting(referenced).count
    }

    var description: String {
        let rows = tables.keys.sorted().map { "\($0):\n  " + tables[$0, default: []].joined(separator: "\n  ") }
        let files = externalValues.enumerated().map { "external value \($0.offset + 1): " + ($0.element.map { "\($0.count) bytes, starting \(Array($0.prefix(8)))" } ?? "missing file") }
        return (["integrity: \(integrity)", "unreferenced external files: \(unreferencedFiles)"] + schema + rows + files).joined(separator: "\n")
    }

    private static func strings(_ connection: SQLiteConnection, _ sql: String) throws -> [String] {
        let statement = try connection.statement(sql)
        var strings: [String] = []
        while try statement.step() {
            strings.append(statement.string(at: 0) ?? "")
        }
        return strings
    }
}

/// An operation on a store (a save, opening with a migration) that can be run again: `run` is
/// called under a fault, then, once the fault is disarmed, again to retry.
struct FaultedOperation {
    let run: () throws -> Void
    let close: () -> Void
}

/// Runs an operation on copies of a store with a fault at each step, SQLite's approach to I/O
/// errors: every run must throw a Cocoa error and leave the store as it was (or succeed, when
/// the fault struck after the commit, and leave it as a run without faults does), a new
/// coordinator must open the store, and the retry must then succeed and write what a run without
/// faults writes.
struct FaultSweep {
    /// The folder of the store the runs copy, and its file name.
    let base: SQLiteScratchDirectory
    let storeName: String
    /// The models the store may be written with, before and after the operation: a new
    /// coordinator reopens the store with the one its metadata matches after each fault.
    let models: [NSManagedObjectModel]
    /// Whether the operation commits before its last step (a migration commits, then the store
    /// opens), so that it may throw with its writes complete; they must then be whole.
    var mayCompleteBeforeThrowing = false
    /// Opens a copy (through the faulting VFS) and prepares the operation, without running it.
    let prepare: (URL) throws -> FaultedOperation
    private let vfs: SQLiteFaultVFS

    init(base: SQLiteScratchDirectory, storeName: String, models: [NSManagedObjectModel], prepare: @escaping (URL) throws -> FaultedOperation) throws {
        self.base = base
        self.storeName = storeName
        self.models = models
        self.prepare = prepare
        vfs = try SQLiteFaultVFS()
    }

    /// What the sweep observed: the steps the operation makes, and the runs that threw.
    struct Outcome {
        var steps = 0
        var runs = 0
        var thrown = 0
    }

    /// Runs the operation with a fault at each of its calls of `kind`, at most `transient` of them
    /// (spread over all) failing once and `persistent` failing from there on, with the kind's I/O
    /// error or the SQLite result code `result`.
    func run(kind: SQLiteFaultVFS.Kind = .any, result: Int32 = 0, transient: Int, persistent: Int, sourceLocation: SourceLocation = #_sourceLocation) throws -> Outcome {
        let before = try StoreSnapshot(base.file(storeName))
        let reference = try runOnCopy(faultAt: nil, kind: kind, persistent: false)
        #expect(reference.error == nil, "the operation succeeds without faults: \(String(describing: reference.error))", sourceLocation: sourceLocation)
        #expect(reference.after != before, "the operation changes the store", sourceLocation: sourceLocation)
        var outcome = Outcome(steps: reference.steps)
        for (isPersistent, limit) in [(false, transient), (true, persistent)] {
            for step in Self.spread(limit, over: reference.steps) {
                let trial = try runOnCopy(faultAt: (step, result), kind: kind, persistent: isPersistent)
                outcome.runs += 1
                let label = "fault at \(kind) call \(step) of \(reference.steps)\(isPersistent ? ", persistent" : "")"
                #expect(trial.hits > 0, "\(label): the fault was injected", sourceLocation: sourceLocation)
                #expect(trial.reopenError == nil, "\(label): a new coordinator opens and reads the store: \(String(describing: trial.reopenError))", sourceLocation: sourceLocation)
                if let error = trial.error {
                    outcome.thrown += 1
                    #expect(error.domain == NSCocoaErrorDomain, "\(label): \(error)", sourceLocation: sourceLocation)
                    let completed = mayCompleteBeforeThrowing && trial.afterFault == reference.after
                    #expect(trial.afterFault == before || completed, "\(label): a failed operation leaves the store as it was (\(error))\n\(Self.diff(before, trial.afterFault))", sourceLocation: sourceLocation)
                } else {
                    #expect(trial.afterFault == reference.after, "\(label): an operation that succeeds despite the fault wrote everything\n\(Self.diff(reference.after, trial.afterFault))", sourceLocation: sourceLocation)
                }
                #expect(trial.retryError == nil, "\(label): the retry succeeds: \(String(describing: trial.retryError))", sourceLocation: sourceLocation)
                #expect(trial.after == reference.after, "\(label): the retry writes what a run without faults writes\n\(Self.diff(reference.after, trial.after))", sourceLocation: sourceLocation)
            }
        }
        return outcome
    }

    /// At most `limit` of the steps 1...count, spread over them, the first and last included.
    private static func spread(_ limit: Int, over count: Int) -> [Int] {
        guard limit > 0, count > 0 else { return [] }
        guard count > limit else { return Array(1...count) }
        guard limit > 1 else { return [1] }
        return (0..<limit).map { 1 + $0 * (count - 1) / (limit - 1) }
    }

    private struct Trial {
        var steps = 0
        var hits = 0
        var error: NSError?
        var afterFault: StoreSnapshot?
        var reopenError: NSError?
        var retryError: NSError?
        var after: StoreSnapshot?
    }

    private func runOnCopy(faultAt fault: (step: Int, result: Int32)?, kind: SQLiteFaultVFS.Kind, persistent: Bool) throws -> Trial {
        let copy = try SQLiteScratchDirectory("iofault-run")
        defer { copy.remove() }
        for name in base.listing() {
            try FileManager.default.copyItem(at: base.file(name), to: copy.file(name))
        }
        let url = copy.file(storeName)
        vfs.route(copy.url)
        let operation: FaultedOperation
        do {
            operation = try prepare(url)
        } catch {
            vfs.unroute(copy.url)
            throw error
        }
        defer { operation.close() }
        var trial = Trial()
        vfs.resetCounts()
        if let fault { vfs.arm(kind, at: fault.step, persistent: persistent, result: fault.result) }
        do {
            try operation.run()
        } catch {
            trial.error = error as NSError
        }
        vfs.disarm()
        // The operation's own connections stay on the faulting VFS (disarmed); the checks and
        // every connection opened from here on use SQLite's default one.
        vfs.unroute(copy.url)
        trial.hits = vfs.hits
        trial.steps = vfs.calls(kind)
        trial.reopenError = reopen(url)
        trial.afterFault = try StoreSnapshot(url)
        if fault != nil {
            do {
                try operation.run()
            } catch {
                trial.retryError = error as NSError
            }
        }
        trial.after = try StoreSnapshot(url)
        return trial
    }

    /// Opens the store with a new coordinator and counts every entity's objects; the error if
    /// that fails.
    private func reopen(_ url: URL) -> NSError? {
        ctxError {
            let model = try models.count == 1 ? models[0] : modelMatching(url)
            let stack = try SQLiteTestStack(model: model, url: url)
            defer { stack.close() }
            try stack.context.performAndWait {
                for entity in model.entities {
                    _ = try stack.context.count(for: NSFetchRequest<NSManagedObject>(entityName: entity.entityName))
                }
            }
        }
    }

    /// The model the store's metadata matches.
    private func modelMatching(_ url: URL) throws -> NSManagedObjectModel {
        let metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url, options: nil)
        return try #require(models.first { $0.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata) })
    }

    /// The lines of two snapshots' descriptions that differ, for failure messages.
    private static func diff(_ expected: StoreSnapshot?, _ actual: StoreSnapshot?) -> String {
        let expectedLines = expected?.description.components(separatedBy: "\n") ?? []
        let actualLines = actual?.description.components(separatedBy: "\n") ?? []
        let missing = expectedLines.filter { !actualLines.contains($0) }.map { "- " + $0 }
        let extra = actualLines.filter { !expectedLines.contains($0) }.map { "+ " + $0 }
        return (missing + extra).prefix(20).joined(separator: "\n")
    }
}
