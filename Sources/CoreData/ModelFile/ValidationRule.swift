/// A validation rule a model file states with attributes of an `<attribute>`: a minimum or
/// maximum (`minValueString`, `maxValueString` and their date forms; a length for strings) or a
/// regular expression. A model holds each rule as a validation predicate with the error code
/// it reports as its warning; writing a model back turns such predicates into rules again.
struct ValidationRule {
    enum Bound: CaseIterable {
        case minimum
        case maximum

        /// The attribute of `<attribute>` that states the bound.
        var attribute: String { self == .minimum ? "minValueString" : "maxValueString" }
        /// The attribute that states the bound of a date as seconds since 2001.
        var dateAttribute: String { self == .minimum ? "minDateTimeInterval" : "maxDateTimeInterval" }
    }

    enum Kind {
        /// A number, a string length (an `NSNumber`) or a date.
        case bound(Bound, limit: Any)
        case pattern(String)
    }

    let kind: Kind
    let predicate: NSPredicate
    /// The validation error code the rule reports.
    let code: Int

    init(bound: Bound, limit: Any, type: NSAttributeType) {
        kind = .bound(bound, limit: limit)
        let comparison = bound == .minimum ? ">=" : "<="
        switch type {
        case .stringAttributeType:
            predicate = NSPredicate(format: "length \(comparison) %@", argumentArray: [limit])
            code = bound == .minimum ? NSValidationStringTooShortError : NSValidationStringTooLongError
        case .dateAttributeType:
            predicate = NSPredicate(format: "SELF \(comparison) %@", argumentArray: [limit])
            code = bound == .minimum ? NSValidationDateTooSoonError : NSValidationDateTooLateError
        default:
            predicate = NSPredicate(format: "SELF \(comparison) %@", argumentArray: [limit])
            code = bound == .minimum ? NSValidationNumberTooSmallError : NSValidationNumberTooLargeError
        }
    }

    init(pattern: String) {
        kind = .pattern(pattern)
        predicate = NSPredicate(format: "SELF MATCHES %@", argumentArray: [pattern])
        code = NSValidationStringPatternMatchingError
    }

    /// The rule a validation predicate states, or nil when a model file cannot state it.
    init?(predicate: NSPredicate, warning: Any?) {
        // `NSPredicate(format:)` gives a plain `NSPredicate`; its typed view is the comparison.
        guard let comparison = NSPredicate.make(node: predicate.node) as? NSComparisonPredicate, comparison.comparisonPredicateModifier == .direct,
              comparison.rightExpression.expressionType == .constantValue, let limit = comparison.rightExpression.constantValue else { return nil }
        let left = comparison.leftExpression
        let readsLength = left.expressionType == .keyPath && left.keyPath == "length"
        guard readsLength || left.expressionType == .evaluatedObject else { return nil }
        switch comparison.predicateOperatorType {
        case .greaterThanOrEqualTo: kind = .bound(.minimum, limit: limit)
        case .lessThanOrEqualTo: kind = .bound(.maximum, limit: limit)
        case .matches where !readsLength && comparison.options.isEmpty:
            guard let pattern = limit as? String else { return nil }
            kind = .pattern(pattern)
        default: return nil
        }
        self.predicate = predicate
        code = ValidationWarning.code(of: warning)
    }
}
