import Foundation

/// A benchmark workload: one fixture, several peers doing the same work on their own copies of it.
///
/// A workload is plain data. To add one, write a file in `Workloads/` that returns a `Workload`
/// from a static property, put each peer's code in its family folder under `Peers/`, and list the
/// property in ``Workload/all``.
struct Workload {
    /// The short name used on the command line and in `RESULT` lines, e.g. `"W1"`.
    var name: String
    /// The spec's workload number this one is a case of, e.g. `"W3"` for `"W3b"`: naming it on the
    /// command line selects every case of the group. `nil` when the workload stands alone.
    var group: String? = nil
    /// One line describing the work, printed above the table.
    var summary: String
    /// How many objects the workload handles unless `--count` says otherwise.
    var defaultCount: Int
    /// The file every run starts from.
    var fixture: Fixture
    /// The systems compared, in the order they run within a round (A B C A B C …).
    var peers: [Peer]
    /// The checksum every run must produce for a given object count, or `nil` to only require that
    /// all runs agree with the first one.
    var expectedChecksum: ((_ count: Int) -> Checksum)?
    /// Reads the peer's store file after the run (not measured) and adds what it finds to the
    /// checksum, so that a writing peer is checked on what actually reached the file.
    var storeChecksum: ((_ storeURL: URL) throws -> [Int64])?
    /// The machine-readable `RESULT` lines this workload prints.
    var results: [ResultLine]
    /// Whether the `RESULT` lines carry `mem=<MB>` (the "ours" peer's peak RSS delta).
    var measuresMemory = false
    /// Whether the workload is also reported with rollback journal + `synchronous=FULL`
    /// (`--journal rollback|both`), as spec §7.1 asks for the insert and save workloads.
    var supportsRollback = false
    /// Why the workload cannot run here (a server it needs is not configured), or `nil` when it
    /// can. Such a workload is skipped with this message instead of failing.
    var unavailability: String? = nil
    /// Describes the store's settings for the report header in place of the SQLite journal
    /// settings, for workloads those do not apply to (the PostgreSQL server's); `nil` for the others.
    var settingsDescription: (() -> String)? = nil
}

/// The systems a workload compares.
enum PeerFamily: String, Sendable {
    /// The database's own API, the physical floor: the SQLite C API, or raw PostgresNIO for the
    /// PostgreSQL workloads.
    case raw
    /// GRDB, the best Swift ORM on SQLite.
    case grdb
    /// Our Core Data implementation.
    case ours
}

/// One system doing a workload's work.
struct Peer {
    /// The row label in the table, e.g. `"grdb-record"`.
    var name: String
    /// The family the peer belongs to.
    var family: PeerFamily
    /// Sets the peer up on its fresh copy of the fixture (not measured) and returns the work to
    /// measure.
    var prepare: (_ input: PeerInput) throws -> PreparedRun
}

/// What a peer receives for one run.
struct PeerInput {
    /// The peer's own store file: a fresh copy of the fixture template, or a path where no file
    /// exists yet when the workload has no template.
    var storeURL: URL
    /// The journal mode and synchronous level every peer applies.
    var settings: StoreSettings
    /// How many objects to handle.
    var count: Int
    /// The database schema holding the workload's ``Fixture/sharedSchema(key:describedAs:build:)``
    /// template, which the peer copies into a schema of its own; `nil` for the other fixtures.
    var templateSchema: String? = nil
}

/// A peer that is set up and ready to be measured.
struct PreparedRun {
    /// The measured work. Returns a checksum of what it did (a count, a sum of the values read).
    var body: () throws -> Int64
    /// Releases what `prepare` acquired: closes connections, removes stores. Not measured.
    var tearDown: () throws -> Void
    /// The latencies of the events the body waited for, read after it returns, for workloads that
    /// measure them (W11); `nil` for the others.
    var eventLatencies: () -> EventLatencies? = { nil }
    /// Reads back what reached the peer's store, after the body and before tear-down, for stores
    /// that do not live in the run's file (a PostgreSQL schema, dropped in tear-down); added to the
    /// checksum as the workload's ``Workload/storeChecksum`` is for files. `nil` for the others.
    var storeChecksum: (() throws -> [Int64])? = nil
}

/// The file a workload's runs start from.
enum Fixture {
    /// No file: every run gets a path in a fresh directory and creates its store there.
    case none
    /// A template built once per workload and setting (not measured), then copied for every run of
    /// every peer. The closure creates the store at the given URL.
    case template(describedAs: String, build: (_ input: PeerInput) throws -> Void)
    /// A template built once per process for every workload naming the same `key` (and object
    /// count and setting), kept until the benchmark ends, then copied for every run like
    /// ``template(describedAs:build:)``. For large fixtures that several workloads read.
    case shared(key: String, describedAs: String, build: (_ input: PeerInput) throws -> Void)
    /// A template that lives on a database server (a PostgreSQL schema), not in a file: built once
    /// per process for every workload naming the same `key` (and object count), handed to every
    /// run as ``PeerInput/templateSchema`` for the peer to copy into a schema of its own, and
    /// removed when the benchmark ends.
    case sharedSchema(key: String, describedAs: String, build: (_ input: PeerInput) throws -> SchemaFixture)
}

/// A template schema on a database server, and how to remove it.
struct SchemaFixture {
    /// The schema's name.
    var name: String
    /// Drops the schema.
    var remove: () -> Void
}

/// What a run produced: the body's checksum, then the store checksum values if any.
struct Checksum: Equatable, CustomStringConvertible {
    var values: [Int64]

    var description: String {
        values.map(String.init).joined(separator: "/")
    }
}

/// One `RESULT` line: our peer's median wall time divided by the baselines' medians.
struct ResultLine {
    /// The name printed after `RESULT`, e.g. `"W2b"`.
    var label: String
    /// The "ours" peer whose time is divided.
    var ours: String
    /// The raw-SQLite peer for the `raw=` ratio, if the workload has one.
    var raw: String?
    /// The GRDB peer for the `grdb=` ratio, if the workload has one.
    var grdb: String?
    /// Further figures printed after the ratios.
    var extras: [ResultExtra] = []
}
