internal import CoreData

/// A translated predicate expression: a condition, a value with the Swift type it has, a
/// range, or a choice between two terms.
///
/// Swift's answers are two-valued where SQL's are three-valued: `nil != "a"` is true in Swift,
/// while `NULL <> 'a'` is unknown in SQL, and so is its negation. Terms therefore remember
/// whether their value may be nil, and comparisons test for nil as Swift would, so that every
/// condition the translator builds is true or false in the store, never unknown.
struct PredicateTerm {
    indirect enum Kind {
        case condition(NSPredicate)
        case value(NSExpression)
        /// The values from `lower` to `upper`, inclusive when `isClosed`.
        case range(lower: PredicateTerm, upper: PredicateTerm, isClosed: Bool)
        /// One term when a condition holds, another when it does not: `??`, `?:` and optional
        /// chaining. The store compares values but does not choose them, so operations apply
        /// to each branch and comparisons become `(c AND x) OR (NOT c AND y)`.
        case choice(NSPredicate, PredicateTerm, PredicateTerm)
    }

    let kind: Kind
    /// The Swift type of the value (without optionals), which decides how key paths and
    /// operations on it translate.
    let type: Any.Type
    /// Whether the value may be nil (its Swift type is optional, or it is a nil constant).
    private(set) var isOptional: Bool

    init(_ expression: NSExpression, type: Any.Type) {
        kind = .value(expression)
        let unwrapped = unwrappedOptional(type).map(Self.unwrapAll)
        self.type = unwrapped ?? type
        if expression.expressionType == .constantValue {
            isOptional = expression.constantValue == nil
        } else {
            isOptional = unwrapped != nil
        }
    }

    init(_ predicate: NSPredicate) {
        kind = .condition(predicate)
        type = Bool.self
        isOptional = false
    }

    init(choosing condition: NSPredicate, _ whenTrue: PredicateTerm, else whenFalse: PredicateTerm, type: Any.Type) {
        kind = .choice(condition, whenTrue, whenFalse)
        self.type = unwrappedOptional(type).map(Self.unwrapAll) ?? type
        isOptional = whenTrue.isOptional || whenFalse.isOptional
    }

    init(rangeFrom lower: PredicateTerm, to upper: PredicateTerm, isClosed: Bool) {
        kind = .range(lower: lower, upper: upper, isClosed: isClosed)
        type = lower.type
        isOptional = false
    }

    /// The term, with whether its value may be nil replaced.
    func with(isOptional: Bool) -> PredicateTerm {
        var term = self
        term.isOptional = isOptional
        return term
    }

    /// A nil of a type.
    static func none(of type: Any.Type) -> PredicateTerm {
        PredicateTerm(NSExpression(forConstantValue: nil), type: type)
    }

    private static func unwrapAll(_ type: Any.Type) -> Any.Type {
        unwrappedOptional(type).map(unwrapAll) ?? type
    }

    /// Whether the term is the constant nil.
    var isNil: Bool { isConstant && constantValue == nil }

    /// Whether the term is a constant (not a value each row computes).
    var isConstant: Bool {
        guard case .value(let expression) = kind else { return false }
        return expression.expressionType == .constantValue
    }

    /// The value of a constant term.
    var constantValue: Any? {
        guard case .value(let expression) = kind, expression.expressionType == .constantValue else { return nil }
        return expression.constantValue
    }

    /// The term as a condition: a Boolean value compares with true, and a choice is the
    /// condition of the branch chosen.
    func condition() throws -> NSPredicate {
        switch kind {
        case .condition(let predicate):
            return predicate
        case .value(let expression) where type == Bool.self && !isNil:
            return NSComparisonPredicate(
                leftExpression: expression, rightExpression: NSExpression(forConstantValue: true), modifier: .direct, type: .equalTo, options: [])
        case .choice(let condition, let whenTrue, let whenFalse):
            return Self.either(condition, try whenTrue.condition(), else: try whenFalse.condition())
        case .value, .range:
            throw SwiftDataError.unsupportedPredicate("A value of type \(type) is used as a condition.")
        }
    }

    /// The term as a value of the store's.
    func expression() throws -> NSExpression {
        switch kind {
        case .value(let expression):
            return expression
        case .condition:
            throw SwiftDataError.unsupportedPredicate("The store cannot use a condition as a value; compare it instead.")
        case .range:
            throw SwiftDataError.unsupportedPredicate("The store can only test whether a range contains a value.")
        case .choice:
            throw SwiftDataError.unsupportedPredicate("The store cannot choose between values here.")
        }
    }

    /// The term with a transformation applied to each value it may have, so that an operation
    /// on a choice is a choice of operations.
    func mapValues(type: Any.Type, _ transform: (PredicateTerm) throws -> PredicateTerm) throws -> PredicateTerm {
        guard case .choice(let condition, let whenTrue, let whenFalse) = kind else { return try transform(self) }
        return PredicateTerm(
            choosing: condition, try whenTrue.mapValues(type: type, transform), else: try whenFalse.mapValues(type: type, transform), type: type)
    }

    /// A condition over each value the term may have.
    func mapConditions(_ decision: (PredicateTerm) throws -> NSPredicate) throws -> PredicateTerm {
        PredicateTerm(try Self.decide([self]) { try decision($0[0]) })
    }

    /// A condition over the values of several terms, decided for each combination of the
    /// branches of their choices.
    static func decide(_ terms: [PredicateTerm], _ decision: ([PredicateTerm]) throws -> NSPredicate) throws -> NSPredicate {
        guard let index = terms.firstIndex(where: { if case .choice = $0.kind { true } else { false } }),
            case .choice(let condition, let whenTrue, let whenFalse) = terms[index].kind
        else { return try decision(terms) }
        var trueTerms = terms
        var falseTerms = terms
        trueTerms[index] = whenTrue
        falseTerms[index] = whenFalse
        return either(condition, try decide(trueTerms, decision), else: try decide(falseTerms, decision))
    }

    /// `(condition AND whenTrue) OR (NOT condition AND whenFalse)`.
    private static func either(_ condition: NSPredicate, _ whenTrue: NSPredicate, else whenFalse: NSPredicate) -> NSPredicate {
        NSCompoundPredicate(orPredicateWithSubpredicates: [
            NSCompoundPredicate(andPredicateWithSubpredicates: [condition, whenTrue]),
            NSCompoundPredicate(andPredicateWithSubpredicates: [NSCompoundPredicate(notPredicateWithSubpredicate: condition), whenFalse]),
        ])
    }

    /// The model class of a value that is a model, if it is one.
    var modelType: (any PersistentModel.Type)? { type as? any PersistentModel.Type }

    /// The model class of a value that is an array of models, if it is one.
    var modelArrayType: (any PersistentModel.Type)? { (type as? any ModelArray.Type)?.modelType }
}
