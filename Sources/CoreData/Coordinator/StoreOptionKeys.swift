// Store option and metadata keys added after the first releases, with Apple's names and values.

/// Option: the maximum number of connections a store that handles requests concurrently may
/// open (an `NSNumber`). Accepted for compatibility: the SQLite store serves every request of its
/// coordinator through one connection, plus one for each query generation in use, whatever the
/// value; the size is implementation-dependent, as Apple documents.
public let NSPersistentStoreConnectionPoolMaxSizeKey: String = "NSPersistentStoreConnectionPoolMaxSizeKey"

/// Option of `destroyPersistentStore(at:type:options:)`: destroy the store's files even if that
/// might be unsafe, overriding locks. Destroying a store here always removes its files, whether
/// another coordinator has them open or not, so the option changes nothing.
public let NSPersistentStoreForceDestroyOption: String = "NSPersistentStoreForceDestroyOption"

/// Metadata key: the version checksum of the model a store was written with, the model's
/// `versionChecksum`.
public let NSPersistentStoreModelVersionChecksumKey: String = StoreMetadataKey.checksum

/// Option and metadata key for deferred lightweight migrations.
///
/// Set to `true` in a SQLite store's options together with `NSMigratePersistentStoresAutomaticallyOption`
/// and `NSInferMappingModelAutomaticallyOption`, it lets the store's lightweight migration postpone
/// its expensive cleanup: dropping removed columns (which rewrites a table), dropping the tables of
/// removed entities and creating new non-unique indexes. The store is fully usable before the
/// cleanup runs. While cleanup is pending, the store's metadata holds `true` under this key;
/// `finishDeferredLightweightMigration()` or `finishDeferredLightweightMigrationTask()` runs it.
public let NSPersistentStoreDeferredLightweightMigrationOptionKey: String = "NSPersistentStoreDeferredLightweightMigrationOptionKey"
