// Notification names and userInfo keys of managed object contexts, with Apple's names and values.

/// userInfo key: the objects inserted (a `Set<NSManagedObject>`).
public let NSInsertedObjectsKey: String = "inserted"
/// userInfo key: the objects updated.
public let NSUpdatedObjectsKey: String = "updated"
/// userInfo key: the objects deleted.
public let NSDeletedObjectsKey: String = "deleted"
/// userInfo key: the objects refreshed without being dirtied in this context.
public let NSRefreshedObjectsKey: String = "refreshed"
/// userInfo key: the objects invalidated.
public let NSInvalidatedObjectsKey: String = "invalidated"
/// userInfo key present when every object was invalidated (after `reset()`).
public let NSInvalidatedAllObjectsKey: String = "invalidatedAll"
/// userInfo key: the IDs of inserted objects.
public let NSInsertedObjectIDsKey: String = "inserted_objectIDs"
/// userInfo key: the IDs of updated objects.
public let NSUpdatedObjectIDsKey: String = "updated_objectIDs"
/// userInfo key: the IDs of deleted objects.
public let NSDeletedObjectIDsKey: String = "deleted_objectIDs"
/// userInfo key: the IDs of refreshed objects.
public let NSRefreshedObjectIDsKey: String = "refreshed_objectIDs"
/// userInfo key: the IDs of invalidated objects.
public let NSInvalidatedObjectIDsKey: String = "invalidated_objectIDs"
/// userInfo key: the query generation of the context.
public let NSManagedObjectContextQueryGenerationKey: String = "managedObjectContextQueryGeneration"

extension Notification.Name {
    /// Posted by a context when its registered objects change, at the end of each event.
    public static let NSManagedObjectContextObjectsDidChange = Notification.Name("NSManagedObjectContextObjectsDidChangeNotification")
    /// Posted by a context before it saves; it has no userInfo.
    public static let NSManagedObjectContextWillSave = Notification.Name("NSManagedObjectContextWillSaveNotification")
    /// Posted by a context after it saves, with the saved objects under the inserted, updated and deleted keys.
    public static let NSManagedObjectContextDidSave = Notification.Name("NSManagedObjectContextDidSaveNotification")
    /// Posted by a context after it saves, with the IDs of the saved objects under the inserted,
    /// updated and deleted object-ID keys.
    public static let NSManagedObjectContextDidSaveObjectIDs = Notification.Name("NSManagedObjectContextDidSaveObjectIDsNotification")
    /// Posted by a context after it merges changes, with the IDs of the merged objects.
    public static let NSManagedObjectContextDidMergeChangesObjectIDs = Notification.Name("NSManagedObjectContextDidMergeChangesObjectIDsNotification")
}

extension NSManagedObjectContext {
    /// Posted when a context's registered objects change (the same as `NSManagedObjectContextObjectsDidChange`).
    public static let didChangeObjectsNotification = Notification.Name.NSManagedObjectContextObjectsDidChange
    /// Posted before a context saves (the same as `NSManagedObjectContextWillSave`).
    public static let willSaveObjectsNotification = Notification.Name.NSManagedObjectContextWillSave
    /// Posted after a context saves, with objects (the same as `NSManagedObjectContextDidSave`).
    public static let didSaveObjectsNotification = Notification.Name.NSManagedObjectContextDidSave
    /// Posted after a context saves, with object IDs (the same as `NSManagedObjectContextDidSaveObjectIDs`).
    public static let didSaveObjectIDsNotification = Notification.Name.NSManagedObjectContextDidSaveObjectIDs
    /// Posted after a context merges changes, with object IDs (the same as
    /// `NSManagedObjectContextDidMergeChangesObjectIDs`).
    public static let didMergeChangesObjectIDsNotification = Notification.Name.NSManagedObjectContextDidMergeChangesObjectIDs

    /// Keys of the userInfo dictionaries of context notifications.
    public enum NotificationKey: String, Sendable {
        case insertedObjects = "inserted"
        case updatedObjects = "updated"
        case deletedObjects = "deleted"
        case refreshedObjects = "refreshed"
        case invalidatedObjects = "invalidated"
        case invalidatedAllObjects = "invalidatedAll"
        case insertedObjectIDs = "inserted_objectIDs"
        case updatedObjectIDs = "updated_objectIDs"
        case deletedObjectIDs = "deleted_objectIDs"
        case refreshedObjectIDs = "refreshed_objectIDs"
        case invalidatedObjectIDs = "invalidated_objectIDs"
        case queryGeneration = "managedObjectContextQueryGeneration"
    }
}
