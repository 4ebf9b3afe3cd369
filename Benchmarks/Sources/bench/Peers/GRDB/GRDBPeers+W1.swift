import GRDB

extension GRDBPeers {
    /// W1 GRDB, struct records: `GRDBItem(index:).insert(db)` for every item in one `write`
    /// transaction.
    static var insertItemStructs: Peer {
        insertPeer(named: "grdb-struct") { index, db in
            try GRDBItem(index: index).insert(db)
        }
    }

    /// W1 GRDB, `Record` class: `GRDBItemRecord(index:).insert(db)` for every item in one `write`
    /// transaction. The GRDB figure of W1's `RESULT` line.
    static var insertItemRecords: Peer {
        insertPeer(named: "grdb-record") { index, db in
            try GRDBItemRecord(index: index).insert(db)
        }
    }

    /// A W1 peer inserting with `insert`. Set-up (not measured): open the queue, apply the pragmas,
    /// create the table.
    static func insertPeer(named name: String, insert: @escaping (Int, Database) throws -> Void) -> Peer {
        Peer(name: name, family: .grdb) { input in
            let queue = try openQueue(at: input.storeURL, settings: input.settings)
            try queue.inDatabase { db in
                try db.execute(sql: ItemTable.createSQL)
            }
            return PreparedRun(
                body: {
                    try queue.write { db in
                        for index in 0..<input.count {
                            try insert(index, db)
                        }
                    }
                    return Int64(input.count)
                },
                tearDown: { try queue.close() })
        }
    }
}
