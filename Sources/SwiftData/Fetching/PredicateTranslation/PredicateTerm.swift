internal import CoreData

/// A translated predicate expression: a condition, or a value with the Swift type it has.
struct PredicateTerm {
    enum Kind {
        case condition(NSPredicate)
        case value(NSExpression)
    }

    let kind: Kind
    /// The Swift type of the value (without optionals), which decides how key paths and
    /// operations on it translate.
    let type: Any.Type

    init(_ expression: NSExpression, type: Any.Type) {
        kind = .value(expression)
        self.type = unwrappedOptional(type).map(Self.unwrapAll) ?? type
    }

    init(_ predicate: NSPredicate) {
        kind = .condition(predicate)
        type = Bool.self
    }

    private static func unwrapAll(_ type: Any.Type) -> Any.Type {
        unwrappedOptional(type).map(unwrapAll) ?? type
    }

    /// The term as a condition: a Boolean value compares with true.
    func condition() throws -> NSPredicate {
        switch kind {
        case .condition(let predicate):
            return predicate
        case .value(let expression) where type == Bool.self:
            return NSComparisonPredicate(
                leftExpression: expression, rightExpression: NSExpression(forConstantValue: true), modifier: .direct, type: .equalTo, options: [])
        case .value:
            throw SwiftDataError.unsupportedPredicate("A value of type \(type) is used as a condition.")
        }
    }

    /// The term as a value: a condition becomes a conditional true or false.
    func expression() -> NSExpression {
        switch kind {
        case .value(let expression):
            return expression
        case .condition(let predicate):
            return NSExpression(
                forConditional: predicate, trueExpression: NSExpression(forConstantValue: true), falseExpression: NSExpression(forConstantValue: false))
        }
    }

    /// The model class of a value that is a model, if it is one.
    var modelType: (any PersistentModel.Type)? { type as? any PersistentModel.Type }

    /// The model class of a value that is an array of models, if it is one.
    var modelArrayType: (any PersistentModel.Type)? { (type as? any ModelArray.Type)?.modelType }
}
