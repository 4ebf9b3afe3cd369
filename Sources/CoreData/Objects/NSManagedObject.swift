/// An object of the object graph: an instance of an entity, managed by a context.
///
/// A managed object keeps its property values in slots laid out by its entity (see `EntityLayout`),
/// tracks its changes for the next save, and may be a fault whose values load on first access.
/// Subclass it to give an entity a class of its own; name the subclass in the entity's
/// `managedObjectClassName`.
///
/// Managed objects are confined to their context's queue, as on Apple platforms.
open class NSManagedObject: NSObject, KeyValueCodingReadable {
    /// The compiled layout of the object's entity.
    let layout: EntityLayout
    /// The model of the object's entity, which owns the entity and every description the object
    /// reads: an object may outlive its context and coordinator (in an error's `userInfo`, say).
    private let model: NSManagedObjectModel?

    // The stored state below is read on every property access. Objects are confined to their
    // context's queue and no accessor holds one of these properties across a call that could
    // reach it again, so the runtime's exclusivity checks (a call per access) are left out.

    /// Current values by slot, shared with the row they were read from until the first change;
    /// empty while the object is a fault.
    @exclusivity(unchecked) var values: SlotValues
    /// The persistent state this object was last read from or saved as.
    @exclusivity(unchecked) var snapshot: RowSnapshot? {
        willSet {
            // A fetched object's ID is its row's until asked for; keep it when the row goes.
            if storedObjectID == nil, newValue == nil, let value = snapshot?.identifier {
                storedObjectID = NSManagedObjectID(value: value)
            }
        }
    }
    /// Slots changed since the object was last fetched or saved.
    @exclusivity(unchecked) var changedSlots = SlotSet()
    /// For a fault fetched without its values: the fetch it came from and its position there.
    // A 32-bit position, with `flags` next to it, fills one 16-byte run of the instance: every
    // fetched object pays for this field, and a 4-billion-object fetch cannot fit in memory anyway.
    var faultBatch: (batch: FaultBatch, index: UInt32)?
    @exclusivity(unchecked) var flags: ObjectFlags = []
    /// The object's ID once one was made: a fetched object's is made from its row, and an
    /// inserted object's temporary one, only when something asks for it (so that fetches and
    /// bulk inserts allocate none).
    @exclusivity(unchecked) private var storedObjectID: NSManagedObjectID?
    /// The link to the object's context (see `ObjectContextLink`).
    @exclusivity(unchecked) private(set) var contextLink: ObjectContextLink?
    /// State that few objects have, allocated on first use so that objects stay small.
    @exclusivity(unchecked) private var rareState: RareObjectState?

    /// The context the object is registered in, or nil.
    public internal(set) var managedObjectContext: NSManagedObjectContext? {
        get { contextLink?.context }
        set { contextLink = newValue?.objectLink }
    }

    /// Whether the object was ever inserted into or fetched by a context: cheaper to ask than
    /// `managedObjectContext`, which loads a weak reference.
    package var hasBeenInAContext: Bool { contextLink != nil }

    /// Attribute slots holding a value of a type the attribute does not accept.
    var invalidSlots: SlotSet {
        get { rareState?.invalidSlots ?? SlotSet() }
        set { rareStateForWriting(isEmpty: newValue.isEmpty)?.invalidSlots = newValue }
    }

    /// The values of fetched properties read so far, kept until the object is refreshed, as on
    /// Apple platforms.
    var fetchedPropertyValues: [String: Any] {
        get { rareState?.fetchedPropertyValues ?? [:] }
        set { rareStateForWriting(isEmpty: newValue.isEmpty)?.fetchedPropertyValues = newValue }
    }

    /// The rare state to write a value into, made on first use; nil while an empty value (the
    /// default) is written, so that writing one allocates nothing.
    private func rareStateForWriting(isEmpty: Bool) -> RareObjectState? {
        if rareState == nil, !isEmpty { rareState = RareObjectState() }
        return rareState
    }

    /// Creates an object of an entity and inserts it into a context, when one is given.
    ///
    /// The object starts with the attributes' default values; `awakeFromInsert()` runs when it is
    /// inserted. Core Data also uses this initializer to create the objects it fetches, so every
    /// subclass must be able to run it.
    public required init(entity: NSEntityDescription, insertInto context: NSManagedObjectContext?) {
        precondition(!entity.isAbstract, "Cannot create an instance of the abstract entity '\(entity.entityName)'.")
        layout = entity.layout
        model = entity.managedObjectModel
        values = SlotValues(defaultsOf: layout)
        super.init()
        context?.insert(self)
    }

    /// Creates an object of the entity this class represents and inserts it into a context.
    ///
    /// The entity is the one of the context's model whose `managedObjectClassName` names this class.
    public convenience init(context moc: NSManagedObjectContext) {
        guard let entity = ManagedObjectClassRegistry.shared.entity(for: Self.self, in: moc.managedObjectModel) else {
            preconditionFailure("No entity of the context's model has the class \(String(reflecting: Self.self)).")
        }
        self.init(entity: entity, insertInto: moc)
    }

    deinit {
        // Through the link, not the context: the last release may come on any thread.
        if let contextLink, let identity = identity {
            contextLink.registry.unregister(identity, object: self)
        }
    }

    // MARK: Identity

    /// The object's address, as on Apple platforms: managed objects are equal only to themselves.
    ///
    /// Linux Foundation's `NSObject` hashes the object's identifier into `hash`, and a `Set` or
    /// dictionary then hashes that again; a save puts every saved object into such sets.
    open override var hash: Int {
        Int(bitPattern: UInt(bitPattern: ObjectIdentifier(self)))
    }

    /// The object's entity.
    open var entity: NSEntityDescription {
        layout.entity
    }

    /// The object's identifier: temporary until the object is saved, permanent afterwards.
    open var objectID: NSManagedObjectID {
        if let identifier { return identifier }
        let temporary = NSManagedObjectID.temporary(for: entity)
        storedObjectID = temporary
        objectContext?.register(self, as: temporary)
        return temporary
    }

    /// The object's ID when it has one (an inserted object has none until asked for it).
    var identifier: NSManagedObjectID? {
        if let storedObjectID { return storedObjectID }
        guard let value = snapshot?.identifier else { return nil }
        let made = NSManagedObjectID(value: value)
        storedObjectID = made
        return made
    }

    /// The identity the object is registered under, without making its ID.
    var identity: ObjectIdentity? {
        if let storedObjectID { return storedObjectID.identity(inHierarchyOf: layout) }
        return snapshot?.identifier?.identity(inHierarchyOf: layout)
    }

    /// Replaces the object's identifier (permanent ID assignment, or registration of a fetched row).
    func assignObjectID(_ objectID: NSManagedObjectID) {
        storedObjectID = objectID
    }

    /// The entity description for this class, found among the models in use.
    open class func entity() -> NSEntityDescription {
        guard let entity = ManagedObjectClassRegistry.shared.entity(for: self, in: nil) else {
            preconditionFailure("No entity of a model in use has the class \(String(reflecting: self)).")
        }
        return entity
    }

    /// A fetch request for the entity this class represents.
    open class func fetchRequest() -> NSFetchRequest<NSFetchRequestResult> {
        ManagedObjectClassRegistry.shared.register(self)
        return NSFetchRequest<NSFetchRequestResult>(entityName: entity().entityName)
    }

    /// The property each Swift key path into this class reads, such as `\Movie.title: "title"`.
    ///
    /// This is extra API. `NSSortDescriptor(keyPath:ascending:)` reads a key path's property name
    /// here; classes generated with code generation type "Class Definition" override it with
    /// their properties and those of their generated ancestors. For a key path it does not list, such as
    /// `\Character.movie.title`, the name is found by running the key path's accessors on a
    /// stand-in object, which needs the class's entity in a model in use. The default is empty.
    open class var propertyNamesByKeyPath: [AnyKeyPath: String] {
        [:]
    }

    /// Whether changes to keys outside the model leave the context clean; always true, as on Apple.
    open class var contextShouldIgnoreUnmodeledPropertyChanges: Bool {
        true
    }

    // MARK: State

    /// Whether the object has been inserted into its context and not saved yet.
    open var isInserted: Bool {
        flags.contains(.inserted)
    }

    /// Whether the object has unsaved changes to its properties.
    open var isUpdated: Bool {
        flags.contains(.updated) && !flags.contains(.inserted) && !flags.contains(.deleted)
    }

    /// Whether the object will be deleted from the store at the next save.
    open var isDeleted: Bool {
        flags.contains(.deleted)
    }

    /// Whether the object is inserted, updated or deleted.
    open var hasChanges: Bool {
        isInserted || isUpdated || isDeleted
    }

    /// Whether a persistent property differs from the last fetched or saved value.
    ///
    /// Unlike `hasChanges`, setting a property to an equal value or changing a transient
    /// property does not count.
    open var hasPersistentChangedValues: Bool {
        !changedPersistentValues().isEmpty
    }

    /// Whether the object is a fault: its values have not been loaded yet.
    open var isFault: Bool {
        flags.contains(.fault)
    }

    /// 0 when the object's values are loaded, 1 when it is a fault.
    open var faultingState: Int {
        isFault ? 1 : 0
    }

    // MARK: Key-value coding
    //
    // Linux's NSObject has no key-value coding, so NSManagedObject declares Apple's methods. They are
    // declared here, not in extensions, because Swift without Objective-C cannot override extension
    // members; their implementations live in NSManagedObject+KeyValueCoding.swift.

    /// The value of a property: an attribute value, the destination of a to-one relationship,
    /// or an `NSSet` (`NSOrderedSet` when ordered) of a to-many relationship's destinations.
    ///
    /// Numbers and booleans come back as `NSNumber`, decimals as `NSDecimalNumber`, and strings,
    /// dates, data, UUIDs and URLs as their Swift value types, as on Apple platforms.
    /// An unknown key is a programmer error and stops the program, as Apple's raises.
    open func value(forKey key: String) -> Any? {
        valueImplementation(forKey: key)
    }

    /// Sets the value of a property, keeping inverse relationships consistent and recording the
    /// change for the next save.
    ///
    /// Swift values and their Foundation counterparts are both accepted (`Int` or `NSNumber`,
    /// `String` or `NSString`, …). A value of the wrong type is kept and reported as a validation
    /// error when the context saves.
    open func setValue(_ value: Any?, forKey key: String) {
        setValueImplementation(value, forKey: key)
    }

    /// The value at the end of a dotted key path; a to-many step yields a set of the values beyond it.
    open func value(forKeyPath keyPath: String) -> Any? {
        valueImplementation(forKeyPath: keyPath)
    }

    /// Sets the value at the end of a dotted key path.
    open func setValue(_ value: Any?, forKeyPath keyPath: String) {
        setValueImplementation(value, forKeyPath: keyPath)
    }

    /// Sets several properties from a dictionary; `NSNull` stands for nil.
    open func setValuesForKeys(_ keyedValues: [String: Any]) {
        for (key, value) in keyedValues {
            setValue(value is NSNull ? nil : value, forKey: key)
        }
    }

    /// The values of several properties, with `NSNull` for nil.
    open func dictionaryWithValues(forKeys keys: [String]) -> [String: Any] {
        Dictionary(keys.map { ($0, value(forKey: $0) ?? NSNull()) }, uniquingKeysWith: { _, last in last })
    }

    /// The value of a property without access notification; use it inside custom accessors.
    open func primitiveValue(forKey key: String) -> Any? {
        primitiveValueImplementation(forKey: key)
    }

    /// Sets the value of a property without marking the object as changed or maintaining inverses.
    ///
    /// Use it inside custom accessors, between `willChangeValue(forKey:)` and
    /// `didChangeValue(forKey:)`; the latter records the change.
    open func setPrimitiveValue(_ value: Any?, forKey key: String) {
        setPrimitiveValueImplementation(value, forKey: key)
    }

    /// A mutable set whose changes edit the to-many relationship `key`, inverses included.
    open func mutableSetValue(forKey key: String) -> NSMutableSet {
        mutableSetImplementation(forKey: key)
    }

    /// A mutable ordered set whose changes edit the ordered to-many relationship `key`.
    open func mutableOrderedSetValue(forKey key: String) -> NSMutableOrderedSet {
        mutableOrderedSetImplementation(forKey: key)
    }

    /// Called before a property is read. Kept for source compatibility; Linux has no key-value observing.
    open func willAccessValue(forKey key: String?) {}

    /// Called after a property is read. Kept for source compatibility.
    open func didAccessValue(forKey key: String?) {}

    /// Called before a property changes; custom accessors call it before
    /// `setPrimitiveValue(_:forKey:)`, so that the context's undo manager can record the value
    /// being replaced. Overrides must call `super`.
    open func willChangeValue(forKey key: String) {
        willChangeValueImplementation(forKey: key)
    }

    /// Records that a property changed; custom accessors call it after `setPrimitiveValue(_:forKey:)`.
    open func didChangeValue(forKey key: String) {
        recordChange(forKey: key)
    }

    // MARK: Changes

    /// The keys and new values of persistent properties changed since the last fetch or save.
    ///
    /// Setting a property to an equal value does not count. To-many relationships are reported
    /// with their whole new set of destinations.
    open func changedValues() -> [String: Any] {
        changedValuesImplementation()
    }

    /// The keys and new values of persistent properties changed since the context last processed
    /// its pending changes (and posted `NSManagedObjectContextObjectsDidChange`).
    ///
    /// The context tells events apart from what it records for its undo manager. Without an
    /// undo manager, or for an object inserted in the current event, this returns the same as
    /// `changedValues()`.
    open func changedValuesForCurrentEvent() -> [String: Any] {
        changedValuesForCurrentEventImplementation()
    }

    /// The last fetched or saved values of the given keys (all persistent properties for nil),
    /// with `NSNull` for nil. Relationships give destination objects.
    open func committedValues(forKeys keys: [String]?) -> [String: Any] {
        committedValuesImplementation(forKeys: keys)
    }

    // MARK: Lifecycle
    //
    // Hooks that subclasses override. Each default does nothing, as on Apple platforms.

    /// Called once, when the object is first inserted into a context. Set initial values here.
    open func awakeFromInsert() {}

    /// Called after the object's values are loaded from its store.
    open func awakeFromFetch() {}

    /// Called after the object's values were reinitialized from a snapshot: by an undo or redo,
    /// a rollback, a refresh that kept the object's changes, or a merge policy resolving a
    /// conflict at save. `flags` holds the events that led to the call.
    ///
    /// Recompute derived values and transient state here; set values with primitive accessors
    /// (`setPrimitiveValue(_:forKey:)`) so that they are not recorded as changes.
    open func awake(fromSnapshotEvents flags: NSSnapshotEventType) {}

    /// Called when the context is about to save the object (inserted, updated or deleted).
    open func willSave() {}

    /// Called after the object has been saved.
    open func didSave() {}

    /// Called when the object is about to be deleted, before its delete propagates to relationships.
    open func prepareForDeletion() {}

    /// Called before the object turns into a fault.
    open func willTurnIntoFault() {}

    /// Called after the object turned into a fault.
    open func didTurnIntoFault() {}

    // MARK: Validation
    //
    // Implementations live in NSManagedObject+Validation.swift.

    /// Checks a value for a property against the model's constraints; throws a validation error.
    ///
    /// Subclasses may override it to validate or coerce a value; the pointer holds the value.
    open func validateValue(_ value: AutoreleasingUnsafeMutablePointer<AnyObject?>, forKey key: String) throws {
        try validateValueImplementation(value, forKey: key)
    }

    /// Checks that the object can be inserted: every property is valid.
    open func validateForInsert() throws {
        try validatePropertiesImplementation()
    }

    /// Checks that the object's changes can be saved: every property is valid.
    open func validateForUpdate() throws {
        try validatePropertiesImplementation()
    }

    /// Checks that the object can be deleted: no relationship with the deny rule has destinations.
    open func validateForDelete() throws {
        try validateDeleteImplementation()
    }

    open override var description: String {
        let address = "0x" + String(UInt(bitPattern: ObjectIdentifier(self).hashValue), radix: 16)
        let data = isFault ? "<fault>" : "{\n" + layout.slots.map { "    \($0.name) = \(describe(values[$0.index]));" }.joined(separator: "\n") + "\n}"
        return "<\(type(of: self)): \(address)> (entity: \(entity.entityName); id: \(objectID); data: \(data))"
    }

    private func describe(_ value: Any?) -> String {
        switch value {
        case nil: return "nil"
        case let object as NSManagedObject: return "\(object.objectID)"
        case let related as RelatedObjects: return "<relationship: \(related.count) objects>"
        case let value?: return "\(value)"
        }
    }
}

/// The state of a managed object that few objects have (see `NSManagedObject.rareState`).
private final class RareObjectState {
    var invalidSlots = SlotSet()
    var fetchedPropertyValues: [String: Any] = [:]
}
