import PostgresNIO

extension RawPostgresNIOPeers {
    /// W1-postgresql raw: every item inserted in one transaction, a thousand rows per `INSERT` of
    /// bound parameters (``insertItems(count:into:)``), into a new `ZITEM` table.
    ///
    /// Set-up (not measured): the run's schema, the connection, the table created.
    static var insertItems: Peer {
        peer(storeChecksum: PostgreSQLTables.itemStoreChecksumSQL) { connection, input in
            try connection.execute(PostgreSQLTables.createItemSQL)
            return { try insertItems(count: input.count, into: connection) }
        }
    }

    /// W2-postgresql raw: `SELECT ZI0 … ZI9 FROM ZITEM`, every row decoded into W2's struct, then
    /// the sum of every attribute.
    static var fetchItems: Peer {
        peer { connection, _ in
            return {
                let rows = try connection.query(PostgresQuery(unsafeSQL: ItemTable.selectAttributesSQL))
                let items = try rows.map { row in
                    let (i0, i1, i2, i3, i4, i5, i6, i7, i8, i9) = try row.decode(
                        (Int64, Int64, Int64, Int64, Int64, Int64, Int64, Int64, Int64, Int64).self)
                    return RawSQLitePeers.Item(i0: i0, i1: i1, i2: i2, i3: i3, i4: i4, i5: i5, i6: i6, i7: i7, i8: i8, i9: i9)
                }
                return items.reduce(0) { $0 &+ $1.sum }
            }
        }
    }

    /// W2-postgresql raw, streamed: the same rows and structs, each row decoded on the event loop
    /// as it arrives (PostgresNIO's `onRow` callback), so that decoding overlaps the server's
    /// sending, as our store's reading does.
    static var fetchItemsStreamed: Peer {
        peer(named: streamedName) { connection, _ in
            return {
                let items = StreamedItems()
                try connection.query(PostgresQuery(unsafeSQL: ItemTable.selectAttributesSQL)) { row in
                    let (i0, i1, i2, i3, i4, i5, i6, i7, i8, i9) = try row.decode(
                        (Int64, Int64, Int64, Int64, Int64, Int64, Int64, Int64, Int64, Int64).self)
                    items.append(RawSQLitePeers.Item(i0: i0, i1: i1, i2: i2, i3: i3, i4: i4, i5: i5, i6: i6, i7: i7, i8: i8, i9: i9))
                }
                return items.all.reduce(0) { $0 &+ $1.sum }
            }
        }
    }

    /// The streamed peer's name.
    static let streamedName = "raw-postgresnio-streamed"

    /// The structs of the streamed peer's rows.
    // The event loop appends one row at a time; the peer reads them after the query's end,
    // which its future orders after every append.
    private final class StreamedItems: @unchecked Sendable {
        private(set) var all: [RawSQLitePeers.Item] = []

        func append(_ item: RawSQLitePeers.Item) {
            all.append(item)
        }
    }

    /// W3a-postgresql raw: the statement our store runs for W3a
    /// (``ScoredItemTable/selectByScoreSQL``, numbered), every row decoded into W3's struct, then
    /// the sum of the scores.
    static var fetchByScore: Peer {
        peer { connection, input in
            let range = ScoredItemTable.scoreRange(count: input.count)
            let sql = PostgreSQLTables.numbered(ScoredItemTable.selectByScoreSQL)
            return {
                var bindings = PostgresBindings(capacity: 2)
                bindings.append(range.lowerBound)
                bindings.append(range.upperBound)
                let rows = try connection.query(PostgresQuery(unsafeSQL: sql, binds: bindings))
                let items = try rows.map { try RawSQLitePeers.ScoredItem(row: $0) }
                return items.reduce(0) { $0 &+ $1.score }
            }
        }
    }

    /// W10-postgresql raw: W10's 1,000 saves as autocommit `UPDATE`s (``updateItems(_:on:)``).
    static var updateItemsAutocommit: Peer {
        peer(storeChecksum: PostgreSQLTables.itemStoreChecksumSQL) { connection, input in
            let targets = Workload.w10Targets(count: input.count)
            return { try updateItems(targets, on: connection) }
        }
    }

    /// A W12-postgresql writer process, raw: a connection in the run's schema and W10's
    /// autocommit `UPDATE` of each of the writer's share of the items (``updateItems(_:on:)``).
    /// Tear-down closes the connection.
    static func scalingWriter(schema: String, targets: [Int]) throws -> PreparedRun {
        let connection = try PostgresNIOConnection(url: try PostgreSQLServer.requiredURL(), schema: schema)
        return PreparedRun(body: { try updateItems(targets, on: connection) }, tearDown: connection.close)
    }
}

extension RawSQLitePeers.ScoredItem {
    /// A row of ``ScoredItemTable/selectList`` as PostgresNIO returns it.
    init(row: PostgresRow) throws {
        let columns = try row.decode((Int64, Int64, Int64, Double, Int64, String, Double, Int64, Int64).self)
        (primaryKey, entity, version, created) = (columns.0, columns.1, columns.2, columns.3)
        (flag, name, price) = (columns.4 != 0, columns.5, columns.6)
        (score, unindexedScore) = (columns.7, columns.8)
    }
}
