// Sorts a database cannot order by: a relational store whose database has no collations for the
// comparison methods of sort descriptors sorts and pages those fetches in memory, so that they
// answer as SQLite's store and sorting in memory do.
extension RelationalStore {
    /// Whether a plan sorts by a comparison method the database has no collation for
    /// (`localizedStandardCompare:` and the others but `compare:`, outside SQLite): the store
    /// then sorts the matching rows in memory, by the comparison sorting in memory uses, and
    /// pages them there.
    func sortsInMemory(_ plan: FetchPlan) -> Bool {
        !dialect.hasComparisonCollations && plan.sortDescriptors.contains { (try? $0.selectorComparison().collationName) != nil }
    }

    func fetchRowsSortedInMemory(_ plan: FetchPlan) throws -> [RowSnapshot] {
        let matching = FetchPlan(entity: plan.entity, entities: plan.entities, predicate: plan.predicate, sortDescriptors: [], limit: 0, offset: 0)
        let rows = try fetchRows(matching).map { StoredRow(row: $0, store: self) }
        return plan.page(of: try SortOrdering.sorted(rows, by: plan.sortDescriptors).map(\.row))
    }
}
