extension NSPersistentStoreCoordinator {
    /// Registers a store class for a store type, so that adding a store of that type makes an
    /// instance of the class.
    ///
    /// Register a subclass before adding stores of its type. The coordinator makes each store
    /// through the class's `init(persistentStoreCoordinator:configurationName:at:options:)`.
    /// Registering a class for a type that has one replaces it, the built-in types included.
    ///
    /// - Parameters:
    ///   - storeClass: A subclass of `NSPersistentStore`, or nil to unregister the type.
    ///   - type: The store type the class implements.
    open class func registerStoreClass(_ storeClass: AnyClass?, type: NSPersistentStore.StoreType) {
        StoreRegistry.register(storeClass, for: type.rawValue)
    }

    /// Registers a store class for a store type given by its name.
    ///
    /// Apple deprecates this form in favour of ``registerStoreClass(_:type:)``; both register in
    /// the same table.
    ///
    /// - Parameters:
    ///   - storeClass: A subclass of `NSPersistentStore`, or nil to unregister the type.
    ///   - storeType: A name unique to the store type.
    open class func registerStoreClass(_ storeClass: AnyClass?, forStoreType storeType: String) {
        StoreRegistry.register(storeClass, for: storeType)
    }

    /// The registered store types: the store classes by type name, the built-in types included.
    ///
    /// Linux Foundation's `NSValue` cannot hold a class, so each value is an `NSNumber` (an
    /// `NSValue`) holding the address of the class's metadata:
    /// `unsafeBitCast(Int(truncating: value as! NSNumber), to: AnyClass.self)` gives the class back.
    open class var registeredStoreTypes: [String: NSValue] {
        StoreRegistry.registeredClasses.mapValues { NSNumber(value: unsafeBitCast($0, to: Int.self)) }
    }
}
