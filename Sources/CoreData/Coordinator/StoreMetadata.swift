/// The metadata keys every store records about the model it was written with.
package enum StoreMetadata {
    /// The framework version written into new stores (a recent Apple value, `spec/store-format.md` §5.10).
    static let frameworkVersion = 1344

    /// Whether a store's metadata says it records persistent history: Apple's Core Data keeps the
    /// version hashes of its history entities under `NSPersistentHistoryTrackingKey`.
    package static func recordsHistory(_ metadata: [String: Any]) -> Bool {
        (metadata[StoreMetadataKey.ancillaryModels] as? [String: Any])?[NSPersistentHistoryTrackingKey] != nil
    }

    /// The keys that describe the model a store was written with.
    static func modelKeys(for entities: [NSEntityDescription], model: NSManagedObjectModel) -> [String: Any] {
        let hashes = Dictionary(entities.map { ($0.entityName, $0.versionHash) }, uniquingKeysWith: { first, _ in first })
        return [
            StoreMetadataKey.frameworkVersion: frameworkVersion,
            NSStoreModelVersionHashesKey: hashes,
            StoreMetadataKey.hashesVersion: 3,
            NSStoreModelVersionIdentifiersKey: model.versionIdentifiers.compactMap { $0.base as? String }.sorted(),
            StoreMetadataKey.hashesDigest: VersionHash.modelDigest(hashes),
            StoreMetadataKey.checksum: VersionHash.modelChecksum(hashes),
        ]
    }
}
