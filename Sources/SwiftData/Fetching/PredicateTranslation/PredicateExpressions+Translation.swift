internal import CoreData

// Each kind of Foundation predicate expression the store can compute, translated.

extension PredicateExpressions.Variable: TranslatablePredicateExpression {
    func translate(with translator: PredicateTranslator) throws -> PredicateTerm {
        try translator.term(ofVariable: key)
    }
}

extension PredicateExpressions.Value: TranslatablePredicateExpression {
    func translate(with translator: PredicateTranslator) throws -> PredicateTerm {
        PredicateTerm(NSExpression(forConstantValue: try PredicateConstant.engineValue(of: value)), type: Output.self)
    }
}

extension PredicateExpressions.NilLiteral: TranslatablePredicateExpression {
    func translate(with translator: PredicateTranslator) throws -> PredicateTerm {
        PredicateTerm(NSExpression(forConstantValue: nil), type: Output.self)
    }
}

extension PredicateExpressions.KeyPath: TranslatablePredicateExpression {
    func translate(with translator: PredicateTranslator) throws -> PredicateTerm {
        let base = try translator.term(of: root)
        let path = keyPath as AnyKeyPath
        if let model = base.modelType {
            if model.identifierKeyPaths.contains(path), !isPersisted(path, of: model) {
                return PredicateTerm(base.expression(), type: PersistentIdentifier.self)
            }
            let name = try KeyPathNames(model).name(of: path)
            return PredicateTerm(NSExpression(forKeyPath: [name], from: base.expression()), type: Output.self)
        }
        if let array = base.type as? any ModelArray.Type {
            if path == array.countKeyPath {
                return PredicateTerm(NSExpression(forKeyPath: ["@count"], from: base.expression()), type: Int.self)
            }
            if path == array.isEmptyKeyPath {
                let count = NSExpression(forKeyPath: ["@count"], from: base.expression())
                return PredicateTerm(
                    NSComparisonPredicate(leftExpression: count, rightExpression: NSExpression(forConstantValue: 0), modifier: .direct, type: .equalTo, options: []))
            }
        }
        if base.type == String.self, Output.self == Bool.self, path == \String.isEmpty as AnyKeyPath {
            return PredicateTerm(
                NSComparisonPredicate(leftExpression: base.expression(), rightExpression: NSExpression(forConstantValue: ""), modifier: .direct, type: .equalTo, options: []))
        }
        throw SwiftDataError.unsupportedKeyPath("The store cannot compute \(path) of a \(base.type).")
    }

    private func isPersisted(_ path: AnyKeyPath, of model: any PersistentModel.Type) -> Bool {
        model.schemaMetadata.contains { $0.keypath == path }
    }
}

extension PredicateExpressions.Conjunction: TranslatablePredicateExpression {
    func translate(with translator: PredicateTranslator) throws -> PredicateTerm {
        PredicateTerm(NSCompoundPredicate(andPredicateWithSubpredicates: [try translator.term(of: lhs).condition(), try translator.term(of: rhs).condition()]))
    }
}

extension PredicateExpressions.Disjunction: TranslatablePredicateExpression {
    func translate(with translator: PredicateTranslator) throws -> PredicateTerm {
        PredicateTerm(NSCompoundPredicate(orPredicateWithSubpredicates: [try translator.term(of: lhs).condition(), try translator.term(of: rhs).condition()]))
    }
}

extension PredicateExpressions.Negation: TranslatablePredicateExpression {
    func translate(with translator: PredicateTranslator) throws -> PredicateTerm {
        PredicateTerm(NSCompoundPredicate(notPredicateWithSubpredicate: try translator.term(of: wrapped).condition()))
    }
}

extension PredicateExpressions.Equal: TranslatablePredicateExpression {
    func translate(with translator: PredicateTranslator) throws -> PredicateTerm {
        try translator.comparison(lhs, rhs, .equalTo)
    }
}

extension PredicateExpressions.NotEqual: TranslatablePredicateExpression {
    func translate(with translator: PredicateTranslator) throws -> PredicateTerm {
        try translator.comparison(lhs, rhs, .notEqualTo)
    }
}

extension PredicateExpressions.Comparison: TranslatablePredicateExpression {
    func translate(with translator: PredicateTranslator) throws -> PredicateTerm {
        let type: NSComparisonPredicate.Operator =
            switch op {
            case .lessThan: .lessThan
            case .lessThanOrEqual: .lessThanOrEqualTo
            case .greaterThan: .greaterThan
            case .greaterThanOrEqual: .greaterThanOrEqualTo
            }
        return try translator.comparison(lhs, rhs, type)
    }
}

extension PredicateExpressions.Arithmetic: TranslatablePredicateExpression {
    func translate(with translator: PredicateTranslator) throws -> PredicateTerm {
        let function =
            switch op {
            case .add: "add:to:"
            case .subtract: "from:subtract:"
            case .multiply: "multiply:by:"
            }
        return try translator.function(function, lhs, rhs, type: Output.self)
    }
}

extension PredicateExpressions.FloatDivision: TranslatablePredicateExpression {
    func translate(with translator: PredicateTranslator) throws -> PredicateTerm {
        try translator.function("divide:by:", lhs, rhs, type: Output.self)
    }
}

extension PredicateExpressions.IntDivision: TranslatablePredicateExpression {
    func translate(with translator: PredicateTranslator) throws -> PredicateTerm {
        let quotient = try translator.function("divide:by:", lhs, rhs, type: Output.self)
        return PredicateTerm(NSExpression(forFunction: "trunc:", arguments: [quotient.expression()]), type: Output.self)
    }
}

extension PredicateExpressions.IntRemainder: TranslatablePredicateExpression {
    func translate(with translator: PredicateTranslator) throws -> PredicateTerm {
        try translator.function("modulus:by:", lhs, rhs, type: Output.self)
    }
}

extension PredicateExpressions.UnaryMinus: TranslatablePredicateExpression {
    func translate(with translator: PredicateTranslator) throws -> PredicateTerm {
        let operand = try translator.term(of: wrapped)
        return PredicateTerm(NSExpression(forFunction: "multiply:by:", arguments: [operand.expression(), NSExpression(forConstantValue: -1)]), type: Output.self)
    }
}

extension PredicateExpressions.ClosedRange: TranslatablePredicateExpression {
    func translate(with translator: PredicateTranslator) throws -> PredicateTerm {
        PredicateTerm(NSExpression(forAggregate: [try translator.term(of: lower).expression(), try translator.term(of: upper).expression()]), type: Output.self)
    }
}

extension PredicateExpressions.RangeExpressionContains: TranslatablePredicateExpression {
    func translate(with translator: PredicateTranslator) throws -> PredicateTerm {
        let element = try translator.term(of: self.element).expression()
        let bounds = try translator.term(of: range)
        guard case .value(let aggregate) = bounds.kind, aggregate.expressionType == .aggregate else {
            throw SwiftDataError.unsupportedPredicate("The store can only test membership of a closed range.")
        }
        return PredicateTerm(NSComparisonPredicate(leftExpression: element, rightExpression: aggregate, modifier: .direct, type: .between, options: []))
    }
}

extension PredicateExpressions.SequenceContains: TranslatablePredicateExpression {
    func translate(with translator: PredicateTranslator) throws -> PredicateTerm {
        let collection = try translator.term(of: sequence).expression()
        let member = try translator.term(of: element).expression()
        return PredicateTerm(NSComparisonPredicate(leftExpression: member, rightExpression: collection, modifier: .direct, type: .in, options: []))
    }
}

extension PredicateExpressions.SequenceContainsWhere: TranslatablePredicateExpression {
    func translate(with translator: PredicateTranslator) throws -> PredicateTerm {
        let matches = try translator.subquery(over: sequence, variable: variable.key, test: test)
        return PredicateTerm(translator.countComparison(of: matches, .greaterThan, 0))
    }
}

extension PredicateExpressions.SequenceAllSatisfy: TranslatablePredicateExpression {
    func translate(with translator: PredicateTranslator) throws -> PredicateTerm {
        let failures = try translator.subquery(over: sequence, variable: variable.key, test: test, negated: true)
        return PredicateTerm(translator.countComparison(of: failures, .equalTo, 0))
    }
}

extension PredicateExpressions.Filter: TranslatablePredicateExpression {
    func translate(with translator: PredicateTranslator) throws -> PredicateTerm {
        let matches = try translator.subquery(over: sequence, variable: variable.key, test: filter)
        return PredicateTerm(matches, type: Output.self)
    }
}

extension PredicateExpressions.CollectionContainsCollection: TranslatablePredicateExpression {
    func translate(with translator: PredicateTranslator) throws -> PredicateTerm {
        try translator.comparison(base, other, .contains)
    }
}

extension PredicateExpressions.SequenceStartsWith: TranslatablePredicateExpression {
    func translate(with translator: PredicateTranslator) throws -> PredicateTerm {
        try translator.comparison(base, prefix, .beginsWith)
    }
}

extension PredicateExpressions.OptionalFlatMap: TranslatablePredicateExpression {
    func translate(with translator: PredicateTranslator) throws -> PredicateTerm {
        let wrapped = try translator.term(of: self.wrapped)
        return try translator.binding(variable.key, to: wrapped) { try translator.term(of: transform) }
    }
}

extension PredicateExpressions.ForcedUnwrap: TranslatablePredicateExpression {
    func translate(with translator: PredicateTranslator) throws -> PredicateTerm {
        try translator.term(of: inner)
    }
}

extension PredicateExpressions.NilCoalesce: TranslatablePredicateExpression {
    func translate(with translator: PredicateTranslator) throws -> PredicateTerm {
        let value = try translator.term(of: lhs).expression()
        let fallback = try translator.term(of: rhs).expression()
        let isPresent = NSComparisonPredicate(leftExpression: value, rightExpression: NSExpression(forConstantValue: nil), modifier: .direct, type: .notEqualTo, options: [])
        return PredicateTerm(NSExpression(forConditional: isPresent, trueExpression: value, falseExpression: fallback), type: Output.self)
    }
}

extension PredicateExpressions.Conditional: TranslatablePredicateExpression {
    func translate(with translator: PredicateTranslator) throws -> PredicateTerm {
        let condition = try translator.term(of: test).condition()
        let whenTrue = try translator.term(of: trueBranch).expression()
        let whenFalse = try translator.term(of: falseBranch).expression()
        return PredicateTerm(NSExpression(forConditional: condition, trueExpression: whenTrue, falseExpression: whenFalse), type: Output.self)
    }
}

extension PredicateTranslator {
    /// A comparison of two sub-expressions.
    func comparison(
        _ lhs: any PredicateExpression, _ rhs: any PredicateExpression, _ type: NSComparisonPredicate.Operator,
        options: NSComparisonPredicate.Options = []
    ) throws -> PredicateTerm {
        let left = try term(of: lhs)
        let right = try term(of: rhs)
        if case .condition = left.kind, type == .equalTo || type == .notEqualTo {
            let both = NSCompoundPredicate(andPredicateWithSubpredicates: [try left.condition(), try right.condition()])
            let neither = NSCompoundPredicate(andPredicateWithSubpredicates: [
                NSCompoundPredicate(notPredicateWithSubpredicate: try left.condition()), NSCompoundPredicate(notPredicateWithSubpredicate: try right.condition()),
            ])
            let same = NSCompoundPredicate(orPredicateWithSubpredicates: [both, neither])
            return PredicateTerm(type == .equalTo ? same : NSCompoundPredicate(notPredicateWithSubpredicate: same))
        }
        return PredicateTerm(
            NSComparisonPredicate(leftExpression: left.expression(), rightExpression: right.expression(), modifier: .direct, type: type, options: options))
    }

    /// A built-in function of two sub-expressions.
    func function(_ name: String, _ lhs: any PredicateExpression, _ rhs: any PredicateExpression, type: Any.Type) throws -> PredicateTerm {
        PredicateTerm(NSExpression(forFunction: name, arguments: [try term(of: lhs).expression(), try term(of: rhs).expression()]), type: type)
    }

    /// The models of a to-many relationship that pass a test (or fail it), as a subquery.
    func subquery(
        over sequence: any PredicateExpression, variable: PredicateExpressions.VariableID, test: any PredicateExpression, negated: Bool = false
    ) throws -> NSExpression {
        let collection = try term(of: sequence)
        guard let elementType = collection.modelArrayType else {
            throw SwiftDataError.unsupportedPredicate("The store can only test the models of a to-many relationship, not the elements of a \(collection.type).")
        }
        let name = makeVariableName()
        let element = PredicateTerm(NSExpression(forVariable: name), type: elementType)
        var condition = try binding(variable, to: element) { try term(of: test).condition() }
        if negated { condition = NSCompoundPredicate(notPredicateWithSubpredicate: condition) }
        return NSExpression(forSubquery: collection.expression(), usingIteratorVariable: name, predicate: condition)
    }

    /// A comparison of the number of a collection's elements with a number.
    func countComparison(of collection: NSExpression, _ type: NSComparisonPredicate.Operator, _ count: Int) -> NSPredicate {
        NSComparisonPredicate(
            leftExpression: NSExpression(forKeyPath: ["@count"], from: collection), rightExpression: NSExpression(forConstantValue: count),
            modifier: .direct, type: type, options: [])
    }
}
