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
    public let databaseSnapshot: [AnyHashable: Any]?

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
    ///   - conflictingSnapshots: Their values, in the same order.
    public init(constraint contraint: [String], database databaseObject: NSManagedObject?, databaseSnapshot: [AnyHashable: Any]?,
                conflicting conflictingObjects: [NSManagedObject], conflictingSnapshots: [Any]) {
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
        self.conflictingSnapshots = conflictingSnapshots.map(Self.snapshot)
        super.init()
    }

    /// A snapshot as a dictionary; anything else as an empty one, keeping the order.
    private static func snapshot(_ value: Any) -> [AnyHashable: Any] {
        if let snapshot = value as? [AnyHashable: Any] { return snapshot }
        guard let snapshot = value as? [String: Any] else { return [:] }
        return Dictionary(uniqueKeysWithValues: snapshot.map { (AnyHashable($0.key), $0.value) })
    }

    open override var description: String {
        "NSConstraintConflict (\(constraint.joined(separator: ", ")) = \(constraintValues)) of \(conflictingObjects.map(\.objectID)) with \(databaseObject.map { "\($0.objectID)" } ?? "each other")"
    }
}
