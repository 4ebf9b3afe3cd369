/// A uniqueness-constraint conflict found at save: objects of the save whose values for an
/// entity's uniqueness constraint equal each other's, or a row's already in the store.
open class NSConstraintConflict: NSObject {
    /// The names of the properties of the constraint.
    public let constraint: [String]

    /// The values the conflicting objects share, by property name.
    public let constraintValues: [String: Any]

    /// The object of the row that already holds the values; nil when the conflict is between
    /// objects of the save only.
    public let databaseObject: NSManagedObject?

    /// The row's values; nil when the conflict is between objects of the save only.
    public let databaseSnapshot: [String: Any]?

    /// The objects of the save that hold the values.
    public let conflictingObjects: [NSManagedObject]

    /// The values of each conflicting object, in the order of `conflictingObjects`.
    public let conflictingSnapshots: [[AnyHashable: Any]]

    /// Creates a conflict record.
    ///
    /// - Parameters:
    ///   - contraint: The names of the properties of the constraint (Apple's spelling).
    ///   - databaseObject: The object of the row that holds the values, if any.
    ///   - databaseSnapshot: That row's values.
    ///   - conflictingObjects: The objects of the save that hold the values.
    ///   - conflictingSnapshots: Their values.
    public init(constraint contraint: [String], databaseObject: NSManagedObject?, databaseSnapshot: [String: Any]?,
                conflictingObjects: [NSManagedObject], conflictingSnapshots: [Any]) {
        constraint = contraint
        var values: [String: Any] = [:]
        for name in contraint {
            let value = conflictingObjects.first.flatMap { object in object.layout.slotIndex(forKey: name).map(object.value(atSlot:)) }
            values[name] = ValueUnwrapping.nonNull(value ?? nil).map { ($0 as? NSManagedObject)?.objectID ?? $0 } ?? NSNull()
        }
        constraintValues = values
        self.databaseObject = databaseObject
        self.databaseSnapshot = databaseSnapshot
        self.conflictingObjects = conflictingObjects
        self.conflictingSnapshots = conflictingSnapshots.compactMap { snapshot in
            (snapshot as? [String: Any]).map { Dictionary(uniqueKeysWithValues: $0.map { (AnyHashable($0.key), $0.value) }) }
                ?? snapshot as? [AnyHashable: Any]
        }
        super.init()
    }

    open override var description: String {
        "NSConstraintConflict (\(constraint.joined(separator: ", ")) = \(constraintValues)) of \(conflictingObjects.map(\.objectID)) with \(databaseObject.map { "\($0.objectID)" } ?? "each other")"
    }
}
