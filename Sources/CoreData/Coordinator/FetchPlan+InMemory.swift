extension FetchPlan {
    /// The rows among `rows` that the plan selects, evaluated in memory: rows of the plan's
    /// entities that match its predicate, sorted and paged. Stores that cannot query (the
    /// in-memory store, custom stores) answer fetches with it.
    func evaluate(on rows: some Sequence<RowSnapshot>, of store: PersistentStoreEngine) throws -> [RowSnapshot] {
        let wanted = Set(entities.map(ObjectIdentifier.init))
        var matches: [RowSnapshot] = []
        for row in rows where wanted.contains(ObjectIdentifier(row.objectIDValue.entity)) {
            if let predicate, !(try predicate.evaluate(with: StoredRow(row: row, store: store), variables: [:])) {
                continue
            }
            matches.append(row)
        }
        if !sortDescriptors.isEmpty {
            let wrapped = matches.map { StoredRow(row: $0, store: store) }
            matches = try SortOrdering.sorted(wrapped, by: sortDescriptors).map(\.row)
        }
        return page(of: matches)
    }
}
