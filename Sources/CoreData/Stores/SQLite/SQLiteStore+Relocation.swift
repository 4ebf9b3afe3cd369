// The SQLite store's move to another file, behind the coordinator's `setURL(_:for:)`.
extension SQLiteStore: RelocatableStore {
    func relocate(to newURL: URL, model: NSManagedObjectModel) -> Bool {
        guard pendingSave == nil, newURL.isFileURL, Self.fileHasContent(newURL), let oldURL = url else { return false }
        do {
            try open(newURL, model: model)
            return true
        } catch {
            // The old file was fine a moment ago; if it no longer opens, the store stays closed
            // and its next use reports that it is not open.
            try? open(oldURL, model: model)
            return false
        }
    }

    /// Closes the store and opens the store file at `url`.
    private func open(_ url: URL, model: NSManagedObjectModel) throws {
        unload()
        self.url = url
        externalStorage = ExternalBinaryStorage(storeURL: url)
        try load(model: model)
    }
}
