/// The row readers and insert plans of a store, by fetched entity set and by entity. They hold
/// prepared statements of the store's connection, so the store empties the cache when it closes.
final class SQLiteQueryCache {
    private let readers = SQLRowReaderCache()
    private var insertPlans: [ObjectIdentifier: SQLiteInsertPlan] = [:]

    func insertPlan(for entity: NSEntityDescription) -> SQLiteInsertPlan? {
        insertPlans[ObjectIdentifier(entity)]
    }

    func setInsertPlan(_ plan: SQLiteInsertPlan, for entity: NSEntityDescription) {
        insertPlans[ObjectIdentifier(entity)] = plan
    }

    func removeAll() {
        readers.removeAll()
        insertPlans = [:]
    }

    func reader(for entities: [NSEntityDescription], schema: SQLSchema) throws -> SQLRowReader {
        try readers.reader(for: entities, schema: schema)
    }
}
