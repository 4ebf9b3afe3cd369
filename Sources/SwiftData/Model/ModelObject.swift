internal import CoreData

/// The context object behind a model of any class.
///
/// Each model holds its object as its backing data; the object points back to the model without
/// keeping it alive, so that fetches and relationships return the model already in memory, and a
/// model nobody holds goes away while its object stays registered with the context, as a managed
/// object does.
class AnyModelObject: NSManagedObject {
    let binding: EntityBinding

    // The object's own state, read for each model made and each property written; the object is
    // confined to its context's queue, as a managed object is, so the runtime's exclusivity
    // checks (a call per access) are left out.

    /// Whether the object's model is being made, whose initial values the object ignores.
    @exclusivity(unchecked) var isAdoptingModel = false
    /// What keeps the model context of the object's model alive, as `modelContext` promises:
    /// `try ModelContext(container).fetch(…)` returns models that still read.
    @exclusivity(unchecked) var modelContextLifetime: ModelContextLifetime?
    /// The model in memory for this object, if any. The object and its model are not generic
    /// over the model class here: code generic over it would look up the metadata of generic
    /// types for each model.
    @exclusivity(unchecked) private var modelReference = ModelReference()

    required init(entity: NSEntityDescription, insertInto context: NSManagedObjectContext?) {
        binding = EntityBinding.of(entity)
        super.init(entity: entity, insertInto: context)
    }

    /// The object's model, made when the object has none.
    var anyModel: any PersistentModel {
        preconditionFailure("Every model object is a ModelObject")
    }

    /// The model in memory for this object, if any.
    var untypedModel: AnyObject? {
        modelReference.load()
    }

    /// Makes a model the one the object gives out from now on.
    func remember(_ model: AnyObject) {
        modelReference.store(model)
    }

    /// The object's model, made when the object has none, with the lifetime of the model context
    /// it was fetched by, if known (which spares looking the context up).
    func untypedModel(fetchedBy fetchingContext: ModelContextLifetime?) -> AnyObject {
        if let model = untypedModel { return model }
        if modelContextLifetime == nil {
            modelContextLifetime = fetchingContext ?? managedObjectContext.flatMap(ModelContext.owning)?.lifetime
        }
        let made = binding.makeModel(self)
        remember(made)
        return made
    }

    /// Adds the objects this one is related to that are in no context.
    func collectRelatedObjectsOutsideContexts(into pending: inout [AnyModelObject]) {
        for property in binding.relationships {
            switch property.access {
            case .toOne:
                if let related = value(atPropertyIndex: property.slot, named: property.name) as? AnyModelObject, related.managedObjectContext == nil {
                    pending.append(related)
                }
            case .toMany:
                let related = value(atPropertyIndex: property.slot, named: property.name) as? NSSet
                for case let object as AnyModelObject in related?.allObjects ?? [] where object.managedObjectContext == nil {
                    pending.append(object)
                }
            case .attribute:
                continue
            }
        }
    }

    /// Copies the values of the model's persisted `let`s into the object, as it is inserted.
    func storeConstants() {}

    /// The object's identifier as SwiftData's.
    var persistentIdentifier: PersistentIdentifier {
        PersistentIdentifier(objectID)
    }

    // MARK: Values

    /// The Swift value of a persisted property.
    @inline(__always)
    func value(of property: EntityBinding.Property) -> Any? {
        switch property.access {
        case .attribute(let codec, let isOptional):
            guard let stored = value(atPropertyIndex: property.slot, named: property.name) else {
                return isOptional ? nil : codec.emptyValue
            }
            return codec.decode(stored) ?? (isOptional ? nil : codec.emptyValue)
        case .toOne:
            return (value(atPropertyIndex: property.slot, named: property.name) as? AnyModelObject)?.anyModel
        case .toMany(let destination):
            let related = value(atPropertyIndex: property.slot, named: property.name) as? NSSet
            return destination.boxedModels(of: related?.allObjects ?? [])
        }
    }

    /// Sets a persisted property from its Swift value.
    func setValue(_ newValue: Any?, of property: EntityBinding.Property) {
        switch property.access {
        case .attribute(let codec, let isOptional):
            let value = isOptional ? Self.unwrapped(newValue) : newValue
            setValue(value.flatMap(codec.encode), atPropertyIndex: property.slot, named: property.name)
        case .toOne:
            let related = (Self.unwrapped(newValue) as? any PersistentModel)?.anyModelObject
            let joined = joiningContexts(with: related.map { [$0] } ?? [])
            joined.owner.setValue(joined.related.first, atPropertyIndex: property.slot, named: property.name)
            return joined.owner.noteChange()
        case .toMany:
            let models = (newValue as? [any PersistentModel]) ?? []
            let joined = joiningContexts(with: models.map(\.anyModelObject))
            joined.owner.setValue(NSSet(array: joined.related), atPropertyIndex: property.slot, named: property.name)
            return joined.owner.noteChange()
        }
        noteChange()
    }

    /// Whether the object is in no context: a write of the value it holds changes nothing then
    /// (no change is tracked), which spares a new model's initial values that equal the
    /// entity's defaults.
    var isUnsettled: Bool {
        !hasBeenInAContext
    }

    /// Lets the object's context autosave after a change of the model, as after an insert.
    @inline(__always)
    func noteChange() {
        modelContextLifetime?.context.scheduleAutosave()
    }

    /// The value an optional holds, or nothing: a boxed optional's nil would be a value.
    private static func unwrapped(_ value: Any?) -> Any? {
        guard let value else { return nil }
        guard let optional = value as? any OptionalValue else { return value }
        return optional.wrappedValue
    }

    /// This object and the objects to relate it to, in one context: an object in a context
    /// cannot be related to one outside it, so the ones outside join the other's context, as
    /// SwiftData inserts the models a model in a context is related to. Joining a context may
    /// give an object a new one of the context's schema, which stands for it from then on. A
    /// saved object of another context is related as this context's object of its row.
    private func joiningContexts(with related: [AnyModelObject]) -> (owner: AnyModelObject, related: [AnyModelObject]) {
        guard let context = managedObjectContext ?? related.lazy.compactMap(\.managedObjectContext).first else { return (self, related) }
        // One graph of the objects outside contexts, so that each joins (and is rebound) once.
        let rebound = ModelContext.insertGraphs(of: self, and: related, into: context)
        func standIn(_ object: AnyModelObject) -> AnyModelObject { rebound[ObjectIdentifier(object)] ?? object }
        return (standIn(self), related.map { related in
            let object = standIn(related)
            guard let other = object.managedObjectContext, other !== context, !object.objectID.isTemporaryID else { return object }
            return context.object(with: object.objectID) as? AnyModelObject ?? object
        })
    }
}

/// The context object behind a model of one class, and the model's backing data.
// Managed objects are confined to their context's queue, and a model to its context's actor.
final class ModelObject<Model: PersistentModel>: AnyModelObject, BackingData {
    /// The model in memory for this object, if any.
    var model: Model? { untypedModel.map { unsafeDowncast($0, to: Model.self) } }

    convenience init(for modelType: Model.Type) {
        self.init(entity: ModelEntities.shared.entity(for: Model.self), insertInto: nil)
    }

    /// The backing data a new model starts with: the object whose model SwiftData is making,
    /// or a new object outside any context.
    static func makeBackingData() -> ModelObject<Model> {
        if let adopting = ModelAdoption.adoptingObject(of: Model.self) {
            return unsafeDowncast(adopting, to: ModelObject<Model>.self)
        }
        return ModelObject(for: Model.self)
    }

    override var anyModel: any PersistentModel { typedModel }

    override func storeConstants() {
        let ordinals = Model._$constantOrdinals
        guard !ordinals.isEmpty, let model else { return }
        let metadata = Model.schemaMetadata
        for ordinal in ordinals {
            setValue(model[keyPath: metadata[ordinal].keypath], of: binding.properties[ordinal])
        }
    }

    /// The object's model, made when the object has none.
    var typedModel: Model {
        unsafeDowncast(untypedModel(fetchedBy: nil), to: Model.self)
    }

    /// The object behind a model, which remembers the model from then on.
    static func backing(of model: Model) -> ModelObject<Model> {
        let object = of(model.persistentBackingData)
        if object.model == nil { object.remember(model) }
        return object
    }

    /// The object that is a model's backing data.
    ///
    /// Every backing data of SwiftData's is a `ModelObject`, and one of `Model` is a
    /// `ModelObject<Model>`: a cast of the object (not of the existential, whose metadata is
    /// looked up) to the class that is not generic spares looking up the generic class's metadata.
    static func of(_ backingData: any BackingData<Model>) -> ModelObject<Model> {
        let backingObject: AnyObject = backingData._$object()
        guard let object = backingObject as? AnyModelObject else {
            preconditionFailure("The backing data of \(Model.self) is not SwiftData's")
        }
        return unsafeDowncast(object, to: ModelObject<Model>.self)
    }

    /// The object's identifier; setting it does nothing, as the context assigns identifiers.
    var persistentModelID: PersistentIdentifier? {
        get { persistentIdentifier }
        set {}
    }

    var metadata: Any { entity.entityName }

    func _$value<Value>(at ordinal: Int) -> Value {
        value(of: binding.properties[ordinal]) as! Value
    }

    func _$setValue<Value>(_ newValue: Value, at ordinal: Int, of owner: Model?) {
        guard !isAdoptingModel else { return }
        let property = binding.properties[ordinal]
        guard property.isRelationship else { return setValue(newValue, of: property) }
        // Relating the model may give it new backing data, which needs the model, and release
        // this object, which the accessor calling here does not hold, in the middle of the write.
        if let owner, model == nil { remember(owner) }
        let held = Unmanaged.passRetained(self)
        defer { held.release() }
        setValue(newValue, of: property)
    }

    func _$integer(at ordinal: Int) -> Int64? {
        unboxedValue(at: ordinal)
    }

    func _$setInteger(_ newValue: Int64?, at ordinal: Int) {
        setUnboxedValue(newValue, at: ordinal)
    }

    func _$double(at ordinal: Int) -> Double? {
        unboxedValue(at: ordinal)
    }

    func _$setDouble(_ newValue: Double?, at ordinal: Int) {
        setUnboxedValue(newValue, at: ordinal)
    }

    func _$bool(at ordinal: Int) -> Bool? {
        unboxedValue(at: ordinal)
    }

    func _$setBool(_ newValue: Bool?, at ordinal: Int) {
        setUnboxedValue(newValue, at: ordinal)
    }

    /// A scalar property's value from its slot; through the property's codec when the
    /// attribute holds another kind of value.
    @inline(__always)
    private func unboxedValue<Value: UnboxedScalar>(at ordinal: Int) -> Value? {
        let scalar = binding.scalars[ordinal]
        guard scalar.kind == Value.kind else { return Value(converting: value(of: binding.properties[ordinal])) }
        return Value.read(from: self, atSlot: scalar.slot)
    }

    /// Sets a scalar property in its slot (not while the model is being made); through the
    /// property's codec when the attribute holds another kind of value.
    @inline(__always)
    private func setUnboxedValue<Value: UnboxedScalar>(_ newValue: Value?, at ordinal: Int) {
        guard !isAdoptingModel else { return }
        let scalar = binding.scalars[ordinal]
        guard scalar.kind == Value.kind else { return setValue(newValue, of: binding.properties[ordinal]) }
        if isUnsettled, Value.read(from: self, atSlot: scalar.slot) == newValue { return }
        Value.write(newValue, to: self, atSlot: scalar.slot)
        noteChange()
    }

    func getValue<Value>(forKey key: KeyPath<Model, Value>) -> Value {
        _$value(at: ordinal(of: key))
    }

    func setValue<Value>(forKey key: KeyPath<Model, Value>, to newValue: Value) {
        _$setValue(newValue, at: ordinal(of: key), of: nil)
    }

    func getTransformableValue<Value>(forKey key: KeyPath<Model, Value>) -> Value {
        getValue(forKey: key)
    }

    func setTransformableValue<Value>(forKey key: KeyPath<Model, Value>, to newValue: Value) {
        setValue(forKey: key, to: newValue)
    }

    private func ordinal(of key: AnyKeyPath) -> Int {
        guard let ordinal = binding.ordinalsByKeyPath[key] else {
            preconditionFailure("\(key) is not a persisted property of \(Model.self)")
        }
        return ordinal
    }
}

extension PersistentModel {
    /// The model's context object, whatever the class.
    var anyModelObject: AnyModelObject {
        modelObject
    }

    /// The models of context objects of this class, as an `[Self]` in an `Any`, so that
    /// casting it to the array type costs no per-element cast.
    static func boxedModels(of objects: [Any]) -> Any {
        objects.map { unsafeDowncast($0 as AnyObject, to: ModelObject<Self>.self).typedModel }
    }
}

/// The scalars whose accessors read and write their slots unboxed, with the engine's calls
/// for each.
protocol UnboxedScalar: Equatable {
    static var kind: EntityBinding.Scalar { get }
    static func read(from object: NSManagedObject, atSlot slot: Int) -> Self?
    static func write(_ value: Self?, to object: NSManagedObject, atSlot slot: Int)
    /// The value of a property whose attribute holds another kind of value.
    init?(converting value: Any?)
}

extension Int64: UnboxedScalar {
    static var kind: EntityBinding.Scalar { .integer }
    static func read(from object: NSManagedObject, atSlot slot: Int) -> Int64? { object.integerValue(atSlot: slot) }
    static func write(_ value: Int64?, to object: NSManagedObject, atSlot slot: Int) { object.setIntegerValue(value, atSlot: slot) }
    init?(converting value: Any?) {
        guard let integer = value as? any BinaryInteger else { return nil }
        self.init(truncatingIfNeeded: integer)
    }
}

extension Double: UnboxedScalar {
    static var kind: EntityBinding.Scalar { .double }
    static func read(from object: NSManagedObject, atSlot slot: Int) -> Double? { object.doubleValue(atSlot: slot) }
    static func write(_ value: Double?, to object: NSManagedObject, atSlot slot: Int) { object.setDoubleValue(value, atSlot: slot) }
    init?(converting value: Any?) {
        guard let double = value as? Double else { return nil }
        self = double
    }
}

extension Bool: UnboxedScalar {
    static var kind: EntityBinding.Scalar { .bool }
    static func read(from object: NSManagedObject, atSlot slot: Int) -> Bool? { object.boolValue(atSlot: slot) }
    static func write(_ value: Bool?, to object: NSManagedObject, atSlot slot: Int) { object.setBoolValue(value, atSlot: slot) }
    init?(converting value: Any?) {
        guard let bool = value as? Bool else { return nil }
        self = bool
    }
}
