// Property access by index, for generated classes.
//
// Apple's generated `@NSManaged` properties read the object's storage directly. Without the
// Objective-C runtime, the accessors `coredata generate` writes call these methods with the
// property's index, known when the class was generated, so that a read costs no name lookup.
extension NSManagedObject {
    /// The value of a property, found by its index in the entity.
    ///
    /// This is extra API, for the accessors `coredata generate` and the `CoreDataCodegen` plugin
    /// write. `index` is the property's position among the entity's attributes and relationships
    /// (inherited ones first, fetched properties left out) in the model the class was generated
    /// from. When the object's entity has another property at that index (a model of another
    /// version, or a model built in code), the property is found by `key`. Either way the result
    /// is that of `NSManagedObject`'s own `value(forKey: key)`: like Apple's `@NSManaged`
    /// accessors, it does not go through a subclass's override of `value(forKey:)`.
    ///
    /// - Parameters:
    ///   - index: The property's index in the model the class was generated from.
    ///   - key: The property's name.
    /// - Returns: The value, as `value(forKey:)` returns it.
    public func value(atPropertyIndex index: Int, named key: String) -> Any? {
        guard layout.hasSlot(index, named: key) else { return valueImplementation(forKey: key) }
        checkConcurrency("value(forKey: \"\(key)\")")
        return value(atSlot: index)
    }

    /// Sets the value of a property, found by its index in the entity, as
    /// `setValue(_:forKey:)` does.
    ///
    /// This is extra API, for generated accessors; see `value(atPropertyIndex:named:)`.
    ///
    /// - Parameters:
    ///   - value: The new value.
    ///   - index: The property's index in the model the class was generated from.
    ///   - key: The property's name.
    public func setValue(_ value: Any?, atPropertyIndex index: Int, named key: String) {
        guard layout.hasSlot(index, named: key) else { return setValueImplementation(value, forKey: key) }
        checkConcurrency("setValue(_:forKey: \"\(key)\")")
        setValue(value, atSlot: index)
    }

    /// A mutable set that edits a to-many relationship, found by its index in the entity, as
    /// `mutableSetValue(forKey:)` returns.
    ///
    /// This is extra API, for generated to-many accessors; see `value(atPropertyIndex:named:)`.
    public func mutableSetValue(atPropertyIndex index: Int, named key: String) -> NSMutableSet {
        guard layout.hasSlot(index, named: key), layout.tags[index] == .toMany else { return mutableSetValue(forKey: key) }
        return ManagedRelationshipSet(owner: self, slot: index)
    }

    /// A mutable ordered set that edits an ordered to-many relationship, found by its index in
    /// the entity, as `mutableOrderedSetValue(forKey:)` returns.
    ///
    /// This is extra API, for generated to-many accessors; see `value(atPropertyIndex:named:)`.
    public func mutableOrderedSetValue(atPropertyIndex index: Int, named key: String) -> NSMutableOrderedSet {
        guard layout.hasSlot(index, named: key), layout.tags[index] == .toMany else { return mutableOrderedSetValue(forKey: key) }
        return ManagedRelationshipOrderedSet(owner: self, slot: index)
    }
}
