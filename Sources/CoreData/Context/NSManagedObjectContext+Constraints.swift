// Uniqueness constraints at save: objects inserted or updated with the same values for a
// constraint as each other, or as a stored row, are conflicts the merge policy resolves before
// anything is written. Entities without constraints cost nothing.
extension NSManagedObjectContext {
    /// The most value combinations one query looks up.
    private static let constraintLookupBatch = 500

    /// One constraint of an entity: the entity that declares it, and its property names.
    private struct Constraint: Hashable {
        let entity: NSEntityDescription
        let names: [String]

        static func == (lhs: Constraint, rhs: Constraint) -> Bool {
            lhs.entity === rhs.entity && lhs.names == rhs.names
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(ObjectIdentifier(entity))
            hasher.combine(names)
        }
    }

    /// The objects of a save that share values for one constraint.
    private struct Group {
        let constraint: Constraint
        let values: [Any]
        /// Inserted objects, and updated objects whose constraint values changed.
        var objects: [NSManagedObject]
        /// The stored row that holds the values, of an object not in the save.
        var stored: RowSnapshot?
        /// An updated object of the save that held the values already: the row's own object.
        var existing: NSManagedObject?

        var isConflict: Bool {
            objects.count > 1 || (!objects.isEmpty && (stored != nil || existing != nil))
        }
    }

    /// The uniqueness-constraint conflicts of the objects a save inserts or updates.
    func constraintConflicts(in saved: SavedObjects) throws -> [NSConstraintConflict] {
        // Saved objects come in runs of one entity: each run's entity is checked once.
        var checkedLayout: EntityLayout?
        let anyConstraint = [saved.inserted, saved.updated].joined().contains { object in
            guard object.layout !== checkedLayout else { return false }
            checkedLayout = object.layout
            return Self.hasConstraints(object.entity)
        }
        guard anyConstraint else { return [] }
        let candidates = saved.inserted + saved.updated
        var groups: [[AnyHashable]: Group] = [:]
        for object in candidates {
            for constraint in Self.constraints(of: object.entity) {
                guard let values = Self.constraintValues(of: constraint.names, read: { object.valueImplementation(forKey: $0) }) else { continue }
                let key = Self.groupKey(constraint, values)
                var group = groups[key] ?? Group(constraint: constraint, values: values, objects: [])
                if object.isInserted || Self.constraintValuesChanged(constraint.names, of: object) {
                    group.objects.append(object)
                } else {
                    group.existing = object
                }
                groups[key] = group
            }
        }
        try findStoredRows(for: &groups, excluding: Set((saved.updated + saved.deleted).map(\.objectID.identity)))
        return groups.values.filter(\.isConflict).map(makeConflict)
    }

    /// Looks up, one query per constraint and batch of values, the stored rows that already hold
    /// each group's values, leaving out the rows of the save's own updated and deleted objects
    /// (their stored values are being replaced).
    private func findStoredRows(for groups: inout [[AnyHashable]: Group], excluding savedIDs: Set<ObjectIdentity>) throws {
        let coordinator = try requireCoordinator()
        let byConstraint = Dictionary(grouping: groups.keys) { groups[$0]?.constraint }
        for (constraint, keys) in byConstraint {
            guard let constraint else { continue }
            let stores = coordinator.stores(holding: [constraint.entity], affected: nil)
            for batch in keys.chunked(into: Self.constraintLookupBatch) {
                let predicate = NSCompoundPredicate(orPredicateWithSubpredicates: batch.compactMap { groups[$0].map { Self.predicate(constraint.names, $0.values) } })
                let plan = FetchPlan(entity: constraint.entity, entities: constraint.entity.selfAndDescendants, predicate: predicate, sortDescriptors: [], limit: 0, offset: 0)
                let rows = try coordinator.rows(matching: plan, in: stores, for: self)
                for row in rows where !savedIDs.contains(row.objectIDValue.identity) {
                    let layout = row.objectIDValue.entity.layout
                    guard let values = Self.constraintValues(of: constraint.names, read: { layout.slotIndex(forKey: $0).flatMap { row.values[$0] } }) else { continue }
                    let key = Self.groupKey(constraint, values)
                    guard var group = groups[key] else { continue }
                    group.stored = row
                    groups[key] = group
                }
            }
        }
    }

    private func makeConflict(_ group: Group) -> NSConstraintConflict {
        let databaseObject = group.existing ?? group.stored.map { row in register([row], realize: false)[0] }
        let databaseRow = group.existing?.snapshot ?? group.stored
        return NSConstraintConflict(
            constraint: group.constraint.names,
            database: databaseObject,
            databaseSnapshot: databaseObject?.conflictSnapshot(of: databaseRow?.values),
            conflicting: group.objects,
            conflictingSnapshots: group.objects.map { $0.conflictSnapshot(of: $0.values) ?? [:] }
        )
    }

    /// Whether an updated object's values for a constraint differ from its stored row's.
    private static func constraintValuesChanged(_ names: [String], of object: NSManagedObject) -> Bool {
        guard let snapshot = object.snapshot else { return true }
        let layout = object.layout
        return names.contains { name in
            guard let slot = layout.slotIndex(forKey: name) else { return true }
            guard object.values.indices.contains(slot) else { return snapshot.values[slot] != nil }
            return !object.isCommittedValue(atSlot: slot, kind: layout.slots[slot].kind)
        }
    }

    // MARK: Resolving

    /// Resolves a constraint conflict as a built-in policy does: one object is kept (the stored
    /// row's, or the first inserted), the others' relationships move to it and they are deleted.
    /// Under the object-trump and overwrite policies the kept object takes the values of the last
    /// conflicting object; under the others it keeps its own.
    func resolve(_ conflict: NSConstraintConflict, as type: NSMergePolicyType) throws {
        // An object an earlier conflict of the same save merged away is no longer in play.
        let conflicting = conflict.conflictingObjects.filter { $0.managedObjectContext === self && !$0.isDeleted }
        if let updated = conflicting.first(where: { !$0.isInserted }) {
            throw CoreDataError.make(
                NSManagedObjectConstraintMergeError,
                "The updated object \(updated.objectID) takes the values of another for the uniqueness constraint (\(conflict.constraint.joined(separator: ", "))); only inserted objects can be merged.",
                userInfo: [NSPersistentStoreSaveConflictsErrorKey: [conflict]]
            )
        }
        guard let keeper = conflict.databaseObject ?? conflicting.first else { return }
        let losers = conflicting.filter { $0 !== keeper }
        if [.mergeByPropertyObjectTrumpMergePolicyType, .overwriteMergePolicyType].contains(type), let source = conflicting.last, source !== keeper {
            copyValues(of: source, to: keeper)
        }
        for loser in losers {
            moveRelationships(of: loser, to: keeper)
            deleteImplementation(loser)
        }
        processPendingChanges()
    }

    /// Gives `target` the attribute and to-one values `source` has, by property name.
    private func copyValues(of source: NSManagedObject, to target: NSManagedObject) {
        for slot in source.layout.persistentAttributeSlots + source.layout.persistentToOneSlots {
            let name = source.layout.slots[slot].name
            guard target.layout.slotIndex(forKey: name) != nil else { continue }
            let value = source.valueImplementation(forKey: name)
            if !ValueComparison.isEqual(value, target.valueImplementation(forKey: name)) {
                target.setValueImplementation(value, forKey: name)
            }
        }
    }

    /// Points the destinations of `source`'s relationships at `target` instead, through the
    /// inverse relationships.
    private func moveRelationships(of source: NSManagedObject, to target: NSManagedObject) {
        for slot in source.layout.relationshipSlots {
            guard let relationship = source.layout.slots[slot].relationship, let inverse = relationship.inverseRelationship else { continue }
            for destination in source.loadedDestinations(atSlot: slot) {
                guard let inverseSlot = destination.layout.slotIndex(forKey: inverse.name) else { continue }
                if inverse.isToMany {
                    destination.removeFromToMany(source, atSlot: inverseSlot)
                    destination.addToToMany(target, atSlot: inverseSlot)
                } else {
                    destination.setToOne(target, atSlot: inverseSlot)
                }
            }
        }
    }

    // MARK: Values

    /// The constraints of an entity: its own and its ancestors', each with the entity declaring it.
    /// Whether an entity or one of its ancestors declares a constraint, without listing them.
    private static func hasConstraints(_ entity: NSEntityDescription) -> Bool {
        var current: NSEntityDescription? = entity
        while let declaring = current {
            if !declaring.uniquenessConstraints.isEmpty { return true }
            current = declaring.superentity
        }
        return false
    }

    private static func constraints(of entity: NSEntityDescription) -> [Constraint] {
        var constraints: [Constraint] = []
        var current: NSEntityDescription? = entity
        while let declaring = current {
            for constraint in declaring.uniquenessConstraints {
                constraints.append(Constraint(entity: declaring, names: constraint.map { ($0 as? NSPropertyDescription)?.name ?? "\($0)" }))
            }
            current = declaring.superentity
        }
        return constraints
    }

    /// The values of a constraint's properties, objects as their IDs; nil when one is nil, as a
    /// unique index lets NULLs repeat.
    private static func constraintValues(of names: [String], read: (String) -> Any?) -> [Any]? {
        var values: [Any] = []
        for name in names {
            guard let value = ValueUnwrapping.nonNull(read(name)) else { return nil }
            values.append((value as? NSManagedObject)?.objectID ?? value)
        }
        return values
    }

    private static func groupKey(_ constraint: Constraint, _ values: [Any]) -> [AnyHashable] {
        [AnyHashable(constraint)] + values.map { AnyHashable(PredicateValueKey($0)) }
    }

    /// `name1 == value1 AND name2 == value2 …`.
    private static func predicate(_ names: [String], _ values: [Any]) -> NSPredicate {
        NSCompoundPredicate(andPredicateWithSubpredicates: zip(names, values).map { name, value in
            NSComparisonPredicate(leftExpression: NSExpression(forKeyPath: name), rightExpression: NSExpression(forConstantValue: value),
                                  modifier: .direct, type: .equalTo)
        })
    }
}
