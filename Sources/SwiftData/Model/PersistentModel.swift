/// A class whose instances SwiftData stores: the `@Model` macro conforms a class to it.
///
/// A model's persisted properties keep their values in its backing data. Until the model is
/// inserted into a context, the backing data holds them on its own; afterwards, they are the
/// values of the context's object, which saving writes to the store.
public protocol PersistentModel: AnyObject, Observable, Hashable, Identifiable {
    /// Creates a model over existing backing data, as SwiftData does for the models it fetches.
    init(backingData: any BackingData<Self>)

    /// The storage of the model's persisted properties.
    var persistentBackingData: any BackingData<Self> { get set }

    /// The model's persisted properties, in the order the class declares them.
    static var schemaMetadata: [Schema.PropertyMetadata] { get }

    /// The uniqueness constraints and indexes the class declares with `#Unique` and `#Index`.
    ///
    /// This is extra API, for the code `@Model` writes.
    static var _$modelConstraints: [Schema._ModelConstraint] { get }

    /// The positions in the schema metadata of the class's persisted `let`s.
    ///
    /// This is extra API, for the code `@Model` writes. A constant keeps its value in the
    /// class's own storage, which is saved when the model is inserted.
    static var _$constantOrdinals: [Int] { get }
}

extension PersistentModel {
    public static var _$modelConstraints: [Schema._ModelConstraint] { [] }

    public static var _$constantOrdinals: [Int] { [] }

    /// The model's identifier: temporary until the model is first saved, permanent afterwards.
    public var persistentModelID: PersistentIdentifier {
        modelObject.persistentIdentifier
    }

    /// The identifier `Identifiable` uses.
    public var id: PersistentIdentifier { persistentModelID }

    /// The context the model was inserted into or fetched from, if any.
    public var modelContext: ModelContext? {
        modelObject.managedObjectContext.flatMap(ModelContext.owning)
    }

    /// Whether the model has unsaved changes.
    public var hasChanges: Bool {
        modelObject.hasChanges
    }

    /// Whether the model is deleted, or marked for deletion at the next save.
    public var isDeleted: Bool {
        modelObject.isDeleted
    }

    /// New backing data for a model that is not in a context yet.
    public static func createBackingData<P: PersistentModel>() -> some BackingData<P> {
        ModelObject<P>.makeBackingData()
    }

    /// New backing data for a model, typed as the object it is, so that the accessors `@Model`
    /// writes call it with no copy of an existential.
    ///
    /// This is extra API, for the code `@Model` writes.
    ///
    /// Inlined into the model's initializer, where the model class is known, so that making the
    /// existential of the model class costs no look-up of its metadata.
    @inlinable
    public static func _$createBackingObject() -> any BackingData<Self> & AnyObject {
        guard let adopting = ModelAdoption.adoptingBackingObjectAddress(of: Self.self) else { return newBackingObject() }
        // The object is this class's backing data, stored as an `any BackingData & AnyObject`,
        // which differs from this type only in what the type system knows of its model class:
        // both are the object and its one conformance.
        return adopting.load(as: (any BackingData<Self> & AnyObject).self)
    }

    /// New backing data outside any context.
    @usableFromInline
    static func newBackingObject() -> any BackingData<Self> & AnyObject {
        ModelObject<Self>(for: Self.self)
    }

    /// Backing data a model is given, typed as the object it is.
    ///
    /// This is extra API, for the code `@Model` writes.
    public static func _$backingObject(_ backingData: any BackingData<Self>) -> any BackingData<Self> & AnyObject {
        backingData._$object()
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs === rhs
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(self))
    }

    /// `\.persistentModelID` and `\.id`, which predicates compare models by.
    static var identifierKeyPaths: [AnyKeyPath] { [\Self.persistentModelID, \Self.id] }

    /// The context object behind the model.
    var modelObject: ModelObject<Self> {
        ModelObject.backing(of: self)
    }
}
