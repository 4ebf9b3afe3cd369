import GRDB

extension GRDBPeers {
    /// W9 GRDB cursor: `GRDBScoredItemRecord.fetchCursor(db)`, one record alive at a time.
    static var iterateCursor: Peer {
        iteratePeer(named: "grdb-cursor") { db in
            var sum: Int64 = 0
            let cursor = try GRDBScoredItemRecord.fetchCursor(db)
            while let record = try cursor.next() {
                sum &+= record.score
            }
            return sum
        }
    }

    /// W9 GRDB batched, the spec's baseline for batched faulting: every primary key first
    /// (`SELECT Z_PK`), then the records of each 1,000 keys with `filter(keys:).fetchAll(db)`. The
    /// GRDB figure of W9's and W9b's `RESULT` lines.
    static var iterateBatches: Peer {
        iteratePeer(named: "grdb-batched") { db in
            let keys = try GRDBScoredItemRecord.select(Column("Z_PK"), as: Int64.self).fetchAll(db)
            var sum: Int64 = 0
            var start = 0
            while start < keys.count {
                let end = min(start + Workload.w9GRDBBatchSize, keys.count)
                for record in try GRDBScoredItemRecord.filter(keys: keys[start..<end]).fetchAll(db) {
                    sum &+= record.score
                }
                start = end
            }
            return sum
        }
    }

    /// W9 GRDB fetch-all: `GRDBScoredItemRecord.fetchAll(db)`, every record alive at once. The GRDB
    /// figure of W9c's `RESULT` line.
    static var iterateFetchAll: Peer {
        iteratePeer(named: "grdb-fetchall") { db in
            try GRDBScoredItemRecord.fetchAll(db).reduce(0) { $0 &+ $1.score }
        }
    }

    /// A W9 peer. Set-up (not measured): open the queue on the fixture copy, apply the pragmas.
    private static func iteratePeer(named name: String, iterate: @escaping (Database) throws -> Int64) -> Peer {
        Peer(name: name, family: .grdb) { input in
            let queue = try openQueue(at: input.storeURL, settings: input.settings)
            return PreparedRun(
                body: { try queue.inDatabase(iterate) },
                tearDown: { try queue.close() })
        }
    }
}
