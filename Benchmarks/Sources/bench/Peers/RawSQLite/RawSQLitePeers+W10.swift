import BenchSQLite

extension RawSQLitePeers {
    /// W10 raw: ``ItemTable/updateAttributeSQL`` (the statement our store runs to save one
    /// changed attribute) prepared once, then bound and stepped once per save in autocommit mode:
    /// each `UPDATE` is its own transaction, committed at the run's synchronous level.
    ///
    /// Set-up (not measured): open the connection on the fixture copy, apply the pragmas.
    static var updateItemsAutocommit: Peer {
        Peer(name: "raw", family: .raw) { input in
            let connection = try SQLiteConnection(path: input.storeURL.path, settings: input.settings)
            let targets = Workload.w10Targets(count: input.count)
            return PreparedRun(
                body: {
                    let statement = try connection.prepare(ItemTable.updateAttributeSQL(Workload.w10UpdatedAttribute))
                    let handle = statement.handle
                    for index in targets {
                        sqlite3_bind_int64(handle, 1, Workload.w10NewValue(forItem: index))
                        sqlite3_bind_int64(handle, 2, Int64(index) + 1)
                        sqlite3_bind_int64(handle, 3, ItemTable.fixtureVersion)
                        try connection.check(sqlite3_step(handle))
                        guard sqlite3_changes(connection.handle) == 1 else {
                            throw BenchmarkError.unexpectedValue(peer: "raw", detail: "UPDATE of Z_PK \(index + 1) changed no row")
                        }
                        sqlite3_reset(handle)
                    }
                    return Int64(targets.count)
                },
                tearDown: { connection.close() })
        }
    }
}
