// Fetch request expressions (`NSFetchRequestExpression`): the context runs their fetches, both
// when one is evaluated and before a fetch whose predicate compares with one, so that every store
// type, and the overlay of unsaved changes, sees its result as a constant. A store that compiles
// subqueries answers the common forms inside its own query instead.
extension NSManagedObjectContext: FetchRequestExpressionContext {
    func result(ofFetch request: Any?, countOnly: Bool) throws -> Any {
        guard let request = request as? AnyResultFetchRequest else {
            throw CoreDataError.invalidRequest(
                "The request of a fetch request expression must evaluate to an NSFetchRequest, not \(request.map { "\(type(of: $0))" } ?? "nil")."
            )
        }
        return try nestingFetch { () throws -> Any in
            countOnly ? NSNumber(value: try request.count(in: self)) : try request.results(in: self)
        }
    }

    /// The deepest fetch request expressions nest inside one another's requests.
    static let maximumNestedFetchDepth = 32

    /// Runs `body`, which fetches for a fetch request expression, one level deeper; throws rather
    /// than recursing without end when a request is (through others) inside its own predicate.
    private func nestingFetch<T>(_ body: () throws -> T) throws -> T {
        guard nestedFetchDepth < Self.maximumNestedFetchDepth else {
            throw CoreDataError.invalidRequest(
                "Fetch request expressions nest more than \(Self.maximumNestedFetchDepth) levels deep; does a fetch request compare with a fetch of itself?"
            )
        }
        nestedFetchDepth += 1
        defer { nestedFetchDepth -= 1 }
        return try body()
    }

    /// The predicate of `request`, a fetch of `entity` (and `entities`), with each fetch request
    /// expression that is an operand of a comparison and reads nothing of the fetched object made
    /// something the stores can answer: a `StoreSubfetch` where one store answers the fetch alone
    /// and compiles it (see `storeSubfetch`), and its result (an array, or a number) otherwise.
    func resolvingFetchRequestExpressions<T>(of request: NSFetchRequest<T>, entity: NSEntityDescription,
                                             entities: [NSEntityDescription]) throws -> NSPredicate? {
        guard let predicate = request.predicate, predicate.node.hasComparisonOperand(where: Self.isResolvableFetch) else { return request.predicate }
        let store = try storeAnsweringAlone(entities, affectedStores: request.affectedStores, includesPendingChanges: request.includesPendingChanges)
        let resolved = try predicate.node.mappingComparisons { comparison in
            var resolved = comparison
            resolved.left = try resolvedOperand(comparison.left, of: comparison, onRight: false, entity: entity, store: store)
            resolved.right = try resolvedOperand(comparison.right, of: comparison, onRight: true, entity: entity, store: store)
            return resolved
        }
        return NSPredicate.make(node: resolved)
    }

    private static func isResolvableFetch(_ operand: ExpressionNode) -> Bool {
        guard case .fetchRequest = operand else { return false }
        return !operand.readsEvaluatedObject
    }

    /// The one store that answers a fetch of `entities` with a single query of its own, when it
    /// compiles subqueries: no parent context, no other store, no unsaved changes to overlay.
    private func storeAnsweringAlone(_ entities: [NSEntityDescription], affectedStores: [NSPersistentStore]?,
                                     includesPendingChanges: Bool) throws -> NSPersistentStore? {
        let stores = try requireCoordinator().stores(holding: entities, affected: affectedStores)
        guard parent == nil, stores.count == 1, let store = stores.first as? PersistentStoreEngine, store.compilesSubfetches,
              !includesPendingChanges || pendingObjects(of: entities).isEmpty else { return nil }
        return store
    }

    private func resolvedOperand(_ operand: ExpressionNode, of comparison: ComparisonNode, onRight: Bool, entity: NSEntityDescription,
                                 store: NSPersistentStore?) throws -> ExpressionNode {
        guard Self.isResolvableFetch(operand) else { return operand }
        if let store, let subfetch = try storeSubfetch(operand, of: comparison, onRight: onRight, entity: entity, store: store) {
            return subfetch
        }
        return .constant(ConstantValue(try PredicateEvaluator().value(of: operand, with: nil)))
    }

    /// The fetch request expression `operand` with its request replaced by a `StoreSubfetch`, for
    /// `store` to answer as a subquery; nil unless the subquery gives what running the request
    /// gives, in a form the store compiles:
    /// - the request is a constant fetch of objects or object IDs, run in this context, whose
    ///   entities `store` alone holds and which has no unsaved changes of them to include;
    /// - its results are what `SELF` or a to-one key path is `IN`, or its count is compared
    ///   (`==`, `<`, …) with a number, a numeric attribute or a to-many `@count`.
    private func storeSubfetch(_ operand: ExpressionNode, of comparison: ComparisonNode, onRight: Bool, entity: NSEntityDescription,
                               store: NSPersistentStore) throws -> ExpressionNode? {
        guard case .fetchRequest(.constant(let requestConstant), .constant(let contextConstant), let countOnly) = operand,
              let request = requestConstant.value as? AnyResultFetchRequest, contextConstant.value as? NSManagedObjectContext === self,
              [.managedObjectResultType, .managedObjectIDResultType].contains(request.resultType),
              comparison.modifier == .direct, comparison.options.isEmpty, comparison.customSelector == nil else { return nil }
        let other = onRight ? comparison.left : comparison.right
        let compiles = countOnly
            ? Self.isOrdering(comparison.operatorType) && Self.isNumber(other, in: entity)
            : comparison.operatorType == .in && onRight && Self.isObjectKey(other, in: entity)
        guard compiles else { return nil }
        let plan = try nestingFetch { try request.plan(in: self) }
        guard try storeAnsweringAlone(plan.entities, affectedStores: request.affectedStores,
                                      includesPendingChanges: request.includesPendingChanges) === store else { return nil }
        return .fetchRequest(request: .constant(ConstantValue(StoreSubfetch(plan: plan))), context: .constant(contextConstant), countOnly: countOnly)
    }

    private static func isOrdering(_ type: NSComparisonPredicate.Operator) -> Bool {
        [.equalTo, .notEqualTo, .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo].contains(type)
    }

    /// `SELF`, or a key path through to-one relationships that ends at one.
    private static func isObjectKey(_ expression: ExpressionNode, in entity: NSEntityDescription) -> Bool {
        if case .evaluatedObject = expression { return true }
        guard let components = expression.rootedKeyPath, let resolved = try? entity.resolve(keyPathComponents: components) else { return false }
        return resolved.remainder.isEmpty && resolved.steps.allSatisfy { $0.relationship?.isToMany == false }
    }

    /// A constant number, a numeric attribute reached through to-one relationships, or the
    /// `@count` of a to-many relationship reached so.
    private static func isNumber(_ expression: ExpressionNode, in entity: NSEntityDescription) -> Bool {
        if case .constant(let constant) = expression { return constant.value is NSNumber }
        guard let components = expression.rootedKeyPath, let resolved = try? entity.resolve(keyPathComponents: components),
              let last = resolved.steps.last, resolved.steps.dropLast().allSatisfy({ $0.relationship?.isToMany == false }) else { return false }
        if let relationship = last.relationship {
            return relationship.isToMany && Array(resolved.remainder) == ["@count"]
        }
        return resolved.remainder.isEmpty && (last.property as? NSAttributeDescription)?.attributeType.isNumeric == true
    }
}

/// A fetch request of any result type: Swift cannot cast `Any` to `NSFetchRequest<T>` for a `T`
/// it does not know, which Objective-C never distinguished.
protocol AnyResultFetchRequest {
    var resultType: NSFetchRequestResultType { get }
    var affectedStores: [NSPersistentStore]? { get }
    var includesPendingChanges: Bool { get }
    func results(in context: NSManagedObjectContext) throws -> [Any]
    func count(in context: NSManagedObjectContext) throws -> Int
    func plan(in context: NSManagedObjectContext) throws -> FetchPlan
}

extension NSFetchRequest: AnyResultFetchRequest {
    func results(in context: NSManagedObjectContext) throws -> [Any] {
        try context.fetch(self)
    }

    func count(in context: NSManagedObjectContext) throws -> Int {
        try context.count(for: self)
    }

    func plan(in context: NSManagedObjectContext) throws -> FetchPlan {
        try context.fetchPlan(for: self, model: context.requireCoordinator().managedObjectModel)
    }
}
