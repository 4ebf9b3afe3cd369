// Finishing the cleanup that lightweight migrations run with
// `NSPersistentStoreDeferredLightweightMigrationOptionKey` postponed.
extension NSPersistentStoreCoordinator {
    /// Executes all remaining tasks of a deferred lightweight migration.
    ///
    /// Runs the pending cleanup of every SQLite store of the coordinator: the removed columns
    /// and tables are dropped and the missing indexes created, each task in a transaction of its
    /// own, while the coordinator's stores serve no other request. Afterwards the stores'
    /// metadata no longer holds `NSPersistentStoreDeferredLightweightMigrationOptionKey`. Without
    /// pending tasks it does nothing.
    ///
    /// - Throws: `NSMigrationError` (134110) when a task fails; that task and the ones after it
    ///   stay pending, the ones before it are done.
    public func finishDeferredLightweightMigration() throws {
        try withStores { stores in
            for store in stores.compactMap({ $0 as? SQLiteStore }) {
                while try store.runDeferredCleanupTask() {}
            }
        }
    }

    /// Executes a single pending task of a deferred lightweight migration: the first task of
    /// the first store of the coordinator that has one. Without pending tasks it does nothing.
    ///
    /// - Throws: `NSMigrationError` (134110) when the task fails; it then stays pending.
    public func finishDeferredLightweightMigrationTask() throws {
        try withStores { stores in
            for store in stores.compactMap({ $0 as? SQLiteStore }) where try store.runDeferredCleanupTask() {
                return
            }
        }
    }
}
