internal import CoreData

extension ModelContext {
    /// Posted before a context saves; the object is the context.
    public static let willSave = Notification.Name("ModelContext.willSave")
    /// Posted after a context saved; the object is the context, and the user info holds the
    /// identifiers of the inserted, updated and deleted models under `NotificationKey`s.
    public static let didSave = Notification.Name("ModelContext.didSave")

    /// The keys of the did-save notification's user info.
    public enum NotificationKey: String {
        /// The identifiers of the inserted models: `[PersistentIdentifier]`.
        case insertedIdentifiers
        /// The identifiers of the updated models: `[PersistentIdentifier]`.
        case updatedIdentifiers
        /// The identifiers of the deleted models: `[PersistentIdentifier]`.
        case deletedIdentifiers
        /// Present when every model is to be considered changed.
        case invalidatedAllIdentifiers
        /// The query generation the context is pinned to.
        case queryGeneration
    }

    /// Reposts the Core Data context's save notifications as the model context's.
    ///
    /// The observers find the model context through the Core Data context's weak `owner`, so
    /// that they do not keep the model context alive.
    func observeSaves() {
        let center = NotificationCenter.default
        observers.append(
            center.addObserver(forName: .NSManagedObjectContextWillSave, object: managedContext, queue: nil) { notification in
                guard let context = Self.owner(of: notification) else { return }
                center.post(name: ModelContext.willSave, object: context)
            })
        observers.append(
            center.addObserver(forName: NSManagedObjectContext.didSaveObjectIDsNotification, object: managedContext, queue: nil) { notification in
                guard let context = Self.owner(of: notification) else { return }
                center.post(name: ModelContext.didSave, object: context, userInfo: Self.identifiers(in: notification))
            })
    }

    private static func owner(of notification: Notification) -> ModelContext? {
        (notification.object as? NSManagedObjectContext).flatMap(ModelContext.owning)
    }

    /// The identifiers of a save's models, from the object IDs the context's save reports.
    private static func identifiers(in notification: Notification) -> [AnyHashable: Any] {
        let keys: [(String, NotificationKey)] = [
            (NSInsertedObjectIDsKey, .insertedIdentifiers), (NSUpdatedObjectIDsKey, .updatedIdentifiers), (NSDeletedObjectIDsKey, .deletedIdentifiers),
        ]
        var userInfo: [AnyHashable: Any] = [:]
        for (coreDataKey, key) in keys {
            let objectIDs = notification.userInfo?[coreDataKey] as? Set<NSManagedObjectID> ?? []
            userInfo[key.rawValue] = objectIDs.map(PersistentIdentifier.init)
        }
        return userInfo
    }
}
