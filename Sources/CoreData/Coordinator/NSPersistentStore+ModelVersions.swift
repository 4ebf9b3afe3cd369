/// A store's model configuration and the model versions its metadata records, as every store
/// type checks them.
extension NSPersistentStore {
    /// The store's configuration as the model's methods take it: nil for the default one.
    var modelConfiguration: String? {
        configurationName == NSManagedObjectModel.defaultConfigurationName ? nil : configurationName
    }

    /// Whether store metadata records the version of `model` that the store's configuration has.
    package func isCompatible(_ metadata: [String: Any], with model: NSManagedObjectModel) -> Bool {
        model.isConfiguration(withName: modelConfiguration, compatibleWithStoreMetadata: metadata)
    }

    /// The metadata of a new store: the model's version hashes, a new UUID and the store's type.
    package func newStoreMetadata(for model: NSManagedObjectModel) -> [String: Any] {
        var metadata = StoreMetadata.modelKeys(for: model.entities(forConfigurationName: modelConfiguration) ?? model.entities, model: model)
        metadata[NSStoreUUIDKey] = UUID().uuidString
        metadata[NSStoreTypeKey] = type
        return metadata
    }

    /// The error for a store file written with another model version (134100).
    package func incompatibleVersionError(_ metadata: [String: Any], url: URL) -> NSError {
        CoreDataError.make(
            NSPersistentStoreIncompatibleVersionHashError,
            "The model used to open the store is incompatible with the one used to create the store at \(url.path).",
            userInfo: [NSURLErrorKey: url, "metadata": metadata]
        )
    }
}
