/// The journal mode and synchronous level that every peer of a run applies (PRAGMA parity,
/// spec §7.1).
struct StoreSettings: Sendable, Equatable {
    /// The value of `PRAGMA journal_mode`, e.g. `"WAL"`.
    var journalMode: String
    /// The value of `PRAGMA synchronous`, e.g. `"NORMAL"`.
    var synchronous: String
    /// Appended to the `RESULT` label when this is not the default setting (e.g. `"-rollback"`).
    var resultSuffix: String

    /// Core Data's journal mode (QA1809) with `synchronous=NORMAL`: the default for every workload.
    static let walNormal = StoreSettings(journalMode: "WAL", synchronous: "NORMAL", resultSuffix: "")

    /// The rollback journal with full durability, reported for the insert and save workloads.
    static let rollbackFull = StoreSettings(journalMode: "DELETE", synchronous: "FULL", resultSuffix: "-rollback")

    /// The statements a SQLite connection runs right after opening.
    var pragmaStatements: [String] {
        ["PRAGMA journal_mode=\(journalMode)", "PRAGMA synchronous=\(synchronous)"]
    }

    /// A human-readable description for report headers.
    var label: String {
        "journal_mode=\(journalMode), synchronous=\(synchronous)"
    }
}
