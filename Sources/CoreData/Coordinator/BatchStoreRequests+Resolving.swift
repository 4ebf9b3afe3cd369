// Batch requests resolved against the model before any store is touched: every entity, key and
// value is checked here, so a request that is wrong writes nothing.
extension BatchUpdate {
    init(_ request: NSBatchUpdateRequest, context: NSManagedObjectContext, model: NSManagedObjectModel) throws {
        let entity = try BatchRequestCheck.entity(request.resolvedEntity(in: model), named: request.entityName, by: "batch update")
        let fetch = NSFetchRequest<NSFetchRequestResult>()
        fetch.entity = entity
        fetch.predicate = request.predicate
        fetch.includesSubentities = request.includesSubentities
        plan = try context.fetchPlan(for: fetch, model: model)
        guard let properties = request.propertiesToUpdate, !properties.isEmpty else {
            throw CoreDataError.invalidRequest("A batch update request needs propertiesToUpdate.")
        }
        assignments = try properties.map { key, value in try Self.assignment(of: value, to: key, in: entity) }
        reportsObjectIDs = request.resultType == .updatedObjectIDsResultType
    }

    private static func assignment(of value: Any, to key: AnyHashable, in entity: NSEntityDescription) throws -> (slot: Int, value: BatchUpdateValue) {
        let name = (key.base as? NSPropertyDescription)?.name ?? (key.base as? String) ?? "\(key.base)"
        let (slot, attribute) = try BatchRequestCheck.attribute(named: name, in: entity)
        if let expression = value as? NSExpression {
            if let error = expression.parseError { throw error }
            return (slot, .expression(expression))
        }
        return (slot, .constant(try BatchRequestCheck.normalized(value, for: attribute)))
    }
}

extension BatchDelete {
    init(_ request: NSBatchDeleteRequest, context: NSManagedObjectContext, model: NSManagedObjectModel) throws {
        if let identifiers = request.objectIDs, let first = identifiers.first,
           identifiers.contains(where: { $0.entity.name != first.entity.name }) {
            throw CoreDataError.invalidRequest("A batch delete request's object IDs must all be of one entity.")
        }
        plan = try context.fetchPlan(for: request.fetchRequest, model: model)
        reportsObjectIDs = request.resultType == .resultTypeObjectIDs
    }
}

extension BatchInsert {
    init(_ request: NSBatchInsertRequest, model: NSManagedObjectModel) throws {
        let entity = try BatchRequestCheck.entity(request.resolvedEntity(in: model), named: request.entityName, by: "batch insert")
        guard !entity.isAbstract else {
            throw CoreDataError.invalidRequest("A batch insert request cannot insert objects of the abstract entity \(entity.entityName).")
        }
        let slots = entity.layout.persistentAttributeSlots
        self.entity = entity
        self.slots = slots
        rows = try Self.rows(of: request, slots: slots, entity: entity)
    }

    /// The rows of the request's dictionaries, then of those its handlers produce until they
    /// return true; each made as it comes, without a copy of the dictionary.
    private static func rows(of request: NSBatchInsertRequest, slots: [Int], entity: NSEntityDescription) throws -> [BatchInsertRow] {
        var rows = try (request.objectsToInsert ?? []).map { try row($0.lazy.map { ($0.key, $0.value) }, slots: slots, entity: entity) }
        if let handler = request.dictionaryHandler {
            let keys = BatchInsertDictionary.Keys(slots.map { entity.layout.slots[$0].name })
            while true {
                let dictionary = BatchInsertDictionary(keys: keys)
                if handler(dictionary) { break }
                rows.append(try row(dictionary, slots: slots, entity: entity))
            }
        }
        if let handler = request.managedObjectHandler {
            while true {
                let object = NSManagedObject(entity: entity, insertInto: nil)
                if handler(object) { break }
                rows.append(try row(values(of: object, entity: entity).lazy.map { ($0.key, $0.value) }, slots: slots, entity: entity))
            }
        }
        return rows
    }

    /// A handler's dictionary as a row, read from its attribute values by position; a dictionary
    /// with other keys is read entry by entry, which names the unknown key.
    private static func row(_ dictionary: BatchInsertDictionary, slots: [Int], entity: NSEntityDescription) throws -> BatchInsertRow {
        guard dictionary.otherEntries.isEmpty else {
            return try row(dictionary.lazy.map { (($0.key as? String) ?? "\($0.key)", $0.value) }, slots: slots, entity: entity)
        }
        let layout = entity.layout
        var row = BatchInsertRow(values: slots.map { layout.slots[$0].attribute?.defaultValue }, given: slots.map { _ in false })
        for (position, value) in dictionary.values.enumerated() {
            guard let value, let attribute = layout.slots[slots[position]].attribute else { continue }
            row.values[position] = try BatchRequestCheck.normalized(value, for: attribute)
            row.given[position] = true
        }
        try checkMandatoryValues(of: row, slots: slots, layout: layout)
        return row
    }

    /// The attribute values a handler set on an object.
    private static func values(of object: NSManagedObject, entity: NSEntityDescription) -> [String: Any] {
        var values: [String: Any] = [:]
        for slot in entity.layout.persistentAttributeSlots {
            let name = entity.layout.slots[slot].name
            if let value = object.value(forKey: name) { values[name] = value }
        }
        return values
    }

    /// A dictionary's entries as a row: values checked and normalized, defaults for the
    /// attributes it does not name, and every mandatory attribute given a value.
    private static func row(_ entries: some Sequence<(String, Any)>, slots: [Int], entity: NSEntityDescription) throws -> BatchInsertRow {
        let layout = entity.layout
        var row = BatchInsertRow(values: slots.map { layout.slots[$0].attribute?.defaultValue }, given: slots.map { _ in false })
        for (key, value) in entries {
            let (slot, attribute) = try BatchRequestCheck.attribute(named: key, in: entity)
            guard let position = slots.firstIndex(of: slot) else { throw CoreDataError.unknownKey(key, entity: entity.entityName) }
            row.values[position] = try BatchRequestCheck.normalized(value, for: attribute)
            row.given[position] = true
        }
        try checkMandatoryValues(of: row, slots: slots, layout: layout)
        return row
    }

    /// Fails when a mandatory attribute has no value (given or default).
    private static func checkMandatoryValues(of row: BatchInsertRow, slots: [Int], layout: EntityLayout) throws {
        for (position, slot) in slots.enumerated() where row.values[position] == nil {
            guard let attribute = layout.slots[slot].attribute, attribute.isOptional else {
                let name = layout.slots[slot].name
                throw CoreDataError.make(NSValidationMissingMandatoryPropertyError, "\(name) is a required value.", userInfo: [NSValidationKeyErrorKey: name])
            }
        }
    }
}

/// The checks batch requests share.
enum BatchRequestCheck {
    /// The entity a request names, or the error saying the model has none of that name.
    static func entity(_ entity: NSEntityDescription?, named name: String, by request: String) throws -> NSEntityDescription {
        guard let entity else {
            throw CoreDataError.invalidRequest("The \(request) request names the entity '\(name)', which the model does not have.")
        }
        return entity
    }

    /// The slot and description of a persistent attribute; relationships and unknown keys are refused.
    static func attribute(named name: String, in entity: NSEntityDescription) throws -> (slot: Int, attribute: NSAttributeDescription) {
        guard let slot = entity.layout.slotIndex(forKey: name) else {
            throw CoreDataError.unknownKey(name, entity: entity.entityName)
        }
        guard let attribute = entity.layout.slots[slot].attribute, !attribute.isTransient else {
            throw CoreDataError.invalidRequest("Batch requests set attributes only; '\(name)' of \(entity.entityName) is not a stored attribute.")
        }
        return (slot, attribute)
    }

    /// A value in the form the attribute keeps, nil for `NSNull`; a value of another type is an
    /// `NSManagedObjectValidationError`.
    static func normalized(_ value: Any, for attribute: NSAttributeDescription) throws -> Any? {
        let normalized = AttributeValue.normalized(value, type: attribute.attributeType)
        guard normalized.isValid else {
            let expected = attribute.attributeValueClassName ?? "\(attribute.attributeType)"
            throw CoreDataError.make(
                NSManagedObjectValidationError,
                "Unacceptable type of value for attribute: property = \"\(attribute.name)\"; desired type = \(expected); given type = \(AttributeValue.typeName(of: value)); value = \(value).",
                userInfo: [NSValidationKeyErrorKey: attribute.name, NSValidationValueErrorKey: value]
            )
        }
        return value is NSNull ? nil : normalized.value
    }
}
