import Foundation
import GRDB
import Synchronization

extension GRDBPeers {
    /// W6a GRDB: what GRDB offers in place of a fetched results controller, a `ValueObservation`
    /// (`trackingConstantRegion`, on a `DatabasePool`) of ``GRDBSections``: the rows in the
    /// controller's order and the section sizes, fetched with W6's two queries. Measured: from
    /// `start` to the delivery of the initial value on the observation's queue. Returns the
    /// section checksum of the value. The observation lasts until tear-down.
    ///
    /// Set-up (not measured): open the pool on the fixture copy, apply the pragmas.
    static var observeSections: Peer {
        Peer(name: "grdb-observe", family: .grdb) { input in
            let pool = try openPool(at: input.storeURL, settings: input.settings)
            let observer = GRDBSectionsObserver(peer: "grdb-observe")
            return PreparedRun(
                body: {
                    observer.start(in: pool)
                    return try observer.waitForValue().checksum(peer: "grdb-observe")
                },
                tearDown: {
                    observer.cancel()
                    try pool.close()
                })
        }
    }

    /// W6b GRDB: W6b's changes (``SectionedItemTable/changes(count:)``) written in one
    /// `pool.write` with cached statements, by primary key; the observation of ``observeSections``
    /// notices the commit, refetches the whole value (GRDB has no incremental update) and
    /// delivers it on its queue. Measured: from just before the write to that delivery. Returns
    /// the section checksum of the delivered value.
    ///
    /// Set-up (not measured): open the pool, check that every row's primary key is
    /// ``SectionedItemTable/primaryKey(ofSerial:)`` of its serial, start the observation and
    /// wait for its initial value.
    static var deliverSections: Peer {
        Peer(name: "grdb-delivery", family: .grdb) { input in
            let changes = try SectionedItemTable.changes(count: input.count)
            let pool = try openPool(at: input.storeURL, settings: input.settings)
            let misplaced = try pool.read { db in try Int.fetchOne(db, sql: SectionedItemTable.countMisplacedKeysSQL) }
            guard misplaced == 0 else {
                throw BenchmarkError.unexpectedValue(peer: "grdb-delivery", detail: "\(misplaced ?? -1) rows whose Z_PK is not serial + 1")
            }
            let observer = GRDBSectionsObserver(peer: "grdb-delivery")
            observer.start(in: pool)
            _ = try observer.waitForValue()
            return PreparedRun(
                body: {
                    try pool.write { db in try write(changes, in: db) }
                    return try observer.waitForValue().checksum(peer: "grdb-delivery")
                },
                tearDown: {
                    observer.cancel()
                    try pool.close()
                })
        }
    }

    /// Writes W6b's changes by primary key.
    private static func write(_ changes: SectionedItemTable.Changes, in db: Database) throws {
        let updateScore = try db.cachedStatement(sql: SectionedItemTable.updateScoreSQL)
        for (serial, score) in changes.scores {
            try updateScore.execute(arguments: [score, SectionedItemTable.primaryKey(ofSerial: serial)])
        }
        let updateSection = try db.cachedStatement(sql: SectionedItemTable.updateSectionSQL)
        for (serial, section) in changes.sections {
            try updateSection.execute(arguments: [section, SectionedItemTable.primaryKey(ofSerial: serial)])
        }
        let delete = try db.cachedStatement(sql: SectionedItemTable.deleteSQL)
        for serial in changes.deletes {
            try delete.execute(arguments: [SectionedItemTable.primaryKey(ofSerial: serial)])
        }
        let insert = try db.cachedStatement(sql: SectionedItemTable.insertChangeSQL)
        for (serial, section, score) in changes.inserts {
            try insert.execute(arguments: [score, section, serial])
        }
    }

    /// Opens a `DatabasePool` (a writer and concurrent readers, which `ValueObservation` uses to
    /// refetch without blocking writes) whose connections apply the run's pragmas.
    static func openPool(at url: URL, settings: StoreSettings) throws -> DatabasePool {
        var configuration = Configuration()
        let statements = settings.pragmaStatements
        configuration.prepareDatabase { db in
            for statement in statements {
                try db.execute(sql: statement)
            }
        }
        return try DatabasePool(path: url.path, configuration: configuration)
    }
}

/// A row of W6's sorted query as a GRDB struct record: an object's key and section name, decoded
/// by column name.
struct GRDBSectionedItem: FetchableRecord, Sendable {
    var id: Int64
    var section: String

    init(row: Row) {
        id = row["Z_PK"]
        section = row["ZSECTION"]
    }
}

/// The value W6's GRDB observation delivers: the rows in the controller's order
/// (``SectionedItemTable/selectSectionedSQL``) and the section names and sizes
/// (``SectionedItemTable/countSectionsSQL``).
struct GRDBSections: Sendable {
    var items: [GRDBSectionedItem]
    var sections: [(name: String, size: Int)]

    /// Runs both queries.
    static func fetch(_ db: Database) throws -> GRDBSections {
        let items = try GRDBSectionedItem.fetchAll(db, sql: SectionedItemTable.selectSectionedSQL)
        let sections = try Row.fetchAll(db, sql: SectionedItemTable.countSectionsSQL).map { row -> (name: String, size: Int) in
            (row[0], row[1])
        }
        return GRDBSections(items: items, sections: sections)
    }

    /// ``SectionedItemTable/sectionChecksum(sizes:)`` of the sections; fails if their sizes do
    /// not add up to the rows.
    func checksum(peer: String) throws -> Int64 {
        let total = sections.reduce(0) { $0 + $1.size }
        guard total == items.count else {
            throw BenchmarkError.unexpectedValue(peer: peer, detail: "\(items.count) rows in sections of \(total)")
        }
        return SectionedItemTable.sectionChecksum(sizes: sections.lazy.map(\.size))
    }
}

/// A `ValueObservation` of ``GRDBSections`` delivering on its own serial queue, and the values
/// and errors it delivered, which the measuring thread waits for.
final class GRDBSectionsObserver: Sendable {
    /// How long the measuring thread waits for a value before failing.
    static let timeout: DispatchTimeInterval = .seconds(60)

    private let peer: String
    private let queue = DispatchQueue(label: "GRDBSectionsObserver")
    private let delivered = DispatchSemaphore(value: 0)
    /// What the observation delivered and the measuring thread did not take yet.
    private let pending = Mutex<[Result<GRDBSections, any Error>]>([])
    private let cancellable = Mutex<AnyDatabaseCancellable?>(nil)

    init(peer: String) {
        self.peer = peer
    }

    /// Starts observing `pool`; the initial value follows on the observation's queue.
    func start(in pool: DatabasePool) {
        let observation = ValueObservation.trackingConstantRegion(GRDBSections.fetch)
        let started = observation.start(in: pool, scheduling: .async(onQueue: queue)) { [self] error in
            pending.withLock { $0.append(.failure(error)) }
            delivered.signal()
        } onChange: { [self] value in
            pending.withLock { $0.append(.success(value)) }
            delivered.signal()
        }
        cancellable.withLock { $0 = started }
    }

    /// Waits for the next value (or error) the observation delivers.
    func waitForValue() throws -> GRDBSections {
        guard delivered.wait(timeout: .now() + Self.timeout) == .success else {
            throw BenchmarkError.unexpectedValue(peer: peer, detail: "the observation delivered nothing within \(Self.timeout)")
        }
        return try pending.withLock { $0.removeFirst() }.get()
    }

    /// Stops the observation.
    func cancel() {
        cancellable.withLock { $0?.cancel(); $0 = nil }
    }
}
