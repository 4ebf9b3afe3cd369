/// A request a persistent store coordinator hands to its stores.
open class NSPersistentStoreRequest: NSObject, NSCopying {
    /// The stores the request is limited to; nil means every store that holds the entity.
    open var affectedStores: [NSPersistentStore]?

    /// The kind of request.
    open var requestType: NSPersistentStoreRequestType {
        .fetchRequestType
    }

    public override init() {
        super.init()
    }

    open func copy(with zone: NSZone? = nil) -> Any {
        let copy = NSPersistentStoreRequest()
        copy.affectedStores = affectedStores
        return copy
    }
}
