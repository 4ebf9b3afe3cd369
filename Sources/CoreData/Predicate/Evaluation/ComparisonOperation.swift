/// Applies a comparison operator to two already evaluated operands (spec §4.2–§4.6).
///
/// Pure functions of values, so that every caller that has two values and an operator (the
/// evaluator, quantified comparisons, the in-memory store) gets the same answer.
enum ComparisonOperation {
    typealias Operator = NSComparisonPredicate.Operator
    typealias Options = NSComparisonPredicate.Options

    /// Whether `lhs operator[options] rhs` holds; throws for operands the operator cannot take
    /// (where Foundation raises), such as a number on either side of `BEGINSWITH`.
    static func evaluate(_ operatorType: Operator, _ lhs: Any?, _ rhs: Any?, options: Options) throws -> Bool {
        switch operatorType {
        case .equalTo:
            return isEqual(lhs, rhs, options: options)
        case .notEqualTo:
            return !isEqual(lhs, rhs, options: options)
        case .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo:
            return try isOrdered(operatorType, lhs, rhs, options: options)
        case .beginsWith, .endsWith, .like, .matches:
            return try matchesString(operatorType, lhs, rhs, options: options)
        case .contains:
            return try contains(lhs, rhs, options: options)
        case .in:
            return try contains(rhs, lhs, options: options)
        case .between:
            return try isBetween(lhs, rhs, options: options)
        case .customSelector:
            throw PredicateEvaluationError.unsupported("a custom selector comparison")
        }
    }

    /// `==`: strings fold under `[c]`/`[d]`; everything else compares as `isEqual:` does, so nil
    /// matches only nil (or `NSNull`).
    static func isEqual(_ lhs: Any?, _ rhs: Any?, options: Options) -> Bool {
        if !options.isEmpty, case .string(let lhs) = PredicateValueKind(lhs), case .string(let rhs) = PredicateValueKind(rhs) {
            return StringOperators.isEqual(lhs, rhs, options: options)
        }
        return ValueComparison.isEqual(lhs, rhs)
    }

    /// `<`, `<=`, `>`, `>=`. Two nils are equal (so `<=` and `>=` hold), a single nil is unordered
    /// (false); values of kinds that cannot be ordered against each other throw.
    private static func isOrdered(_ operatorType: Operator, _ lhs: Any?, _ rhs: Any?, options: Options) throws -> Bool {
        switch (ValueUnwrapping.isNull(lhs), ValueUnwrapping.isNull(rhs)) {
        case (true, true):
            return operatorType == .lessThanOrEqualTo || operatorType == .greaterThanOrEqualTo
        case (true, false), (false, true):
            return false
        case (false, false):
            return satisfies(operatorType, try order(lhs, rhs, options: options))
        }
    }

    private static func order(_ lhs: Any?, _ rhs: Any?, options: Options) throws -> ComparisonResult {
        if case .string(let lhs) = PredicateValueKind(lhs), case .string(let rhs) = PredicateValueKind(rhs) {
            return StringOperators.compare(lhs, rhs, options: options)
        }
        guard let order = ValueComparison.order(lhs, rhs) else {
            throw PredicateEvaluationError.invalidOperand("cannot compare \(describe(lhs)) with \(describe(rhs))")
        }
        return order
    }

    private static func satisfies(_ operatorType: Operator, _ order: ComparisonResult) -> Bool {
        switch operatorType {
        case .lessThan: order == .orderedAscending
        case .lessThanOrEqualTo: order != .orderedDescending
        case .greaterThan: order == .orderedDescending
        case .greaterThanOrEqualTo: order != .orderedAscending
        default: false
        }
    }

    /// `BEGINSWITH`, `ENDSWITH`, `LIKE` and `MATCHES`: false when either side is nil, an error when
    /// either side is not a string.
    private static func matchesString(_ operatorType: Operator, _ lhs: Any?, _ rhs: Any?, options: Options) throws -> Bool {
        guard let (string, pattern) = try strings(lhs, rhs, for: operatorType) else { return false }
        switch operatorType {
        case .beginsWith: return StringOperators.hasPrefix(string, pattern, options: options)
        case .endsWith: return StringOperators.hasSuffix(string, pattern, options: options)
        case .like: return StringOperators.like(string, pattern: pattern, options: options)
        default: return StringOperators.matches(string, regularExpression: pattern, options: options)
        }
    }

    /// `container CONTAINS element`, and `element IN container`: substring search when the
    /// container is a string, membership when it is a collection or dictionary.
    private static func contains(_ container: Any?, _ element: Any?, options: Options) throws -> Bool {
        guard !ValueUnwrapping.isNull(container) else { return false }
        if case .string(let string) = PredicateValueKind(container) {
            guard let (string, needle) = try strings(string, element, for: .contains) else { return false }
            return StringOperators.contains(string, needle, options: options)
        }
        guard let members = CollectionElements.members(of: container) else {
            throw PredicateEvaluationError.invalidOperand("CONTAINS and IN need a collection or a string, found \(describe(container))")
        }
        return members.contains { isEqual($0, element, options: options) }
    }

    /// `value BETWEEN {lower, upper}`, inclusive at both ends.
    private static func isBetween(_ value: Any?, _ bounds: Any?, options: Options) throws -> Bool {
        guard let bounds = CollectionElements.elements(of: bounds), bounds.count == 2 else {
            throw PredicateEvaluationError.invalidOperand("BETWEEN needs a collection of two bounds, found \(describe(bounds))")
        }
        return try isOrdered(.greaterThanOrEqualTo, value, bounds[0], options: options)
            && isOrdered(.lessThanOrEqualTo, value, bounds[1], options: options)
    }

    /// Both operands as strings; nil when either is nil; an error when either is something else.
    private static func strings(_ lhs: Any?, _ rhs: Any?, for operatorType: Operator) throws -> (String, String)? {
        switch (PredicateValueKind(lhs), PredicateValueKind(rhs)) {
        case (.string(let lhs), .string(let rhs)):
            return (lhs, rhs)
        case (.null, _), (_, .null):
            return nil
        default:
            throw PredicateEvaluationError.invalidOperand(
                "\(PredicateFormatPrinter.spelling(of: operatorType)) needs strings, found \(describe(lhs)) and \(describe(rhs))"
            )
        }
    }

    private static func describe(_ value: Any?) -> String {
        guard let value = ValueUnwrapping.unwrapped(value) else { return "nil" }
        return "\(type(of: value)) \(value)"
    }
}
