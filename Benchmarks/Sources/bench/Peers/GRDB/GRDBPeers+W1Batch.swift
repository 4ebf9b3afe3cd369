import GRDB

extension GRDBPeers {
    /// W1-batch GRDB: one cached statement (W1's positional INSERT) executed with the row's
    /// arguments for every item, in one `write` transaction: GRDB's bulk insert without records.
    static var insertItemsWithStatement: Peer {
        insertPeer(named: "grdb-statement") { index, db in
            let value = Int64(index)
            let attributes = Array(repeating: value, count: ItemTable.attributeCount)
            try db.cachedStatement(sql: ItemTable.insertSQL).execute(arguments: StatementArguments([value + 1, ItemTable.entityNumber, 1] + attributes))
        }
    }
}
