// Key-value coding behind NSManagedObject's public methods (declared in the class body so that
// subclasses can override them). String keys resolve to slots through one dictionary lookup.
extension NSManagedObject {
    func valueImplementation(forKey key: String) -> Any? {
        checkConcurrency("value(forKey: \"\(key)\")")
        guard let slot = layout.slotIndex(forKey: key) else {
            return undefinedValue(forKey: key)
        }
        return value(atSlot: slot)
    }

    func setValueImplementation(_ value: Any?, forKey key: String) {
        checkConcurrency("setValue(_:forKey: \"\(key)\")")
        guard let slot = layout.slotIndex(forKey: key) else {
            setUndefinedValue(value, forKey: key)
            return
        }
        setValue(value, atSlot: slot)
    }

    /// Checks, under the concurrency debug switch, that the caller runs on the queue of the
    /// object's context.
    @inline(__always)
    func checkConcurrency(_ operation: @autoclosure () -> String) {
        guard ConcurrencyDebug.isActive, let context = objectContext else { return }
        context.checkConcurrency(of: "\(operation()) of \(entity.entityName)")
    }

    func valueImplementation(forKeyPath keyPath: String) -> Any? {
        let components = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        return Self.value(of: self, atKeyPath: components[...])
    }

    /// Walks a key path as Apple's key-value coding does: through objects one key at a time, and
    /// across a set by collecting the rest of the path from every member into a set (an ordered
    /// set for an ordered relationship). Collection operators (`@count`, `@sum`, …) apply to the
    /// collection they follow.
    private static func value(of target: Any?, atKeyPath components: ArraySlice<String>) -> Any? {
        guard let key = components.first else { return target }
        let rest = components.dropFirst()
        if key.hasPrefix("@") {
            return try? KeyValueReader.value(atKeyPath: components, of: target)
        }
        switch target {
        case nil:
            return nil
        case let object as NSManagedObject:
            return value(of: object.value(forKey: key), atKeyPath: rest)
        case let ordered as NSOrderedSet:
            return NSOrderedSet(array: ordered.array.compactMap { value(of: $0, atKeyPath: components) })
        case let set as NSSet:
            return NSSet(array: set.allObjects.compactMap { value(of: $0, atKeyPath: components) })
        default:
            return value(of: try? KeyValueReader.value(forKey: key, of: target), atKeyPath: rest)
        }
    }

    func setValueImplementation(_ value: Any?, forKeyPath keyPath: String) {
        guard let dot = keyPath.lastIndex(of: ".") else {
            setValue(value, forKey: keyPath)
            return
        }
        let key = String(keyPath[keyPath.index(after: dot)...])
        switch self.value(forKeyPath: String(keyPath[..<dot])) {
        case let object as NSManagedObject:
            object.setValue(value, forKey: key)
        case let ordered as NSOrderedSet:
            ordered.array.compactMap { $0 as? NSManagedObject }.forEach { $0.setValue(value, forKey: key) }
        case let set as NSSet:
            set.allObjects.compactMap { $0 as? NSManagedObject }.forEach { $0.setValue(value, forKey: key) }
        default:
            return
        }
    }

    func primitiveValueImplementation(forKey key: String) -> Any? {
        guard let slot = layout.slotIndex(forKey: key) else { return undefinedValue(forKey: key) }
        return value(atSlot: slot)
    }

    func setPrimitiveValueImplementation(_ value: Any?, forKey key: String) {
        guard let slot = layout.slotIndex(forKey: key) else {
            setUndefinedValue(value, forKey: key)
            return
        }
        fireFault()
        switch layout.slots[slot].kind {
        case .attribute:
            storeAttribute(value, atSlot: slot)
        case .toOne:
            values[slot] = value as? NSManagedObject
        case .toMany:
            let related = RelatedObjects(Self.managedObjects(in: value), committed: false)
            if let previous = values[slot] as? RelatedObjects {
                related.replaceCommitted(with: previous.committed)
            }
            values[slot] = related
        }
    }

    func recordChange(forKey key: String) {
        guard let slot = layout.slotIndex(forKey: key) else { return }
        markChanged(slot: slot)
    }

    // MARK: Relationship proxies

    func mutableSetImplementation(forKey key: String) -> NSMutableSet {
        guard let slot = layout.slotIndex(forKey: key), case .toMany = layout.slots[slot].kind else {
            preconditionFailure("\(entity.entityName).\(key) is not a to-many relationship.")
        }
        return ManagedRelationshipSet(owner: self, slot: slot)
    }

    func mutableOrderedSetImplementation(forKey key: String) -> NSMutableOrderedSet {
        guard let slot = layout.slotIndex(forKey: key), case .toMany = layout.slots[slot].kind else {
            preconditionFailure("\(entity.entityName).\(key) is not a to-many relationship.")
        }
        return ManagedRelationshipOrderedSet(owner: self, slot: slot)
    }

    // MARK: KeyValueCodingReadable

    func keyValue(forKey key: String) throws -> Any? {
        guard let slot = layout.slotIndex(forKey: key) else {
            throw CoreDataError.unknownKey(key, entity: entity.entityName)
        }
        return value(atSlot: slot)
    }

    // MARK: Slot access

    /// The key-value-coding value of a slot, firing the fault first.
    @inline(__always)
    func value(atSlot slot: Int) -> Any? {
        fireFault(triggeredBy: slot)
        switch layout.tags[slot] {
        case .attribute:
            if layout.lazySlots[slot], let lazy = values[slot] as? LazyAttributeValue {
                let loaded = lazy.load()
                values[slot] = loaded
                return loaded
            }
            return values[slot]
        case .toOne:
            return toOneDestination(atSlot: slot)
        case .toMany:
            let related = relatedObjects(atSlot: slot)
            return layout.slots[slot].relationship?.isOrdered == true ? related.orderedSet : related.set
        }
    }

    /// Sets a slot through the public path: normalization, inverse upkeep and change tracking.
    func setValue(_ value: Any?, atSlot slot: Int) {
        fireFault(triggeredBy: slot)
        switch layout.tags[slot] {
        case .attribute:
            willChangeSlot(slot)
            storeAttribute(value, atSlot: slot)
            markChanged(slot: slot)
        case .toOne:
            setToOne(Self.managedObject(in: value, key: layout.slots[slot].name, entity: entity), atSlot: slot)
        case .toMany:
            replaceToMany(with: Self.managedObjects(in: value), atSlot: slot)
        }
    }

    /// Stores an attribute value in Core Data's form, remembering a value of the wrong type so
    /// that validation reports it at save.
    @inline(__always)
    func storeAttribute(_ value: Any?, atSlot slot: Int) {
        // A number that a scalar slot's word holds exactly goes into the word as it is:
        // `normalized` would return it unchanged, and the row would take the same bits from it.
        // (Cast straight from the optional: binding the value first would copy it once more.)
        if layout.scalar(atSlot: slot) != nil, let number = value as? NSNumber, values.setWord(atSlot: slot, from: number) {
            if invalidSlots.contains(slot) { invalidSlots.remove(slot) }
            return
        }
        guard let value else {
            values[slot] = nil
            invalidSlots.remove(slot)
            return
        }
        let normalized = AttributeValue.normalized(value, type: layout.attributeTypes[slot])
        values[slot] = normalized.value
        if normalized.isValid {
            invalidSlots.remove(slot)
        } else {
            invalidSlots.insert(slot)
        }
    }

    private func undefinedValue(forKey key: String) -> Any? {
        if let fetched = layout.fetchedProperties[key] {
            if let cached = fetchedPropertyValues[key] { return cached }
            let value = objectContext?.evaluate(fetched, for: self) ?? []
            fetchedPropertyValues[key] = value
            return value
        }
        if let probed = KeyPathProbe.answer(forKey: key, of: self) { return probed }
        preconditionFailure("[<\(type(of: self))> valueForUndefinedKey:]: the entity \(entity.entityName) is not key value coding-compliant for the key \"\(key)\".")
    }

    private func setUndefinedValue(_ value: Any?, forKey key: String) {
        if KeyPathProbe.isProbeObject(self) { return }
        preconditionFailure("[<\(type(of: self))> setValue:forUndefinedKey:]: the entity \(entity.entityName) is not key value coding-compliant for the key \"\(key)\".")
    }

    /// The destination object a to-one setter was given; anything else is a programmer error.
    private static func managedObject(in value: Any?, key: String, entity: NSEntityDescription) -> NSManagedObject? {
        guard let value, !(value is NSNull) else { return nil }
        guard let object = value as? NSManagedObject else {
            preconditionFailure("Unacceptable type of value for to-one relationship: property = \"\(key)\" of entity \(entity.entityName); given type = \(type(of: value)).")
        }
        return object
    }

    /// The destination objects of a to-many setter's value (any set, ordered set or array).
    static func managedObjects(in value: Any?) -> [NSManagedObject] {
        switch value {
        case let set as NSOrderedSet: return set.array.compactMap { $0 as? NSManagedObject }
        case let set as NSSet: return set.allObjects.compactMap { $0 as? NSManagedObject }
        case let array as [NSManagedObject]: return array
        case let set as Set<NSManagedObject>: return Array(set)
        case let array as [Any]: return array.compactMap { $0 as? NSManagedObject }
        default: return []
        }
    }
}

extension NSManagedObject: ObjectReference {
    var referencedObject: AnyHashable { objectID.identity }
}
