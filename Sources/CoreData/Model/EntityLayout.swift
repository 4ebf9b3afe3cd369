/// The compiled shape of an entity's objects: which property lives in which storage slot.
///
/// Every attribute and relationship of an entity (inherited ones first, so a sub-entity shares its
/// parent's slot numbers) gets a slot index. Managed objects keep their values in an array indexed
/// by slot, and string keys resolve to slots through a single dictionary lookup.
// Built once when the model is frozen and never mutated afterwards, so it is read from any thread.
package final class EntityLayout: @unchecked Sendable {
    /// How a slot stores its value.
    package enum SlotKind {
        case attribute(NSAttributeDescription)
        case toOne(NSRelationshipDescription)
        case toMany(NSRelationshipDescription)
    }

    /// One slot of the layout.
    package struct Slot {
        package let index: Int
        let property: NSPropertyDescription
        package let kind: SlotKind

        package var name: String { property.name }
        var isTransient: Bool { property.isTransient }

        var attribute: NSAttributeDescription? {
            if case .attribute(let attribute) = kind { return attribute }
            return nil
        }

        var relationship: NSRelationshipDescription? {
            switch kind {
            case .toOne(let relationship), .toMany(let relationship): return relationship
            case .attribute: return nil
            }
        }
    }

    /// The kind of a slot, without payload, for hot paths that must not retain descriptions.
    enum SlotTag: UInt8 {
        case attribute
        case toOne
        case toMany
    }

    unowned let entity: NSEntityDescription
    /// The root of the entity's inheritance hierarchy, which object IDs are keyed by.
    let rootIdentifier: ObjectIdentifier
    /// The kind of each slot.
    let tags: [SlotTag]
    /// The attribute type of each slot (`.undefinedAttributeType` for relationships).
    let attributeTypes: [NSAttributeType]
    /// Whether a slot may hold a value loaded lazily (external binary data).
    let lazySlots: [Bool]
    /// Attribute and to-one slots that must have a value at save.
    let mandatorySlots: [Int]
    /// Slots whose property has validation predicates.
    let predicateSlots: [Int]
    /// To-many slots whose destination count is constrained (non-optional, minCount or maxCount).
    let countedSlots: [Int]
    /// Every attribute and relationship, in slot order.
    package let slots: [Slot]
    /// The name of each slot's property, compared by generated accessors that know their index.
    let slotNames: [String]
    /// The slot of each attribute and relationship name.
    let slotIndexByName: SlotLookup
    /// Fetched properties by name; they have no slot because their value is computed by a fetch.
    let fetchedProperties: [String: NSFetchedPropertyDescription]
    /// The slots of persistent (non-transient) attributes.
    let persistentAttributeSlots: [Int]
    /// The slots of the persistent attributes whose values persistent history keeps when an
    /// object is deleted (never those stored externally, as Apple's history leaves them out), by
    /// name: the order of the history's tombstone columns (store-format §2.11).
    let preservedAttributeSlots: [Int]
    /// The slots of persistent to-one relationships.
    let persistentToOneSlots: [Int]
    /// The slots of persistent to-many relationships.
    let persistentToManySlots: [Int]
    /// The slots of every relationship, transient or not.
    let relationshipSlots: [Int]
    /// The slots of transient attributes and relationships, which rows do not hold.
    let transientSlots: [Int]
    /// The default value of each slot, as Core Data hands it to a newly inserted object.
    let defaultValues: ContiguousArray<Any?>
    /// The slots whose default value is not nil: the only ones a new object's first change
    /// copies into the row it makes.
    let defaultedSlots: [Int]
    /// Where each slot lives in a row's storage.
    let storagePlan: StoragePlan

    package init(entity: NSEntityDescription) {
        self.entity = entity
        self.rootIdentifier = ObjectIdentifier(entity.rootEntity)
        var slots: [Slot] = []
        var fetched: [String: NSFetchedPropertyDescription] = [:]
        for property in entity.properties {
            if let fetchedProperty = property as? NSFetchedPropertyDescription {
                fetched[property.name] = fetchedProperty
                continue
            }
            guard let kind = Self.kind(of: property) else { continue }
            slots.append(Slot(index: slots.count, property: property, kind: kind))
        }
        self.slots = slots
        self.slotNames = slots.map(\.name)
        self.slotIndexByName = SlotLookup(slots.map { ($0.name, $0.index) })
        self.fetchedProperties = fetched
        self.persistentAttributeSlots = slots.filter { !$0.isTransient && $0.attribute != nil }.map(\.index)
        self.preservedAttributeSlots = slots.filter { slot in
            guard let attribute = slot.attribute, !slot.isTransient else { return false }
            return attribute.preservesValueInHistoryOnDeletion && !attribute.allowsExternalBinaryDataStorage
        }.sorted { $0.name < $1.name }.map(\.index)
        self.persistentToOneSlots = slots.filter { slot in
            if case .toOne = slot.kind { return !slot.isTransient }
            return false
        }.map(\.index)
        self.persistentToManySlots = slots.filter { slot in
            if case .toMany = slot.kind { return !slot.isTransient }
            return false
        }.map(\.index)
        self.relationshipSlots = slots.filter { $0.relationship != nil }.map(\.index)
        self.transientSlots = slots.filter(\.isTransient).map(\.index)
        self.tags = slots.map { slot in
            switch slot.kind {
            case .attribute: return .attribute
            case .toOne: return .toOne
            case .toMany: return .toMany
            }
        }
        self.attributeTypes = slots.map { $0.attribute?.attributeType ?? .undefinedAttributeType }
        self.lazySlots = slots.map { $0.attribute.map { $0.allowsExternalBinaryDataStorage && $0.attributeType == .binaryDataAttributeType } ?? false }
        self.storagePlan = StoragePlan(attributeTypes: attributeTypes, tags: tags, lazySlots: lazySlots)
        self.mandatorySlots = slots.filter { slot in
            if case .toMany = slot.kind { return false }
            return !slot.property.isOptional
        }.map(\.index)
        self.predicateSlots = slots.filter { !$0.property.validationPredicates.isEmpty }.map(\.index)
        self.countedSlots = slots.filter { slot in
            guard case .toMany(let relationship) = slot.kind else { return false }
            return !relationship.isOptional || relationship.minCount > 0 || relationship.maxCount > 0
        }.map(\.index)
        let defaultValues = ContiguousArray(slots.map { slot -> Any? in
            guard let attribute = slot.attribute, let value = attribute.defaultValue else { return nil }
            return AttributeValue.normalized(value, type: attribute.attributeType).value
        })
        self.defaultValues = defaultValues
        self.defaultedSlots = defaultValues.indices.filter { defaultValues[$0] != nil }
    }

    /// The slot index of a property name, or nil when the entity has no such attribute or relationship.
    @inline(__always)
    func slotIndex(forKey key: String) -> Int? {
        slotIndexByName[key]
    }

    /// Whether slot `index` holds the property named `name`: the check generated accessors make
    /// before trusting the index they were generated with.
    @inline(__always)
    func hasSlot(_ index: Int, named name: String) -> Bool {
        index >= 0 && index < slotNames.count && slotNames[index] == name
    }

    private static func kind(of property: NSPropertyDescription) -> SlotKind? {
        if let attribute = property as? NSAttributeDescription {
            return .attribute(attribute)
        }
        if let relationship = property as? NSRelationshipDescription {
            return relationship.isToMany ? .toMany(relationship) : .toOne(relationship)
        }
        return nil
    }
}
