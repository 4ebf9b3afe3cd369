// Store types, option keys and metadata keys, with Apple's names and values.

/// The SQLite store type.
public let NSSQLiteStoreType: String = "SQLite"
/// The in-memory store type.
public let NSInMemoryStoreType: String = "InMemory"
/// The binary atomic store type.
public let NSBinaryStoreType: String = "Binary"
/// The XML atomic store type.
public let NSXMLStoreType: String = "XML"

/// Option: open the store read-only.
public let NSReadOnlyPersistentStoreOption: String = "NSReadOnlyPersistentStoreOption"
/// Option: seconds to wait for the store's lock.
public let NSPersistentStoreTimeoutOption: String = "NSPersistentStoreTimeoutOption"
/// Option: a dictionary of SQLite pragmas (name → value) to set when the store opens.
public let NSSQLitePragmasOption: String = "NSSQLitePragmasOption"
/// Option: run `ANALYZE` when the store opens.
public let NSSQLiteAnalyzeOption: String = "NSSQLiteAnalyzeOption"
/// Option: run `VACUUM` when the store opens.
public let NSSQLiteManualVacuumOption: String = "NSSQLiteManualVacuumOption"
/// Option: migrate an incompatible store automatically.
public let NSMigratePersistentStoresAutomaticallyOption: String = "NSMigratePersistentStoresAutomaticallyOption"
/// Option: infer the mapping model of an automatic migration.
public let NSInferMappingModelAutomaticallyOption: String = "NSInferMappingModelAutomaticallyOption"
/// Option: skip the version-hash comparison when the store opens.
public let NSIgnorePersistentStoreVersioningOption: String = "NSIgnorePersistentStoreVersioningOption"
/// Option: record persistent history.
public let NSPersistentHistoryTrackingKey: String = "NSPersistentHistoryTrackingKey"
/// Option: post a remote-change notification for every write to the store.
public let NSPersistentStoreRemoteChangeNotificationPostOptionKey: String = "NSPersistentStoreRemoteChangeNotificationOptionKey"
/// Option: the file protection of the store file. Accepted for compatibility; Linux ignores it.
public let NSPersistentStoreFileProtectionKey: String = "NSPersistentStoreFileProtectionKey"

/// Metadata key: the store type.
public let NSStoreTypeKey: String = "NSStoreType"
/// Metadata key: the store's UUID.
public let NSStoreUUIDKey: String = "NSStoreUUID"
/// Metadata key: the entity version hashes of the model the store was written with.
public let NSStoreModelVersionHashesKey: String = "NSStoreModelVersionHashes"
/// Metadata key: the version identifiers of the model the store was written with.
public let NSStoreModelVersionIdentifiersKey: String = "NSStoreModelVersionIdentifiers"
/// Metadata key: the OS version the store was written on.
public let NSPersistentStoreOSCompatibility: String = "NSPersistentStoreOSCompatibility"

/// Metadata keys Core Data writes into every SQLite store besides the public ones.
enum StoreMetadataKey {
    static let frameworkVersion = "NSPersistenceFrameworkVersion"
    static let hashesVersion = "NSStoreModelVersionHashesVersion"
    static let hashesDigest = "NSStoreModelVersionHashesDigest"
    static let checksum = "NSStoreModelVersionChecksumKey"
    static let autoVacuumLevel = "_NSAutoVacuumLevel"
    /// The store-level features beside the model: `[NSPersistentHistoryTrackingKey]` once the
    /// store has recorded persistent history.
    static let ancillaryModels = "_NSStoreAncillaryModelVersionHashesMetadataKey"
}

/// Keys of the userInfo of `NSPersistentStoreCoordinatorStoresDidChange`.
public let NSAddedPersistentStoresKey: String = "added"
/// Stores removed from the coordinator.
public let NSRemovedPersistentStoresKey: String = "removed"
/// Stores whose UUID changed.
public let NSUUIDChangedPersistentStoresKey: String = "changedUUID"

extension Notification.Name {
    /// Posted by a coordinator when stores are added or removed.
    public static let NSPersistentStoreCoordinatorStoresDidChange = Notification.Name("NSPersistentStoreCoordinatorStoresDidChangeNotification")
    /// Posted by a coordinator before stores are added or removed.
    public static let NSPersistentStoreCoordinatorStoresWillChange = Notification.Name("NSPersistentStoreCoordinatorStoresWillChangeNotification")
    /// Posted by a coordinator before it removes a store; its object is the coordinator, and it
    /// has no userInfo.
    public static let NSPersistentStoreCoordinatorWillRemoveStore = Notification.Name("NSPersistentStoreCoordinatorWillRemoveStoreNotification")
}
