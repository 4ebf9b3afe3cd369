import GRDB

extension GRDBPeers {
    /// W8 GRDB: a `DatabaseMigrator` whose one migration runs the change's SQL. Set-up (not
    /// measured): open the queue.
    static func migrateItems(_ change: ItemMigration) -> Peer {
        Peer(name: "grdb", family: .grdb) { input in
            let queue = try openQueue(at: input.storeURL, settings: input.settings)
            var migrator = DatabaseMigrator()
            migrator.registerMigration(change.workloadName) { db in
                for statement in change.sql {
                    try db.execute(sql: statement)
                }
            }
            return PreparedRun(
                body: {
                    try migrator.migrate(queue)
                    return 0
                },
                tearDown: { try queue.close() })
        }
    }
}
