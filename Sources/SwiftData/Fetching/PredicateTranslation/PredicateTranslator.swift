internal import CoreData

/// Translates Foundation's predicates over models into the engine's predicates, which the
/// store answers (in SQL, for a SQLite store).
///
/// Each kind of Foundation predicate expression translates itself
/// (`TranslatablePredicateExpression`); an expression the store cannot compute is a thrown
/// `SwiftDataError.unsupportedPredicate` that names it, never an evaluation in memory.
final class PredicateTranslator {
    /// What a predicate variable stands for.
    private var variables: [PredicateExpressions.VariableID: PredicateTerm] = [:]
    private var variableCount = 0

    /// The engine's predicate for a predicate over models of a class.
    static func translate<T: PersistentModel>(_ predicate: Predicate<T>) throws -> NSPredicate {
        let translator = PredicateTranslator()
        translator.variables[predicate.variable.key] = PredicateTerm(NSExpression.expressionForEvaluatedObject(), type: T.self)
        return try translator.term(of: predicate.expression).condition()
    }

    /// The term of a sub-expression.
    func term(of expression: any PredicateExpression) throws -> PredicateTerm {
        guard let translatable = expression as? any TranslatablePredicateExpression else {
            throw SwiftDataError.unsupportedPredicate("The store cannot compute \(Self.name(of: expression)).")
        }
        return try translatable.translate(with: self)
    }

    /// The term a variable stands for.
    func term(ofVariable id: PredicateExpressions.VariableID) throws -> PredicateTerm {
        guard let term = variables[id] else {
            throw SwiftDataError.unsupportedPredicate("The predicate uses a variable it does not declare.")
        }
        return term
    }

    /// Binds a closure's variable to a term while the closure's body translates.
    func binding<Result>(_ id: PredicateExpressions.VariableID, to term: PredicateTerm, _ body: () throws -> Result) rethrows -> Result {
        let previous = variables[id]
        variables[id] = term
        defer { variables[id] = previous }
        return try body()
    }

    /// A fresh name for a subquery's iteration variable.
    func makeVariableName() -> String {
        variableCount += 1
        return "v\(variableCount)"
    }

    static func name(of expression: any PredicateExpression) -> String {
        let description = String(describing: type(of: expression))
        return description.split(separator: "<").first.map(String.init) ?? description
    }
}

/// A predicate expression that translates itself into the engine's terms.
protocol TranslatablePredicateExpression {
    func translate(with translator: PredicateTranslator) throws -> PredicateTerm
}
