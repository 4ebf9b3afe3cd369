// Fetch request expressions (`NSFetchRequestExpression`): the context runs their fetches, both
// when one is evaluated and before a fetch whose predicate compares with one, so that every store
// type, and the overlay of unsaved changes, sees its result as a constant.
extension NSManagedObjectContext: FetchRequestExpressionContext {
    func result(ofFetch request: Any?, countOnly: Bool) throws -> Any {
        guard let request = request as? AnyResultFetchRequest else {
            throw CoreDataError.invalidRequest(
                "The request of a fetch request expression must evaluate to an NSFetchRequest, not \(request.map { "\(type(of: $0))" } ?? "nil")."
            )
        }
        return countOnly ? NSNumber(value: try request.count(in: self)) : try request.results(in: self)
    }

    /// `predicate` with each fetch request expression that is an operand of a comparison, and
    /// reads nothing of the fetched object, replaced by its result: the store then compares with
    /// an array of objects or a number, which every store type can.
    func resolvingFetchRequestExpressions(in predicate: NSPredicate?) throws -> NSPredicate? {
        guard let predicate, predicate.node.hasComparisonOperand(where: Self.isResolvableFetch) else { return predicate }
        let evaluator = PredicateEvaluator()
        let resolved = try predicate.node.mappingComparisonOperands { operand in
            guard Self.isResolvableFetch(operand) else { return operand }
            return .constant(ConstantValue(try evaluator.value(of: operand, with: nil)))
        }
        return NSPredicate.make(node: resolved)
    }

    private static func isResolvableFetch(_ operand: ExpressionNode) -> Bool {
        guard case .fetchRequest = operand else { return false }
        return !operand.readsEvaluatedObject
    }
}

/// A fetch request of any result type: Swift cannot cast `Any` to `NSFetchRequest<T>` for a `T`
/// it does not know, which Objective-C never distinguished.
private protocol AnyResultFetchRequest {
    func results(in context: NSManagedObjectContext) throws -> [Any]
    func count(in context: NSManagedObjectContext) throws -> Int
}

extension NSFetchRequest: AnyResultFetchRequest {
    fileprivate func results(in context: NSManagedObjectContext) throws -> [Any] {
        try context.fetch(self)
    }

    fileprivate func count(in context: NSManagedObjectContext) throws -> Int {
        try context.count(for: self)
    }
}
