extension RawSQLitePeers {
    /// W1 raw: prepared INSERT of every item in one transaction into a fresh `ZITEM` table.
    ///
    /// Set-up (not measured): open the connection, apply the pragmas, create the table.
    static var insertItems: Peer {
        Peer(name: "raw", family: .raw) { input in
            let connection = try SQLiteConnection(path: input.storeURL.path, settings: input.settings)
            try connection.execute(ItemTable.createSQL)
            return PreparedRun(
                body: { try insertItems(count: input.count, into: connection) },
                tearDown: { connection.close() })
        }
    }
}
