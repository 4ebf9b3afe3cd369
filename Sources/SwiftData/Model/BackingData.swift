/// The storage of a model's persisted properties.
///
/// SwiftData provides the implementation; the code `@Model` writes reads and writes values
/// through it. Use the model's properties rather than these members.
public protocol BackingData<Model> {
    associatedtype Model: PersistentModel

    /// Creates storage for a model that is not in a context yet.
    init(for modelType: Model.Type)

    /// The identifier of the model the storage belongs to.
    var persistentModelID: PersistentIdentifier? { get set }

    /// Information about the storage.
    var metadata: Any { get }

    /// The value of a persisted property.
    func getValue<Value>(forKey key: KeyPath<Model, Value>) -> Value

    /// Sets the value of a persisted property.
    func setValue<Value>(forKey key: KeyPath<Model, Value>, to newValue: Value)

    /// The value of a transformable property.
    func getTransformableValue<Value>(forKey key: KeyPath<Model, Value>) -> Value

    /// Sets the value of a transformable property.
    func setTransformableValue<Value>(forKey key: KeyPath<Model, Value>, to newValue: Value)

    /// The value of the property at a position in the model's schema metadata.
    ///
    /// This is extra API, for the accessors `@Model` writes, which know the position.
    func _$value<Value>(at ordinal: Int) -> Value

    /// Sets the value of the property at a position in the model's schema metadata.
    ///
    /// This is extra API, for the accessors `@Model` writes, which pass the model that writes
    /// (nil in its initializer), whose backing data relating it may replace.
    func _$setValue<Value>(_ newValue: Value, at ordinal: Int, of owner: Model?)

    /// The value of an integer property, without boxing it; nil when it has none.
    ///
    /// This is extra API, for the accessors `@Model` writes, and so are the members below: an
    /// accessor of an `Int`, `Int64`, `Double` or `Bool` property (optional or not) reads and
    /// writes through them, with no dynamic cast.
    func _$integer(at ordinal: Int) -> Int64?
    /// Sets an integer property, or clears it with nil.
    func _$setInteger(_ newValue: Int64?, at ordinal: Int)
    /// The value of a `Double` property; nil when it has none.
    func _$double(at ordinal: Int) -> Double?
    /// Sets a `Double` property, or clears it with nil.
    func _$setDouble(_ newValue: Double?, at ordinal: Int)
    /// The value of a `Bool` property; nil when it has none.
    func _$bool(at ordinal: Int) -> Bool?
    /// Sets a `Bool` property, or clears it with nil.
    func _$setBool(_ newValue: Bool?, at ordinal: Int)

    /// The backing data as the object it is, which the code `@Model` writes stores.
    ///
    /// This is extra API, for the code `@Model` writes. Asked of an existential, it costs no
    /// dynamic cast: the conformance it is called through is the one the result needs.
    func _$object() -> any BackingData<Model> & AnyObject
}

extension BackingData where Self: AnyObject {
    public func _$object() -> any BackingData<Model> & AnyObject {
        self
    }
}

extension BackingData {
    public func _$object() -> any BackingData<Model> & AnyObject {
        preconditionFailure("The backing data of \(Model.self) is not SwiftData's")
    }
}

extension BackingData {
    public func _$value<Value>(at ordinal: Int) -> Value {
        let keyPath = Model.schemaMetadata[ordinal].keypath as! KeyPath<Model, Value>
        return getValue(forKey: keyPath)
    }

    public func _$setValue<Value>(_ newValue: Value, at ordinal: Int, of owner: Model?) {
        let keyPath = Model.schemaMetadata[ordinal].keypath as! KeyPath<Model, Value>
        setValue(forKey: keyPath, to: newValue)
    }

    /// Sets the value a model's initializer gives a property.
    ///
    /// This is extra API, for the initializer accessors `@Model` writes.
    @inlinable @inline(__always)
    public func _$setInitialValue<Value>(_ newValue: Value, at ordinal: Int) {
        _$assign(newValue, at: ordinal, of: nil)
    }

    /// Reads a property: scalars of the common types through their own requirements (the
    /// comparisons of `Value` fold away where the accessor is compiled), others generically.
    ///
    /// This is extra API, for the accessors `@Model` writes.
    @inlinable @inline(__always)
    public func _$read<Value>(at ordinal: Int) -> Value {
        if Value.self == Int.self { return unsafeBitCast(Int(truncatingIfNeeded: _$integer(at: ordinal) ?? 0), to: Value.self) }
        if Value.self == Int?.self { return unsafeBitCast(_$integer(at: ordinal).map { Int(truncatingIfNeeded: $0) }, to: Value.self) }
        if Value.self == Int64.self { return unsafeBitCast(_$integer(at: ordinal) ?? 0, to: Value.self) }
        if Value.self == Int64?.self { return unsafeBitCast(_$integer(at: ordinal), to: Value.self) }
        if Value.self == Double.self { return unsafeBitCast(_$double(at: ordinal) ?? 0, to: Value.self) }
        if Value.self == Double?.self { return unsafeBitCast(_$double(at: ordinal), to: Value.self) }
        if Value.self == Bool.self { return unsafeBitCast(_$bool(at: ordinal) ?? false, to: Value.self) }
        if Value.self == Bool?.self { return unsafeBitCast(_$bool(at: ordinal), to: Value.self) }
        return _$value(at: ordinal)
    }

    /// Writes a property, as `_$read(at:)` reads it.
    ///
    /// This is extra API, for the accessors `@Model` writes.
    @inlinable @inline(__always)
    public func _$assign<Value>(_ newValue: Value, at ordinal: Int, of owner: Model?) {
        if Value.self == Int.self { return _$setInteger(Int64(unsafeBitCast(newValue, to: Int.self)), at: ordinal) }
        if Value.self == Int?.self { return _$setInteger(unsafeBitCast(newValue, to: Int?.self).map(Int64.init), at: ordinal) }
        if Value.self == Int64.self { return _$setInteger(unsafeBitCast(newValue, to: Int64.self), at: ordinal) }
        if Value.self == Int64?.self { return _$setInteger(unsafeBitCast(newValue, to: Int64?.self), at: ordinal) }
        if Value.self == Double.self { return _$setDouble(unsafeBitCast(newValue, to: Double.self), at: ordinal) }
        if Value.self == Double?.self { return _$setDouble(unsafeBitCast(newValue, to: Double?.self), at: ordinal) }
        if Value.self == Bool.self { return _$setBool(unsafeBitCast(newValue, to: Bool.self), at: ordinal) }
        if Value.self == Bool?.self { return _$setBool(unsafeBitCast(newValue, to: Bool?.self), at: ordinal) }
        _$setValue(newValue, at: ordinal, of: owner)
    }
}

extension PersistentModel {
    /// The value of a persisted property.
    public func getValue<Value>(forKey key: KeyPath<Self, Value>) -> Value {
        persistentBackingData.getValue(forKey: key)
    }

    /// Sets the value of a persisted property.
    public func setValue<Value>(forKey key: KeyPath<Self, Value>, to newValue: Value) {
        // Through the object that remembers its model, which relating the model may rebind.
        modelObject.setValue(forKey: key, to: newValue)
    }

    /// The value of a transformable property.
    public func getTransformableValue<Value>(forKey key: KeyPath<Self, Value>) -> Value {
        persistentBackingData.getTransformableValue(forKey: key)
    }

    /// Sets the value of a transformable property.
    public func setTransformableValue<Value>(forKey key: KeyPath<Self, Value>, to newValue: Value) {
        modelObject.setTransformableValue(forKey: key, to: newValue)
    }
}
