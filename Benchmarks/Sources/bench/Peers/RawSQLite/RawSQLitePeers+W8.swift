extension RawSQLitePeers {
    /// W8 raw: the change's SQL (``ItemMigration/sql``) in one transaction. Set-up (not
    /// measured): open the connection.
    static func migrateItems(_ change: ItemMigration) -> Peer {
        Peer(name: "raw", family: .raw) { input in
            let connection = try SQLiteConnection(path: input.storeURL.path, settings: input.settings)
            return PreparedRun(
                body: {
                    try connection.execute("BEGIN IMMEDIATE")
                    for statement in change.sql {
                        try connection.execute(statement)
                    }
                    try connection.execute("COMMIT")
                    return 0
                },
                tearDown: { connection.close() })
        }
    }
}
