/// The store metadata in `Z_METADATA`: one row holding the store UUID (`Z_UUID`) and a binary
/// property list (`Z_PLIST`) of Apple's keys: store type, framework version, entity version
/// hashes, model version identifiers, digest, checksum, and the application's own keys.
package enum SQLMetadataTable {
    /// Reads the metadata, adding `NSStoreUUIDKey` (from `Z_UUID`) and `NSStoreTypeKey` (the
    /// store type given when the property list has none).
    package static func read<Database: SQLDatabase>(from connection: Database, storeType: String) throws -> [String: Any] {
        let row = try connection.statement("SELECT Z_UUID, Z_PLIST FROM Z_METADATA WHERE Z_VERSION = 1").readFirstRow { row in
            (uuid: row.string(at: 0), plist: row.data(at: 1) ?? Data())
        }
        guard let row else {
            throw CoreDataError.storeOpen(connection.location, "its Z_METADATA table has no metadata row.")
        }
        var metadata: [String: Any] = [:]
        if !row.plist.isEmpty {
            let parsed: BinaryPropertyList.Value
            do {
                parsed = try BinaryPropertyList.parse(row.plist)
            } catch {
                throw CoreDataError.storeOpen(connection.location, "its metadata property list cannot be read.", underlying: error)
            }
            guard let dictionary = parsed.propertyListObject as? [String: Any] else {
                throw CoreDataError.storeOpen(connection.location, "its metadata is not a dictionary.")
            }
            metadata = dictionary
        }
        metadata[NSStoreUUIDKey] = row.uuid
        metadata[NSStoreTypeKey] = metadata[NSStoreTypeKey] ?? storeType
        return metadata
    }

    /// Writes the metadata row (the UUID goes to `Z_UUID`, everything else into the property
    /// list), inside the caller's transaction.
    package static func write<Database: SQLDatabase>(_ metadata: [String: Any], to connection: Database) throws {
        var plist = metadata
        let uuid = plist.removeValue(forKey: NSStoreUUIDKey) as? String ?? UUID().uuidString
        let data = BinaryPropertyList.serialize(try BinaryPropertyList.Value(propertyList: plist))
        let upsert = try connection.statement(connection.dialect.upsertingMetadataRow)
        upsert.bind([.text(uuid), .blob(data)])
        try upsert.run()
    }
}
