/// The store metadata in `Z_METADATA`: one row holding the store UUID (`Z_UUID`) and a binary
/// property list (`Z_PLIST`) of Apple's keys: store type, framework version, entity version
/// hashes, model version identifiers, digest, checksum, and the application's own keys.
enum SQLiteMetadata {
    /// Reads the metadata, adding `NSStoreUUIDKey` (from `Z_UUID`) and `NSStoreTypeKey`.
    static func read(from connection: SQLiteConnection) throws -> [String: Any] {
        let statement = try connection.statement("SELECT Z_UUID, Z_PLIST FROM Z_METADATA WHERE Z_VERSION = 1")
        defer { statement.reset() }
        guard try statement.step() else {
            throw CoreDataError.storeOpen(URL(fileURLWithPath: connection.path), "its Z_METADATA table has no metadata row.")
        }
        let uuid = statement.string(at: 0)
        let plist = statement.data(at: 1) ?? Data()
        var metadata: [String: Any] = [:]
        if !plist.isEmpty {
            let parsed: BinaryPropertyList.Value
            do {
                parsed = try BinaryPropertyList.parse(plist)
            } catch {
                throw CoreDataError.storeOpen(URL(fileURLWithPath: connection.path), "its metadata property list cannot be read.", underlying: error)
            }
            guard let dictionary = parsed.propertyListObject as? [String: Any] else {
                throw CoreDataError.storeOpen(URL(fileURLWithPath: connection.path), "its metadata is not a dictionary.")
            }
            metadata = dictionary
        }
        metadata[NSStoreUUIDKey] = uuid
        metadata[NSStoreTypeKey] = metadata[NSStoreTypeKey] ?? NSSQLiteStoreType
        return metadata
    }

    /// Writes the metadata row (the UUID goes to `Z_UUID`, everything else into the property list).
    static func write(_ metadata: [String: Any], to connection: SQLiteConnection) throws {
        var plist = metadata
        let uuid = plist.removeValue(forKey: NSStoreUUIDKey) as? String ?? UUID().uuidString
        let data = BinaryPropertyList.serialize(try BinaryPropertyList.Value(propertyList: plist))
        let statement = try connection.statement("INSERT OR REPLACE INTO Z_METADATA (Z_VERSION, Z_UUID, Z_PLIST) VALUES (1, ?, ?)")
        statement.bind(uuid, at: 1)
        statement.bind(data, at: 2)
        try statement.run()
    }

    /// The metadata of a new store written with a model's entities.
    static func initial(for entities: [NSEntityDescription], model: NSManagedObjectModel) -> [String: Any] {
        var metadata = StoreMetadata.modelKeys(for: entities, model: model)
        metadata[NSStoreUUIDKey] = UUID().uuidString
        metadata[NSStoreTypeKey] = NSSQLiteStoreType
        metadata[StoreMetadataKey.autoVacuumLevel] = "2"
        return metadata
    }
}
