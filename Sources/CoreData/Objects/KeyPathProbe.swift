/// Finds the property key path a Swift key path into an `NSManagedObject` subclass reads.
///
/// Without the Objective-C runtime a Swift key path such as `\Movie.title` has no string name,
/// and subclasses implement their accessors over `value(forKey:)`. The probe creates an instance
/// of the root class whose entity has no properties, so that every key its accessors ask for
/// reaches `NSManagedObject`'s undefined-key path, which hands it to `answer(forKey:of:)`. The
/// probe records the key and answers with a placeholder of the property's type (so that
/// accessors that force-cast succeed), or, for a to-one relationship, with another probe object
/// of the destination's class, so that `\Character.movie.title` records `movie.title`.
///
/// A key path is a plain property key path only when each key is asked of the object the
/// previous one returned; anything else (an accessor that reads two properties, or none) has no
/// name. Names are cached per key path, since accessors do not change.
final class KeyPathProbe {
    private static let lock = NSLock()
    /// The probes running, by the identity of their probe objects' entities (known before an
    /// object's initializer runs, unlike the object's identity); guarded by `lock`.
    private nonisolated(unsafe) static var running: [ObjectIdentifier: KeyPathProbe] = [:]
    /// Key paths already named; guarded by `lock`.
    private nonisolated(unsafe) static var names: [AnyKeyPath: String] = [:]

    /// The real entity behind each probe object's empty entity, which says what its keys hold.
    private var entities: [ObjectIdentifier: NSEntityDescription] = [:]
    /// The probe objects and their empty entities, kept alive so that their identities stay
    /// unique while probing.
    private var objects: [NSManagedObject] = []
    private var emptyEntities: [NSEntityDescription] = []
    /// Whether a probe object's initializer is running: what it reads is no part of the path.
    private var isInitializing = false
    private var keys: [String] = []
    /// The object the next key must be asked of to continue the path; nil after an attribute.
    private var expectedObject: ObjectIdentifier?
    private var isPlainPath = true

    /// The dotted key path `keyPath` reads, or nil when it reads none, reads something else than
    /// one chain of properties, or `Root` is the class of no entity of a model in use.
    static func keyPath<Root, Value>(of keyPath: KeyPath<Root, Value>) -> String? {
        if let known = lock.withLock({ names[keyPath] }) { return known }
        guard let rootClass = Root.self as? NSManagedObject.Type,
              let entity = ManagedObjectClassRegistry.shared.entity(for: rootClass, in: nil) else { return nil }
        let probe = KeyPathProbe()
        let root = probe.makeObject(of: rootClass, entity: entity)
        defer { probe.finish() }
        guard let typedRoot = root as? Root else { return nil }
        probe.expectedObject = ObjectIdentifier(root)
        _ = typedRoot[keyPath: keyPath]
        guard probe.isPlainPath, !probe.keys.isEmpty else { return nil }
        let name = probe.keys.joined(separator: ".")
        lock.withLock { names[keyPath] = name }
        return name
    }

    /// The value a probe object answers for a key, or nil when `object` is not a probe object.
    ///
    /// `NSManagedObject` calls this for keys its entity does not have, before treating them as
    /// programmer errors; probe objects have no keys, so all of theirs come here.
    static func answer(forKey key: String, of object: NSManagedObject) -> Any?? {
        guard let probe = lock.withLock({ running[ObjectIdentifier(object.entity)] }) else { return nil }
        return .some(probe.record(key, askedOf: object))
    }

    /// Whether `object` is a probe object, whose setters are ignored.
    static func isProbeObject(_ object: NSManagedObject) -> Bool {
        lock.withLock { running[ObjectIdentifier(object.entity)] != nil }
    }

    private func record(_ key: String, askedOf object: NSManagedObject) -> Any? {
        if !isInitializing {
            if ObjectIdentifier(object) == expectedObject {
                keys.append(key)
            } else {
                isPlainPath = false
            }
            expectedObject = nil
        }
        // Answer even off the path, so that the accessor runs to its end without trapping.
        guard let entity = entities[ObjectIdentifier(object.entity)] else { return nil }
        if let attribute = entity.attributesByName[key] {
            return Self.placeholder(for: attribute)
        }
        guard let relationship = entity.relationshipsByName[key], let destination = relationship.destinationEntity else {
            return nil
        }
        if relationship.isToMany {
            return relationship.isOrdered ? NSOrderedSet() : NSSet()
        }
        let destinationClass = ManagedObjectClassRegistry.shared.resolveClass(named: destination.managedObjectClassName)
        let next = makeObject(of: destinationClass, entity: destination)
        if isPlainPath { expectedObject = ObjectIdentifier(next) }
        return next
    }

    /// An instance of `type` standing for an object of `entity`, with an entity of the same name
    /// and no properties (and so never abstract).
    private func makeObject(of type: NSManagedObject.Type, entity: NSEntityDescription) -> NSManagedObject {
        let empty = NSEntityDescription()
        empty.name = entity.name
        empty.managedObjectClassName = entity.managedObjectClassName
        let identifier = ObjectIdentifier(empty)
        entities[identifier] = entity
        emptyEntities.append(empty)
        Self.lock.withLock { Self.running[identifier] = self }
        isInitializing = true
        let object = type.init(entity: empty, insertInto: nil)
        isInitializing = false
        objects.append(object)
        return object
    }

    private func finish() {
        Self.lock.withLock {
            for entity in emptyEntities { Self.running[ObjectIdentifier(entity)] = nil }
        }
    }

    /// A value of the kind `value(forKey:)` returns for the attribute, so that an accessor's
    /// force cast succeeds.
    private static func placeholder(for attribute: NSAttributeDescription) -> Any? {
        switch attribute.attributeType {
        case .integer16AttributeType: NSNumber(value: Int16(0))
        case .integer32AttributeType: NSNumber(value: Int32(0))
        case .integer64AttributeType: NSNumber(value: Int64(0))
        case .doubleAttributeType: NSNumber(value: 0.0)
        case .floatAttributeType: NSNumber(value: Float(0))
        case .booleanAttributeType: NSNumber(value: false)
        case .decimalAttributeType: NSDecimalNumber.zero
        case .stringAttributeType: ""
        case .dateAttributeType: Date(timeIntervalSinceReferenceDate: 0)
        case .binaryDataAttributeType: Data()
        case .UUIDAttributeType: UUID()
        case .URIAttributeType: URL(fileURLWithPath: "/")
        case .objectIDAttributeType, .undefinedAttributeType, .transformableAttributeType, .compositeAttributeType:
            attribute.defaultValue
        }
    }
}
