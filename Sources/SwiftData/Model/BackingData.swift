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
    /// This is extra API, for the accessors `@Model` writes.
    func _$setValue<Value>(_ newValue: Value, at ordinal: Int)
}

extension BackingData {
    public func _$value<Value>(at ordinal: Int) -> Value {
        let keyPath = Model.schemaMetadata[ordinal].keypath as! KeyPath<Model, Value>
        return getValue(forKey: keyPath)
    }

    public func _$setValue<Value>(_ newValue: Value, at ordinal: Int) {
        let keyPath = Model.schemaMetadata[ordinal].keypath as! KeyPath<Model, Value>
        setValue(forKey: keyPath, to: newValue)
    }

    /// Sets the value a model's initializer gives a property.
    ///
    /// This is extra API, for the initializer accessors `@Model` writes.
    public func _$setInitialValue<Value>(_ newValue: Value, at ordinal: Int) {
        _$setValue(newValue, at: ordinal)
    }
}

extension PersistentModel {
    /// The value of a persisted property.
    public func getValue<Value>(forKey key: KeyPath<Self, Value>) -> Value {
        persistentBackingData.getValue(forKey: key)
    }

    /// Sets the value of a persisted property.
    public func setValue<Value>(forKey key: KeyPath<Self, Value>, to newValue: Value) {
        persistentBackingData.setValue(forKey: key, to: newValue)
    }

    /// The value of a transformable property.
    public func getTransformableValue<Value>(forKey key: KeyPath<Self, Value>) -> Value {
        persistentBackingData.getTransformableValue(forKey: key)
    }

    /// Sets the value of a transformable property.
    public func setTransformableValue<Value>(forKey key: KeyPath<Self, Value>, to newValue: Value) {
        persistentBackingData.setTransformableValue(forKey: key, to: newValue)
    }

    /// The value of the property at a position in the schema metadata.
    ///
    /// This is extra API, for the accessors `@Model` writes.
    public func _$value<Value>(at ordinal: Int) -> Value {
        persistentBackingData._$value(at: ordinal)
    }

    /// Sets the value of the property at a position in the schema metadata.
    ///
    /// This is extra API, for the accessors `@Model` writes.
    public func _$setValue<Value>(_ newValue: Value, at ordinal: Int) {
        persistentBackingData._$setValue(newValue, at: ordinal)
    }
}
