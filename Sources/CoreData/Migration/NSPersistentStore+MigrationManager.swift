extension NSPersistentStore {
    /// Returns the class of the migration manager that migrates stores of this class:
    /// `NSMigrationManager` for every built-in store.
    public class func migrationManagerClass() -> AnyClass {
        NSMigrationManager.self
    }
}
