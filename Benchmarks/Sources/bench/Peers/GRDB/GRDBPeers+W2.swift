import GRDB

extension GRDBPeers {
    /// W2 GRDB, struct records: `GRDBItem.fetchAll(db)`, then the sum of every attribute.
    static var fetchItemStructs: Peer {
        fetchPeer(named: "grdb-struct") { db in
            try GRDBItem.fetchAll(db).reduce(0) { $0 &+ $1.sum }
        }
    }

    /// W2 GRDB, `Record` class (the change-tracking peer): `GRDBItemRecord.fetchAll(db)`, then the
    /// sum of every attribute. The GRDB figure of W2's `RESULT` lines.
    static var fetchItemRecords: Peer {
        fetchPeer(named: "grdb-record") { db in
            try GRDBItemRecord.fetchAll(db).reduce(0) { $0 &+ $1.sum }
        }
    }

    /// A W2 peer. Set-up (not measured): open the queue on the fixture copy, apply the pragmas.
    private static func fetchPeer(named name: String, fetch: @escaping (Database) throws -> Int64) -> Peer {
        Peer(name: name, family: .grdb) { input in
            let queue = try openQueue(at: input.storeURL, settings: input.settings)
            return PreparedRun(
                body: { try queue.inDatabase(fetch) },
                tearDown: { try queue.close() })
        }
    }
}
