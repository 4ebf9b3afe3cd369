extension SQLiteStore {
    /// Runs the first pending task of the store's deferred cleanup, in one transaction with the
    /// metadata that records what is left. Returns whether there was a task. Called under the
    /// coordinator's lock.
    func runDeferredCleanupTask() throws -> Bool {
        guard storedMetadata[DeferredCleanupTask.metadataKey] != nil || storedMetadata[NSPersistentStoreDeferredLightweightMigrationOptionKey] != nil else {
            return false
        }
        let (connection, schema) = try writingDatabase()
        do {
            let (ran, remaining) = try connection.transaction {
                let metadata = try SQLMetadataTable.read(from: connection, storeType: NSSQLiteStoreType)
                var tasks = DeferredCleanupTask.pending(in: metadata)
                let task = tasks.isEmpty ? nil : tasks.removeFirst()
                try task?.run(on: connection, schema: schema)
                try SQLMetadataTable.write(DeferredCleanupTask.recording(tasks, in: metadata), to: connection)
                return (task != nil, tasks)
            }
            storedMetadata = DeferredCleanupTask.recording(remaining, in: storedMetadata)
            return ran
        } catch {
            throw CoreDataError.make(
                NSMigrationError,
                "The deferred cleanup of the migration of the store at \(url?.path ?? "?") failed; it stays pending.",
                userInfo: [NSUnderlyingErrorKey: error]
            )
        }
    }
}
