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
            throw SwiftDataError.unsupportedPredicate(
                "The predicate reads a variable the store cannot reach here (a subquery over a relationship reads only its own element).")
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
    private func makeVariableName() -> String {
        variableCount += 1
        return "v\(variableCount)"
    }

    static func name(of expression: any PredicateExpression) -> String {
        let description = String(describing: type(of: expression))
        return description.split(separator: "<").first.map(String.init) ?? description
    }

    // MARK: Values

    /// A key path of a value: a persisted property or identifier of a model, the count of a
    /// to-many relationship, a member of a structure held as a composite attribute, or what the
    /// store holds for a string's emptiness or an enumeration's raw value.
    func keyPath(_ keyPath: AnyKeyPath, of base: PredicateTerm, type: Any.Type) throws -> PredicateTerm {
        if base.isNil { return .none(of: type) }
        if let model = base.modelType {
            if model.identifierKeyPaths.contains(keyPath), !model.schemaMetadata.contains(where: { $0.keypath == keyPath }) {
                return PredicateTerm(try base.expression(), type: PersistentIdentifier.self).with(isOptional: base.isOptional)
            }
            let name = try KeyPathNames(model).name(of: keyPath)
            // A property of a model that may be missing may be missing too (a left join's NULL).
            let property = PredicateTerm(NSExpression(forKeyPath: [name], from: try base.expression()), type: type)
            return property.with(isOptional: property.isOptional || base.isOptional)
        }
        if let array = base.type as? any ModelArray.Type {
            if keyPath == array.countKeyPath {
                return PredicateTerm(NSExpression(forKeyPath: ["@count"], from: try base.expression()), type: Int.self)
            }
            if keyPath == array.isEmptyKeyPath {
                return PredicateTerm(countComparison(of: try base.expression(), .equalTo, 0))
            }
        }
        if let structure = base.type as? any Decodable.Type, CompositeShapeProbe.shape(of: structure) != nil,
           let name = StoredPropertyNames.name(of: keyPath, in: base.type) {
            // A member of a structure held as a composite attribute: the element of its name.
            let member = PredicateTerm(NSExpression(forKeyPath: [name], from: try base.expression()), type: type)
            return member.with(isOptional: member.isOptional || base.isOptional)
        }
        if base.type == String.self, keyPath == \String.isEmpty as AnyKeyPath {
            return PredicateTerm(try compare(base, PredicateTerm(NSExpression(forConstantValue: ""), type: String.self), .equalTo))
        }
        if Self.readsRawValue(keyPath, of: base.type) {
            // The store holds an enumeration's raw value.
            return PredicateTerm(try base.expression(), type: type).with(isOptional: base.isOptional)
        }
        throw SwiftDataError.unsupportedKeyPath("The store cannot compute \(keyPath) of a \(base.type).")
    }

    /// Whether a key path reads the raw value of an enumeration's cases. A key path written
    /// `\.rawValue` is not equal to one built generically (`\Value.rawValue` reads through the
    /// protocol), so it is recognized by reading the raw value of every case.
    private static func readsRawValue(_ keyPath: AnyKeyPath, of type: Any.Type) -> Bool {
        guard let enumeration = type as? any (CaseIterable & RawRepresentable).Type else { return false }
        return readsRawValueOfEachCase(keyPath, of: enumeration)
    }

    private static func readsRawValueOfEachCase<Value: CaseIterable & RawRepresentable>(_ keyPath: AnyKeyPath, of type: Value.Type) -> Bool {
        guard let path = keyPath as? KeyPath<Value, Value.RawValue>, !Value.allCases.isEmpty else { return false }
        return Value.allCases.allSatisfy { "\($0[keyPath: path])" == "\($0.rawValue)" }
    }

    /// A built-in function of two sub-expressions, for each value each may have.
    func function(_ name: String, _ lhs: any PredicateExpression, _ rhs: any PredicateExpression, type: Any.Type) throws -> PredicateTerm {
        let right = try term(of: rhs)
        return try term(of: lhs).mapValues(type: type) { left in
            try right.mapValues(type: type) { right in
                PredicateTerm(NSExpression(forFunction: name, arguments: [try left.expression(), try right.expression()]), type: type)
            }
        }
    }

    /// The value of an expression over a collection the predicate holds (its least or greatest
    /// element, say), computed once before the fetch: it reads no model.
    func constant<Expression: PredicateExpression>(_ expression: Expression, over collection: any PredicateExpression) throws -> PredicateTerm {
        guard try term(of: collection).isConstant else {
            throw SwiftDataError.unsupportedPredicate("The store computes \(Self.name(of: expression)) only of a collection the predicate holds.")
        }
        let value = try expression.evaluate(PredicateBindings())
        return PredicateTerm(NSExpression(forConstantValue: try PredicateConstant.engineValue(of: value)), type: Expression.Output.self)
    }

    // MARK: Subqueries

    /// The models of a to-many relationship that pass a test (or fail it), as a subquery. The
    /// test reads only its element: the store's subqueries cannot read the object outside.
    func subquery(
        over collection: PredicateTerm, variable: PredicateExpressions.VariableID, test: any PredicateExpression, negated: Bool = false
    ) throws -> NSExpression {
        guard let elementType = collection.modelArrayType else {
            throw SwiftDataError.unsupportedPredicate("The store can only test the models of a to-many relationship, not the elements of a \(collection.type).")
        }
        let name = makeVariableName()
        let element = PredicateTerm(NSExpression(forVariable: name), type: elementType)
        let outside = variables
        variables = [variable: element]
        defer { variables = outside }
        var condition = try term(of: test).condition()
        if negated { condition = NSCompoundPredicate(notPredicateWithSubpredicate: condition) }
        return NSExpression(forSubquery: try collection.expression(), usingIteratorVariable: name, predicate: condition)
    }

    /// A comparison of the number of a collection's elements with a number.
    func countComparison(of collection: NSExpression, _ type: NSComparisonPredicate.Operator, _ count: Int) -> NSPredicate {
        NSComparisonPredicate(
            leftExpression: NSExpression(forKeyPath: ["@count"], from: collection), rightExpression: NSExpression(forConstantValue: count),
            modifier: .direct, type: type, options: [])
    }
}

/// A predicate expression that translates itself into the engine's terms.
protocol TranslatablePredicateExpression {
    func translate(with translator: PredicateTranslator) throws -> PredicateTerm
}
