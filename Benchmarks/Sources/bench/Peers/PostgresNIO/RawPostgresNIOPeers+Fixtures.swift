import PostgresNIO

extension RawPostgresNIOPeers {
    /// Builds W2's fixture in `schema` as the W1 raw peer inserts: the fixture builder used when
    /// our Core Data is not compiled in.
    static func createItemStore(in schema: PostgreSQLSchema, count: Int) throws {
        let connection = try PostgresNIOConnection(url: schema.serverURL, schema: schema.name)
        defer { connection.close() }
        try connection.execute(PostgreSQLTables.createItemSQL)
        _ = try insertItems(count: count, into: connection)
    }

    /// Builds W3's fixture in `schema`: `ZSCOREDITEM` and its score index as our store lays them
    /// out, filled with ``ScoredItemTable/values(at:count:)`` in one transaction, a thousand rows
    /// per `INSERT`. The fixture builder used when our Core Data is not compiled in.
    static func createScoredItemStore(in schema: PostgreSQLSchema, count: Int) throws {
        let connection = try PostgresNIOConnection(url: schema.serverURL, schema: schema.name)
        defer { connection.close() }
        try connection.execute(PostgreSQLTables.createScoredItemSQL)
        try connection.execute(PostgreSQLTables.createScoreIndexSQL)
        try connection.execute("BEGIN")
        for start in stride(from: 0, to: count, by: PostgreSQLTables.scoredItemsPerInsert) {
            let rows = min(PostgreSQLTables.scoredItemsPerInsert, count - start)
            var bindings = PostgresBindings(capacity: rows * 9)
            for index in start..<(start + rows) {
                let values = ScoredItemTable.values(at: index, count: count)
                bindings.append(Int64(index + 1))
                bindings.append(ItemTable.entityNumber)
                bindings.append(ItemTable.fixtureVersion)
                bindings.append(values.created)
                bindings.append(Int64(values.flag ? 1 : 0))
                bindings.append(values.name)
                bindings.append(values.price)
                bindings.append(values.score)
                bindings.append(values.unindexedScore)
            }
            try connection.query(PostgresQuery(unsafeSQL: PostgreSQLTables.insertScoredItemsSQL(rows: rows), binds: bindings))
        }
        try connection.execute("COMMIT")
    }
}
