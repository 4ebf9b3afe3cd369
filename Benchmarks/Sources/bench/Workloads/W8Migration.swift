extension Workload {
    /// W8a (spec §7.2): lightweight migration of the 1M-item store adding an optional attribute.
    /// Goal: ours ≤ 10 ms (an `ALTER TABLE ADD COLUMN`, no row touched).
    static var w8aAddAttribute: Workload {
        w8Case(.addAttribute)
    }

    /// W8b: renaming an attribute (through its renaming identifier) and widening another from
    /// Integer 64 to Double, which rebuilds the table. Goal: ours ≤ 1.5× raw.
    static var w8bRenameAndWiden: Workload {
        w8Case(.renameAndWiden)
    }

    /// W8c: adding an index (with a version hash modifier, which is what makes Core Data migrate
    /// for an index). Reported as ours/raw; no goal.
    static var w8cAddIndex: Workload {
        w8Case(.addIndex)
    }

    /// A W8 case on the shared 1M-item fixture. Peers: raw runs ``ItemMigration/sql`` in one
    /// transaction; GRDB runs the same SQL as a `DatabaseMigrator` migration; ours opens the store
    /// with the changed model and Core Data's automatic lightweight migration options. Every run
    /// must leave the same table: the store checksum is the row count, the sum of `i0`…`i7`, and
    /// the numbers of columns and indexes of `ZITEM`. Peak memory is reported: a migration that
    /// materialized objects would grow with the row count.
    private static func w8Case(_ change: ItemMigration) -> Workload {
        var peers = [RawSQLitePeers.migrateItems(change), GRDBPeers.migrateItems(change)]
        #if canImport(CoreData)
        peers.append(CoreDataPeers.migrateItems(change))
        #endif
        return Workload(
            name: change.workloadName,
            group: "W8",
            summary: "lightweight migration: \(change.summary)",
            defaultCount: 1_000_000,
            fixture: .items,
            peers: peers,
            expectedChecksum: nil,
            storeChecksum: ItemMigration.storeChecksum(at:),
            results: [ResultLine(label: change.workloadName, ours: "ours", raw: "raw", grdb: "grdb")],
            measuresMemory: true)
    }
}
