extension Fixture {
    /// The template W2-, W10- and W12-postgresql start from: ``items`` in a schema on the
    /// PostgreSQL server, built once per process and object count by ours-postgresql with W1's
    /// insert and one save, so that it has our store's metadata tables and functions. Each run
    /// copies it into a schema of its own. Without the "ours" peers compiled in, the raw peer
    /// builds the table.
    static var postgreSQLItems: Fixture {
        #if canImport(CoreDataPostgreSQL)
        templateSchema(key: "postgresql-items", describedAs: "items inserted and saved by ours-postgresql (one save)") { schema, count in
            try CoreDataPeers.createItemStore(inPostgreSQLSchema: schema.name, count: count)
        }
        #else
        templateSchema(key: "postgresql-items", describedAs: "ZITEM built by raw PostgresNIO (ours not compiled in)") { schema, count in
            try RawPostgresNIOPeers.createItemStore(in: schema, count: count)
        }
        #endif
    }

    /// The template W3a-postgresql starts from: ``scoredItems`` in a schema on the PostgreSQL
    /// server, inserted and saved by ours-postgresql 100k per save (its score index made by hand,
    /// see ``CoreDataPeers/createScoredItemStore(inPostgreSQLSchema:count:)``).
    static var postgreSQLScoredItems: Fixture {
        #if canImport(CoreDataPostgreSQL)
        templateSchema(key: "postgresql-scored-items", describedAs: "ScoredItem rows inserted and saved by ours-postgresql (100k per save)") { schema, count in
            try CoreDataPeers.createScoredItemStore(inPostgreSQLSchema: schema, count: count)
        }
        #else
        templateSchema(key: "postgresql-scored-items", describedAs: "ZSCOREDITEM built by raw PostgresNIO (ours not compiled in)") { schema, count in
            try RawPostgresNIOPeers.createScoredItemStore(in: schema, count: count)
        }
        #endif
    }

    /// A template schema made by `fill` in a new ``PostgreSQLSchema``, dropped when the benchmark
    /// ends, or at once when `fill` fails.
    private static func templateSchema(
        key: String, describedAs description: String, fill: @escaping (PostgreSQLSchema, _ count: Int) throws -> Void
    ) -> Fixture {
        .sharedSchema(key: key, describedAs: description) { input in
            let schema = try PostgreSQLSchema()
            do {
                try fill(schema, input.count)
            } catch {
                schema.drop()
                throw error
            }
            return SchemaFixture(name: schema.name, remove: schema.drop)
        }
    }
}
