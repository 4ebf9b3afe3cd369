// Validation behind validateForInsert/Update/Delete and validateValue(_:forKey:).
// Errors follow Apple: NSCocoaErrorDomain, Apple's codes, and the NSValidation…ErrorKey entries.
extension NSManagedObject {
    func validatePropertiesImplementation() throws {
        fireFault()
        var errors: [NSError] = []
        for slot in invalidSlots {
            if let attribute = layout.slots[slot].attribute, let value = values[slot] {
                errors.append(typeError(attribute, value: value))
            }
        }
        for slot in layout.mandatorySlots where values[slot] == nil {
            errors.append(missingValueError(key: layout.slots[slot].name))
        }
        for slot in layout.predicateSlots where !invalidSlots.contains(slot) {
            // A to-one slot may still hold its destination's ID; predicates test the object.
            let current = layout.tags[slot] == .toOne ? toOneDestination(atSlot: slot) : values[slot]
            if let value = current, !(value is LazyAttributeValue),
               let error = predicateError(layout.slots[slot].property, value: value) {
                errors.append(error)
            }
        }
        for slot in layout.countedSlots {
            if let related = values[slot] as? RelatedObjects, let relationship = layout.slots[slot].relationship,
               let error = countError(relationship, count: related.count, destinations: related.set) {
                errors.append(error)
            }
        }
        try Self.throwValidationErrors(errors)
    }

    func validateDeleteImplementation() throws {
        var errors: [NSError] = []
        for slot in layout.slots {
            guard let relationship = slot.relationship, relationship.deleteRule == .denyDeleteRule else { continue }
            let blocking = destinations(atSlot: slot.index).filter { !$0.isDeleted }
            if !blocking.isEmpty {
                errors.append(validationError(
                    NSValidationRelationshipDeniedDeleteError,
                    key: slot.name,
                    value: NSSet(array: blocking),
                    "\(entity.entityName) cannot be deleted because its \(slot.name) relationship has the deny rule and is not empty."
                ))
            }
        }
        try Self.throwValidationErrors(errors)
    }

    func validateValueImplementation(_ value: AutoreleasingUnsafeMutablePointer<AnyObject?>, forKey key: String) throws {
        guard let slot = layout.slotIndex(forKey: key) else { return }
        if let error = validationError(atSlot: slot, candidate: value.pointee) {
            throw error
        }
    }

    /// One error for several, or the single error itself, as Apple reports them.
    static func throwValidationErrors(_ errors: [NSError]) throws {
        guard let first = errors.first else { return }
        guard errors.count > 1 else { throw first }
        throw CoreDataError.make(
            NSValidationMultipleErrorsError,
            "Multiple validation errors occurred.",
            userInfo: [NSDetailedErrorsKey: errors]
        )
    }

    // MARK: Per-slot checks

    /// The error a candidate value for a slot would cause, or nil.
    private func validationError(atSlot slot: Int, candidate: Any?) -> NSError? {
        let info = layout.slots[slot]
        switch info.kind {
        case .attribute(let attribute):
            guard let candidate else {
                return attribute.isOptional ? nil : missingValueError(key: attribute.name)
            }
            let normalized = AttributeValue.normalized(candidate, type: attribute.attributeType)
            guard normalized.isValid, let value = normalized.value else {
                return normalized.isValid ? nil : typeError(attribute, value: candidate)
            }
            return predicateError(attribute, value: value)
        case .toOne(let relationship):
            return candidate == nil && !relationship.isOptional ? missingValueError(key: relationship.name) : nil
        case .toMany(let relationship):
            let destinations = Self.managedObjects(in: candidate)
            return countError(relationship, count: destinations.count, destinations: NSSet(array: destinations))
        }
    }

    private func typeError(_ attribute: NSAttributeDescription, value: Any) -> NSError {
        let expected = attribute.attributeValueClassName ?? "\(attribute.attributeType)"
        return validationError(
            NSManagedObjectValidationError,
            key: attribute.name,
            value: value,
            "Unacceptable type of value for attribute: property = \"\(attribute.name)\"; desired type = \(expected); given type = \(AttributeValue.typeName(of: value)); value = \(value)."
        )
    }

    private func predicateError(_ property: NSPropertyDescription, value: Any) -> NSError? {
        for (index, predicate) in property.validationPredicates.enumerated() where !predicate.evaluate(with: value) {
            let warning = index < property.validationWarnings.count ? property.validationWarnings[index] : nil
            let code = ValidationWarning.code(of: warning)
            var info = validationUserInfo(key: property.name, value: value)
            info[NSValidationPredicateErrorKey] = predicate
            // A warning that is not a code is the model's own error string for the predicate.
            if let message = (warning as? String).flatMap({ Int($0) == nil ? $0 : nil }) {
                return CoreDataError.make(code, localizedDescription: message, userInfo: info)
            }
            return CoreDataError.make(code, "The value \(value) of \(property.name) does not satisfy \(predicate.predicateFormat).", userInfo: info)
        }
        return nil
    }

    private func countError(_ relationship: NSRelationshipDescription, count: Int, destinations: NSSet) -> NSError? {
        if count == 0 {
            guard !relationship.isOptional, !relationship.mayBeEmpty else { return nil }
            return relationship.minCount > 0
                ? validationError(NSValidationRelationshipLacksMinimumCountError, key: relationship.name, value: destinations, "\(relationship.name) has too few objects (0 of at least \(relationship.minCount)).")
                : missingValueError(key: relationship.name)
        }
        if count < relationship.minCount {
            return validationError(NSValidationRelationshipLacksMinimumCountError, key: relationship.name, value: destinations, "\(relationship.name) has too few objects (\(count) of at least \(relationship.minCount)).")
        }
        if relationship.maxCount > 0 && count > relationship.maxCount {
            return validationError(NSValidationRelationshipExceedsMaximumCountError, key: relationship.name, value: destinations, "\(relationship.name) has too many objects (\(count) of at most \(relationship.maxCount)).")
        }
        return nil
    }

    private func missingValueError(key: String) -> NSError {
        validationError(NSValidationMissingMandatoryPropertyError, key: key, value: nil, "\(key) is a required value.")
    }

    private func validationError(_ code: Int, key: String, value: Any?, _ reason: String) -> NSError {
        CoreDataError.make(code, reason, userInfo: validationUserInfo(key: key, value: value))
    }

    /// The userInfo of a validation error: this object, the key and the value that failed.
    private func validationUserInfo(key: String, value: Any?) -> [String: Any] {
        var info: [String: Any] = [NSValidationObjectErrorKey: self, NSValidationKeyErrorKey: key]
        if let value { info[NSValidationValueErrorKey] = value }
        return info
    }
}
