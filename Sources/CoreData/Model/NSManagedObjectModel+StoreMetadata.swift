extension NSManagedObjectModel {
    /// Returns, for the version information in given metadata, a model merged from a given array
    /// of models.
    ///
    /// This is the companion of `mergedModel(from:forStoreMetadata:)` for models already loaded,
    /// such as every version of a program's models: the models whose entities all appear in the
    /// metadata's `NSStoreModelVersionHashes` with the same hashes are merged, in order (a model
    /// with an entity of a name an earlier match has is left out), and the result must hold every
    /// entity of the metadata.
    ///
    /// - Parameters:
    ///   - models: The candidate models.
    ///   - metadata: A store's metadata, with its `NSStoreModelVersionHashes`.
    /// - Returns: The merged model, or nil when the matching models do not make up the store's
    ///   model (or the metadata has no version hashes).
    public convenience init?(byMerging models: [NSManagedObjectModel], forStoreMetadata metadata: [String: Any]) {
        guard let stored = metadata[NSStoreModelVersionHashesKey] as? [String: Any] else { return nil }
        var names = Set<String>()
        let matching = models.filter { model in
            let hashes = model.entityVersionHashesByName
            guard !hashes.isEmpty, hashes.allSatisfy({ name, hash in Self.hash(stored[name]) == hash }),
                  names.isDisjoint(with: hashes.keys) else { return false }
            names.formUnion(hashes.keys)
            return true
        }
        self.init(byMerging: matching)
        guard isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata) else { return nil }
    }
}
