/// `UNION`, `INTERSECT` and `MINUS` of two collections (spec §4.6). The result has no repeated
/// values, in the order in which they first appear.
enum SetOperationEvaluation {
    static func apply(_ operation: SetOperation, _ left: Any?, _ right: Any?) throws -> [Any] {
        let lhs = try elements(left, operation)
        let rhs = try elements(right, operation)
        switch operation {
        case .union:
            return CollectionElements.distinct(lhs + rhs)
        case .intersect:
            let members = Set(rhs.map(PredicateValueKey.init))
            return CollectionElements.distinct(lhs.filter { members.contains(PredicateValueKey($0)) })
        case .minus:
            let members = Set(rhs.map(PredicateValueKey.init))
            return CollectionElements.distinct(lhs.filter { !members.contains(PredicateValueKey($0)) })
        }
    }

    private static func elements(_ value: Any?, _ operation: SetOperation) throws -> [Any] {
        guard !ValueUnwrapping.isNull(value) else { return [] }
        guard let elements = CollectionElements.members(of: value) else {
            throw PredicateEvaluationError.invalidOperand("both sides of \(operation.keyword) must be collections, found \(type(of: value ?? NSNull()))")
        }
        return elements
    }
}
