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

    /// The value of an `Int16` attribute, found by its index in the entity, without boxing it.
    ///
    /// This is extra API, for the scalar accessors (`usesScalarValueType`) `coredata generate`
    /// and the `CoreDataCodegen` plugin write. The result is that of
    /// `(value(atPropertyIndex: index, named: key) as? NSNumber)?.int16Value ?? 0`, and so are
    /// its siblings' for their types.
    public func scalarValue(atPropertyIndex index: Int, named key: String) -> Int16 {
        scalar(atPropertyIndex: index, named: key)
    }

    /// The value of an `Int32` attribute; see `scalarValue(atPropertyIndex:named:) -> Int16`.
    public func scalarValue(atPropertyIndex index: Int, named key: String) -> Int32 {
        scalar(atPropertyIndex: index, named: key)
    }

    /// The value of an `Int64` attribute; see `scalarValue(atPropertyIndex:named:) -> Int16`.
    public func scalarValue(atPropertyIndex index: Int, named key: String) -> Int64 {
        scalar(atPropertyIndex: index, named: key)
    }

    /// The value of a `Float` attribute; see `scalarValue(atPropertyIndex:named:) -> Int16`.
    public func scalarValue(atPropertyIndex index: Int, named key: String) -> Float {
        scalar(atPropertyIndex: index, named: key)
    }

    /// The value of a `Double` attribute; see `scalarValue(atPropertyIndex:named:) -> Int16`.
    public func scalarValue(atPropertyIndex index: Int, named key: String) -> Double {
        scalar(atPropertyIndex: index, named: key)
    }

    /// The value of a `Bool` attribute; see `scalarValue(atPropertyIndex:named:) -> Int16`.
    public func scalarValue(atPropertyIndex index: Int, named key: String) -> Bool {
        scalar(atPropertyIndex: index, named: key)
    }

    /// Sets an `Int16` attribute, found by its index in the entity, without boxing the value.
    ///
    /// This is extra API, for generated scalar accessors. It does what
    /// `setValue(NSNumber(value: value), atPropertyIndex: index, named: key)` does, and so do its
    /// siblings for their types; the value being replaced is boxed only when the context's undo
    /// manager records it.
    public func setScalarValue(_ value: Int16, atPropertyIndex index: Int, named key: String) {
        setScalar(value, atPropertyIndex: index, named: key)
    }

    /// Sets an `Int32` attribute; see `setScalarValue(_:atPropertyIndex:named:)` for `Int16`.
    public func setScalarValue(_ value: Int32, atPropertyIndex index: Int, named key: String) {
        setScalar(value, atPropertyIndex: index, named: key)
    }

    /// Sets an `Int64` attribute; see `setScalarValue(_:atPropertyIndex:named:)` for `Int16`.
    public func setScalarValue(_ value: Int64, atPropertyIndex index: Int, named key: String) {
        setScalar(value, atPropertyIndex: index, named: key)
    }

    /// Sets a `Float` attribute; see `setScalarValue(_:atPropertyIndex:named:)` for `Int16`.
    public func setScalarValue(_ value: Float, atPropertyIndex index: Int, named key: String) {
        setScalar(value, atPropertyIndex: index, named: key)
    }

    /// Sets a `Double` attribute; see `setScalarValue(_:atPropertyIndex:named:)` for `Int16`.
    public func setScalarValue(_ value: Double, atPropertyIndex index: Int, named key: String) {
        setScalar(value, atPropertyIndex: index, named: key)
    }

    /// Sets a `Bool` attribute; see `setScalarValue(_:atPropertyIndex:named:)` for `Int16`.
    public func setScalarValue(_ value: Bool, atPropertyIndex index: Int, named key: String) {
        setScalar(value, atPropertyIndex: index, named: key)
    }

    /// The value of an integer attribute, found by its slot, without boxing it; nil when the
    /// attribute has none.
    ///
    /// For layers above Core Data whose properties are optional scalars (SwiftData's models),
    /// which know their slots from the entity's own layout: `slot` must be an attribute slot of
    /// the object's entity. The result is that of `(value(forKey: name) as? NSNumber)?.int64Value`,
    /// and so are its siblings' for their types.
    package func integerValue(atSlot slot: Int) -> Int64? {
        optionalScalar(atSlot: slot)
    }

    /// The value of a floating-point attribute; see `integerValue(atSlot:)`.
    package func doubleValue(atSlot slot: Int) -> Double? {
        optionalScalar(atSlot: slot)
    }

    /// The value of a Boolean attribute; see `integerValue(atSlot:)`.
    package func boolValue(atSlot slot: Int) -> Bool? {
        optionalScalar(atSlot: slot)
    }

    /// Sets an integer attribute, found by its slot, or clears it with nil, without boxing the
    /// value; see `integerValue(atSlot:)`.
    package func setIntegerValue(_ value: Int64?, atSlot slot: Int) {
        setOptionalScalar(value, atSlot: slot)
    }

    /// Sets a floating-point attribute; see `setIntegerValue(_:atSlot:)`.
    package func setDoubleValue(_ value: Double?, atSlot slot: Int) {
        setOptionalScalar(value, atSlot: slot)
    }

    /// Sets a Boolean attribute; see `setIntegerValue(_:atSlot:)`.
    package func setBoolValue(_ value: Bool?, atSlot slot: Int) {
        setOptionalScalar(value, atSlot: slot)
    }

    /// Reads a scalar slot's word, nil when the slot holds nothing; the boxed path when its
    /// value is no word.
    @inline(__always)
    private func optionalScalar<Value: SlotScalar>(atSlot slot: Int) -> Value? {
        checkConcurrency("value(forKey: \"\(layout.slotNames[slot])\")")
        fireFault(triggeredBy: slot)
        if let scalar = layout.scalar(atSlot: slot), let bits = values.word(atSlot: slot), let value = Value(bits: bits, scalar: scalar) {
            return value
        }
        return (value(atSlot: slot) as? NSNumber).map { Value(number: $0) }
    }

    /// Writes a scalar slot as `setScalar` does, or clears it through the boxed path.
    @inline(__always)
    private func setOptionalScalar<Value: SlotScalar>(_ value: Value?, atSlot slot: Int) {
        guard let value else {
            checkConcurrency("setValue(_:forKey: \"\(layout.slotNames[slot])\")")
            return setValue(nil, atSlot: slot)
        }
        setScalar(value, atPropertyIndex: slot, named: layout.slotNames[slot])
    }

    /// Reads a scalar slot's word when the slot is the named one and holds one; otherwise takes
    /// the boxed path, whose result the word gives without the box.
    @inline(__always)
    private func scalar<Value: SlotScalar>(atPropertyIndex index: Int, named key: String) -> Value {
        guard layout.hasSlot(index, named: key), let scalar = layout.scalar(atSlot: index) else {
            return Value(number: value(atPropertyIndex: index, named: key) as? NSNumber)
        }
        checkConcurrency("value(forKey: \"\(key)\")")
        fireFault(triggeredBy: index)
        if let bits = values.word(atSlot: index), let value = Value(bits: bits, scalar: scalar) { return value }
        return Value(number: value(atSlot: index) as? NSNumber)
    }

    /// Writes a scalar slot's word as `setValue(_:atSlot:)` would store the boxed value: undo
    /// record, validity and change tracking included.
    @inline(__always)
    private func setScalar<Value: SlotScalar>(_ value: Value, atPropertyIndex index: Int, named key: String) {
        guard layout.hasSlot(index, named: key), let scalar = layout.scalar(atSlot: index), let bits = value.bits(for: scalar) else {
            return setValue(value.number, atPropertyIndex: index, named: key)
        }
        checkConcurrency("setValue(_:forKey: \"\(key)\")")
        fireFault(triggeredBy: index)
        willChangeSlot(index)
        values.setWord(bits, atSlot: index)
        invalidSlots.remove(index)
        markChanged(slot: index)
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
