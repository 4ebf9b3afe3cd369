import GRDB

extension GRDBPeers {
    /// W1-batch GRDB: one cached statement (W1's positional INSERT) executed with the row's
    /// arguments for every item, in one `write` transaction: GRDB's bulk insert without records.
    /// Set-up (not measured): open the queue, apply the pragmas, create the table.
    static var insertItemsWithStatement: Peer {
        Peer(name: "grdb-statement", family: .grdb) { input in
            let queue = try openQueue(at: input.storeURL, settings: input.settings)
            try queue.inDatabase { db in
                try db.execute(sql: ItemTable.createSQL)
            }
            return PreparedRun(
                body: {
                    try queue.write { db in
                        let statement = try db.cachedStatement(sql: ItemTable.insertSQL)
                        for index in 0..<input.count {
                            let value = Int64(index)
                            let attributes = Array(repeating: value, count: ItemTable.attributeCount)
                            try statement.execute(arguments: StatementArguments([value + 1, ItemTable.entityNumber, 1] + attributes))
                        }
                    }
                    return Int64(input.count)
                },
                tearDown: { try queue.close() })
        }
    }
}
