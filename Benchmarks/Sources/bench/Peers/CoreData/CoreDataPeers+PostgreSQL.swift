#if canImport(CoreDataPostgreSQL)
import CoreDataPostgreSQL

extension CoreDataItemStack {
    /// A stack on the PostgreSQL store in `schema` on the benchmark's server
    /// (``PostgreSQLServer/url``), added as the SQLite peers add theirs:
    /// `addPersistentStore(ofType: NSPostgreSQLStoreType, configurationName: nil, at: serverURL,
    /// options: [NSPostgreSQLSchemaOption: schema])`.
    convenience init(postgreSQLSchema schema: String, model: NSManagedObjectModel = makeModel()) throws {
        try self.init(
            storeURL: try PostgreSQLServer.requiredURL(), settings: .walNormal, model: model, type: .postgreSQL,
            options: [NSPostgreSQLSchemaOption: schema])
    }
}

extension CoreDataPeers {
    /// The name of the peers on the PostgreSQL store.
    static let postgreSQLName = "ours-postgresql"

    /// W1-postgresql ours: W1's insert and one save (``insertAndSave(_:into:)``) into a new
    /// PostgreSQL store. Set-up adds the store, which creates its tables in the empty schema.
    static var insertItemsIntoPostgreSQL: Peer {
        postgreSQLPeer(storeChecksum: PostgreSQLTables.itemStoreChecksumSQL) { stack, input in
            { try insertAndSave(input.count, into: stack) }
        }
    }

    /// W2-postgresql ours: W2's `fetch` and ten `value(forKey:)` per object
    /// (``fetchAttributeSum(from:peer:configure:)``).
    static var fetchItemsFromPostgreSQL: Peer {
        postgreSQLPeer { stack, _ in
            { try fetchAttributeSum(from: stack, peer: postgreSQLName) }
        }
    }

    /// W3a-postgresql ours: W3a's `fetch` with `score BETWEEN {lower, upper}` and the sum of the
    /// scores (``scoreSum(of:in:peer:)``).
    static var fetchByScoreFromPostgreSQL: Peer {
        postgreSQLPeer(model: ScoredItemModel.make) { stack, input in
            let request = ScoredItemModel.scoreRangeRequest("score", count: input.count)
            return { try stack.context.performAndWait { try scoreSum(of: request, in: stack.context, peer: postgreSQLName) } }
        }
    }

    /// W10-postgresql ours: W10's 1,000 saves of one changed object each
    /// (``saveUpdates(of:on:peer:)``, the objects fetched in set-up).
    static var saveItemUpdatesToPostgreSQL: Peer {
        postgreSQLPeer(storeChecksum: PostgreSQLTables.itemStoreChecksumSQL) { stack, input in
            try saveUpdates(of: Workload.w10Targets(count: input.count), on: stack, peer: postgreSQLName)
        }
    }

    /// A W12-postgresql writer process, ours: a stack on the run's schema and W10's saves of the
    /// writer's share of the items (``saveUpdates(of:on:peer:)``, the objects fetched here, before
    /// the run). Tear-down removes the store.
    static func scalingWriter(schema: String, targets: [Int]) throws -> PreparedRun {
        let stack = try CoreDataItemStack(postgreSQLSchema: schema)
        return PreparedRun(body: try saveUpdates(of: targets, on: stack, peer: postgreSQLName), tearDown: { try stack.close() })
    }

    /// Builds W2's fixture in `schema`: `count` items inserted and saved once by ours, as W1 does.
    static func createItemStore(inPostgreSQLSchema schema: String, count: Int) throws {
        try fillItemStore(CoreDataItemStack(postgreSQLSchema: schema), count: count)
    }

    /// Builds W3's fixture in `schema`: `count` scored items inserted and saved by ours in
    /// batches, as for SQLite (``ScoredItemModel/fill(_:count:)``), with the model's index on `score`.
    static func createScoredItemStore(inPostgreSQLSchema schema: PostgreSQLSchema, count: Int) throws {
        try ScoredItemModel.fill(CoreDataItemStack(postgreSQLSchema: schema.name, model: ScoredItemModel.make()), count: count)
    }

    /// An "ours-postgresql" peer. Set-up (not measured): a schema of the run's own (a copy of the
    /// workload's template schema, if it has one) and a stack on the PostgreSQL store in it, for
    /// `model`; then `prepare` does the peer's own set-up and returns the body. After the body,
    /// `storeChecksum` (SQL whose columns are integers, run through PostgresNIO) reads back what
    /// reached the schema. Tear-down: the context reset, the store removed, the schema dropped.
    private static func postgreSQLPeer(
        model: @escaping () -> NSManagedObjectModel = CoreDataItemStack.makeModel, storeChecksum: String? = nil,
        prepare: @escaping (_ stack: CoreDataItemStack, _ input: PeerInput) throws -> () throws -> Int64
    ) -> Peer {
        Peer(name: postgreSQLName, family: .ours) { input in
            try PostgreSQLSchema.preparedRun(
                copying: input.templateSchema, storeChecksum: storeChecksum,
                open: { schema in try CoreDataItemStack(postgreSQLSchema: schema.name, model: model()) },
                close: { try $0.close() },
                prepare: { try prepare($0, input) })
        }
    }
}
#endif
