/// The row readers of a store, by fetched entity set, built once each. Used under the store's
/// coordinator's lock, like the whole store.
package final class SQLRowReaderCache {
    private var readers: [[ObjectIdentifier]: SQLRowReader] = [:]

    package init() {}

    package func reader(for entities: [NSEntityDescription], schema: SQLSchema) throws -> SQLRowReader {
        let key = entities.map(ObjectIdentifier.init)
        if let cached = readers[key] { return cached }
        let reader = try SQLRowReader(entities: entities, schema: schema)
        readers[key] = reader
        return reader
    }

    package func removeAll() {
        readers = [:]
    }
}
