extension Workload {
    /// Every workload, in the order `bench` runs them. Add new workloads here.
    static var all: [Workload] {
        [
            .w1InsertItems,
            .w1dInsertItemsIntoBinaryStore,
            .w1BatchInsertItems,
            .w1hInsertItemsWithHistory,
            .w1sInsertItemsThroughSwiftData,
            .w2FetchItems,
            .w2sFetchItemsThroughSwiftData,
            .w3aIndexedFetch,
            .w3bUnindexedFetch,
            .w3cPrefixFetch,
            .w3asIndexedFetchThroughSwiftData,
            .w4aCountAll,
            .w4bCountIndexed,
            .w4cCountUnindexed,
            .w5ToManyTraversal,
            .w6FetchedResults,
            .w7aBatchUpdate,
            .w7bBatchDelete,
            .w8aAddAttribute,
            .w8bRenameAndWiden,
            .w8cAddIndex,
            .w9IterateItems,
            .w10SmallSaves,
            .w11RemoteChange,
            .w1pInsertItemsIntoPostgreSQL,
            .w2pFetchItemsFromPostgreSQL,
            .w3apIndexedFetchFromPostgreSQL,
            .w10pSmallSavesToPostgreSQL,
            .w12pScalingWriters,
        ]
    }
}
