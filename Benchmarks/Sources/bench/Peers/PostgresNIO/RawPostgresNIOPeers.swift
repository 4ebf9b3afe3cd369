import Foundation
import PostgresNIO

/// The raw-PostgresNIO peers: PostgresNIO used directly and synchronously
/// (``PostgresNIOConnection``), doing each workload's work as a careful programmer would, on the
/// same server as our PostgreSQL store: the floor of the `-postgresql` workloads. Each workload
/// adds its peers in an extension (`RawPostgresNIOPeers+W1.swift` …).
enum RawPostgresNIOPeers {
    /// The peers' name in the tables and `RESULT` lines.
    static let name = "raw-postgresnio"

    /// A raw peer. Set-up (not measured): a schema of the run's own (a copy of the workload's
    /// template schema, if it has one) and a connection whose search path it is; then `prepare`
    /// does the peer's own set-up and returns the body. After the body, `storeChecksum` (SQL
    /// whose columns are integers) reads back what reached the schema. Tear-down: the connection
    /// closed, the schema dropped (`DROP SCHEMA … CASCADE`).
    static func peer(
        named name: String = name, storeChecksum: String? = nil,
        prepare: @escaping (_ connection: PostgresNIOConnection, _ input: PeerInput) throws -> () throws -> Int64
    ) -> Peer {
        Peer(name: name, family: .raw) { input in
            try PostgreSQLSchema.preparedRun(
                copying: input.templateSchema, storeChecksum: storeChecksum,
                open: { schema in try PostgresNIOConnection(url: schema.serverURL, schema: schema.name) },
                close: { $0.close() },
                prepare: { try prepare($0, input) })
        }
    }

    /// Inserts `count` items (item `i` holds `Z_PK = i + 1` and `(i, …, i)`) in one transaction,
    /// ``PostgreSQLTables/itemsPerInsert`` rows per `INSERT` of bound parameters. Returns the
    /// number of rows inserted.
    static func insertItems(count: Int, into connection: PostgresNIOConnection) throws -> Int64 {
        try connection.execute("BEGIN")
        var inserted = 0
        for start in stride(from: 0, to: count, by: PostgreSQLTables.itemsPerInsert) {
            let rows = min(PostgreSQLTables.itemsPerInsert, count - start)
            var bindings = PostgresBindings(capacity: rows * (3 + ItemTable.attributeCount))
            for index in start..<(start + rows) {
                let value = Int64(index)
                bindings.append(value + 1)
                bindings.append(ItemTable.entityNumber)
                bindings.append(ItemTable.fixtureVersion)
                for _ in 0..<ItemTable.attributeCount {
                    bindings.append(value)
                }
            }
            let result = try connection.query(PostgresQuery(unsafeSQL: PostgreSQLTables.insertItemsSQL(rows: rows), binds: bindings))
            inserted += result.metadata.rows ?? 0
        }
        try connection.execute("COMMIT")
        return Int64(inserted)
    }

    /// Saves W10's change of each target item (``Workload/w10NewValue(forItem:)`` into
    /// ``Workload/w10UpdatedAttribute``), one autocommit `UPDATE` each: a transaction per save in
    /// one round trip. The statement is our store's (``ItemTable/updateAttributeSQL(_:)``). Returns
    /// the number of saves.
    static func updateItems(_ targets: [Int], on connection: PostgresNIOConnection) throws -> Int64 {
        let sql = PostgreSQLTables.numbered(ItemTable.updateAttributeSQL(Workload.w10UpdatedAttribute))
        for index in targets {
            var bindings = PostgresBindings(capacity: 3)
            bindings.append(Workload.w10NewValue(forItem: index))
            bindings.append(Int64(index) + 1)
            bindings.append(ItemTable.fixtureVersion)
            let result = try connection.query(PostgresQuery(unsafeSQL: sql, binds: bindings))
            guard result.metadata.rows == 1 else {
                throw BenchmarkError.unexpectedValue(peer: name, detail: "UPDATE of Z_PK \(index + 1) changed \(result.metadata.rows ?? 0) rows")
            }
        }
        return Int64(targets.count)
    }
}
