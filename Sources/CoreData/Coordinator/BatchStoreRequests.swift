/// A batch update resolved against the model, in the form the coordinator hands to a store.
package struct BatchUpdate {
    /// The rows to update: the entity, the entities whose rows match, and the predicate.
    let plan: FetchPlan
    /// The attribute slots to set, each with a constant or an expression.
    let assignments: [(slot: Int, value: BatchUpdateValue)]
    /// Whether the result lists the updated objects' IDs.
    let reportsObjectIDs: Bool
}

/// A new value in a batch update.
package enum BatchUpdateValue {
    /// A value checked against the attribute's type; nil sets NULL.
    case constant(Any?)
    /// An expression evaluated against each row.
    case expression(NSExpression)
}

/// A batch delete resolved against the model: the plan finding the rows to delete.
package struct BatchDelete {
    let plan: FetchPlan
    /// Whether the result lists the deleted objects' IDs.
    let reportsObjectIDs: Bool
}

/// A batch insert resolved against the model, its values checked and defaults applied.
package struct BatchInsert {
    let entity: NSEntityDescription
    /// The persistent attribute slots every row has a value for, in order.
    let slots: [Int]
    let rows: [BatchInsertRow]
}

/// One row of a batch insert.
package struct BatchInsertRow {
    /// The values of `BatchInsert.slots`, in their order; nil is NULL.
    var values: [Any?]
    /// Whether the program gave each value (rather than it being a default): a row that updates
    /// an existing row through a uniqueness constraint sets only those.
    var given: [Bool]
}

/// What a batch request did in a store.
package struct BatchOutcome {
    /// The objects the request's result names: the inserted (or updated), updated or deleted ones.
    var objectIDs: [NSManagedObjectID] = []
    /// Every row whose stored values changed or that is gone, for the coordinator's row cache.
    var changedRows: [NSManagedObjectID] = []
    /// For a request the store ran as SQL alone, without listing the rows: how many objects it
    /// changed (`objectIDs` and `changedRows` are then empty, and every cached row of the store
    /// is stale).
    var unlistedCount: Int?
}

/// A store that runs batch requests itself (the relational stores); other stores refuse them.
package protocol BatchRequestExecuting: PersistentStoreEngine {
    /// Updates the rows an update's plan finds, in one transaction.
    func executeBatchUpdate(_ update: BatchUpdate) throws -> BatchOutcome
    /// Deletes the rows a delete's plan finds, following their relationships' delete rules, in
    /// one transaction.
    func executeBatchDelete(_ deletion: BatchDelete) throws -> BatchOutcome
    /// Inserts an insert's rows, or updates the rows their uniqueness constraints match, in one
    /// transaction.
    func executeBatchInsert(_ insert: BatchInsert) throws -> BatchOutcome
    /// Runs a request again when the database rolled its transaction back for a reason that
    /// running it again can cure (a deadlock between two servers' writes); once where there is
    /// no such reason.
    func rerunningTransientFailures<Result>(_ work: () throws -> Result) throws -> Result
}

extension BatchRequestExecuting {
    package func rerunningTransientFailures<Result>(_ work: () throws -> Result) throws -> Result {
        try work()
    }
}
