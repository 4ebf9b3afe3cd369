/// Evaluates predicate trees in memory with Foundation's semantics (spec §4).
///
/// The in-memory counterpart of the SQLite store's SQL compiler: `NSPredicate.evaluate(with:)`,
/// the in-memory store and a context's pending-changes overlay all come here.
struct PredicateEvaluator {
    /// The values of `$variables`, by name without the `$`.
    var variables: [String: Any]

    /// The dictionary `NSExpression.expressionValue(with:context:)` was given, which block
    /// expressions receive to keep state in; nil when evaluation did not start there.
    let context: NSMutableDictionary?

    init(variables: [String: Any] = [:], context: NSMutableDictionary? = nil) {
        self.variables = variables
        self.context = context
    }

    /// Whether `predicate` holds for `object`; throws when it cannot be evaluated (an unknown key,
    /// a missing variable, operands an operator cannot take).
    func evaluate(_ predicate: PredicateNode, with object: Any?) throws -> Bool {
        switch predicate {
        case .constant(let value):
            return value
        case .comparison(let comparison):
            return try evaluate(comparison, with: object)
        case .compound(let type, let subpredicates):
            return try evaluate(type, subpredicates, with: object)
        case .block(let block):
            return block.body(object, variables)
        }
    }

    /// `AND` and `OR` evaluate left to right and stop at the first operand that decides.
    private func evaluate(_ type: NSCompoundPredicate.LogicalType, _ subpredicates: [PredicateNode], with object: Any?) throws -> Bool {
        switch type {
        case .and:
            return try subpredicates.allSatisfy { try evaluate($0, with: object) }
        case .or:
            return try subpredicates.contains { try evaluate($0, with: object) }
        case .not:
            return try !subpredicates.allSatisfy { try evaluate($0, with: object) }
        }
    }

    private func evaluate(_ comparison: ComparisonNode, with object: Any?) throws -> Bool {
        let lhs = try value(of: comparison.left, with: object)
        let test: (Any?) throws -> Bool
        if let membership = Self.membershipIndex(of: comparison) {
            test = membership.contains
        } else {
            let rhs = try value(of: comparison.right, with: object)
            if let selector = comparison.customSelector {
                test = { try MethodCall.isTrue(selector, on: $0, argument: rhs) }
            } else {
                test = { try ComparisonOperation.evaluate(comparison.operatorType, $0, rhs, options: comparison.options) }
            }
        }
        switch comparison.modifier {
        case .direct:
            return try test(lhs)
        case .any:
            return try quantifiedElements(of: lhs).contains { try test($0) }
        case .all:
            return try quantifiedElements(of: lhs).allSatisfy { try test($0) }
        }
    }

    /// The hashed members of a large constant on the right of `IN` without options.
    private static func membershipIndex(of comparison: ComparisonNode) -> MembershipIndex? {
        guard comparison.operatorType == .in, comparison.options.isEmpty, case .constant(let constant) = comparison.right else { return nil }
        return constant.membership
    }

    /// The elements `ANY` and `ALL` range over; nil counts as an empty collection (a to-many
    /// relationship with no destinations).
    private func quantifiedElements(of value: Any?) throws -> [Any] {
        guard !ValueUnwrapping.isNull(value) else { return [] }
        guard let elements = CollectionElements.elements(of: value) else {
            throw PredicateEvaluationError.invalidOperand(
                "the left side of an ANY or ALL comparison must be a collection, found \(type(of: value ?? NSNull()))"
            )
        }
        return elements
    }
}
