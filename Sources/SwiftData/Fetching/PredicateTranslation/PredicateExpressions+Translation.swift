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
        .none(of: Output.self)
    }
}

extension PredicateExpressions.KeyPath: TranslatablePredicateExpression {
    func translate(with translator: PredicateTranslator) throws -> PredicateTerm {
        try translator.term(of: root).mapValues(type: Output.self) { base in
            try translator.keyPath(keyPath, of: base, type: Output.self)
        }
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
        PredicateTerm(try translator.compare(translator.term(of: lhs), translator.term(of: rhs), .equalTo))
    }
}

extension PredicateExpressions.NotEqual: TranslatablePredicateExpression {
    func translate(with translator: PredicateTranslator) throws -> PredicateTerm {
        PredicateTerm(try translator.compare(translator.term(of: lhs), translator.term(of: rhs), .notEqualTo))
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
        return PredicateTerm(try translator.compare(translator.term(of: lhs), translator.term(of: rhs), type))
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
        // The store divides integers into integers, truncating toward zero as Swift does.
        try translator.function("divide:by:", lhs, rhs, type: Output.self)
    }
}

extension PredicateExpressions.IntRemainder: TranslatablePredicateExpression {
    func translate(with translator: PredicateTranslator) throws -> PredicateTerm {
        try translator.function("modulus:by:", lhs, rhs, type: Output.self)
    }
}

extension PredicateExpressions.UnaryMinus: TranslatablePredicateExpression {
    func translate(with translator: PredicateTranslator) throws -> PredicateTerm {
        try translator.term(of: wrapped).mapValues(type: Output.self) { operand in
            PredicateTerm(NSExpression(forFunction: "multiply:by:", arguments: [try operand.expression(), NSExpression(forConstantValue: -1)]), type: Output.self)
        }
    }
}

extension PredicateExpressions.SequenceMinimum: TranslatablePredicateExpression {
    func translate(with translator: PredicateTranslator) throws -> PredicateTerm {
        try translator.constant(self, over: elements)
    }
}

extension PredicateExpressions.SequenceMaximum: TranslatablePredicateExpression {
    func translate(with translator: PredicateTranslator) throws -> PredicateTerm {
        try translator.constant(self, over: elements)
    }
}

extension PredicateExpressions.ClosedRange: TranslatablePredicateExpression {
    func translate(with translator: PredicateTranslator) throws -> PredicateTerm {
        PredicateTerm(rangeFrom: try translator.term(of: lower), to: try translator.term(of: upper), isClosed: true)
    }
}

extension PredicateExpressions.Range: TranslatablePredicateExpression {
    func translate(with translator: PredicateTranslator) throws -> PredicateTerm {
        PredicateTerm(rangeFrom: try translator.term(of: lower), to: try translator.term(of: upper), isClosed: false)
    }
}

extension PredicateExpressions.RangeExpressionContains: TranslatablePredicateExpression {
    func translate(with translator: PredicateTranslator) throws -> PredicateTerm {
        let element = try translator.term(of: self.element)
        guard case .range(let lower, let upper, let isClosed) = try translator.term(of: range).kind else {
            throw SwiftDataError.unsupportedPredicate("The store can only test membership of a range written in the predicate.")
        }
        return PredicateTerm(NSCompoundPredicate(andPredicateWithSubpredicates: [
            try translator.compare(element, lower, .greaterThanOrEqualTo),
            try translator.compare(element, upper, isClosed ? .lessThanOrEqualTo : .lessThan),
        ]))
    }
}

extension PredicateExpressions.SequenceContains: TranslatablePredicateExpression {
    func translate(with translator: PredicateTranslator) throws -> PredicateTerm {
        PredicateTerm(try translator.membership(of: translator.term(of: element), in: translator.term(of: sequence)))
    }
}

extension PredicateExpressions.SequenceContainsWhere: TranslatablePredicateExpression {
    func translate(with translator: PredicateTranslator) throws -> PredicateTerm {
        try translator.term(of: sequence).mapConditions { collection in
            let matches = try translator.subquery(over: collection, variable: variable.key, test: test)
            return translator.countComparison(of: matches, .greaterThan, 0)
        }
    }
}

extension PredicateExpressions.SequenceAllSatisfy: TranslatablePredicateExpression {
    func translate(with translator: PredicateTranslator) throws -> PredicateTerm {
        try translator.term(of: sequence).mapConditions { collection in
            let failures = try translator.subquery(over: collection, variable: variable.key, test: test, negated: true)
            return translator.countComparison(of: failures, .equalTo, 0)
        }
    }
}

extension PredicateExpressions.Filter: TranslatablePredicateExpression {
    func translate(with translator: PredicateTranslator) throws -> PredicateTerm {
        try translator.term(of: sequence).mapValues(type: Output.self) { collection in
            PredicateTerm(try translator.subquery(over: collection, variable: variable.key, test: filter), type: Output.self)
        }
    }
}

extension PredicateExpressions.CollectionContainsCollection: TranslatablePredicateExpression {
    func translate(with translator: PredicateTranslator) throws -> PredicateTerm {
        PredicateTerm(try translator.compare(translator.term(of: base), translator.term(of: other), .contains))
    }
}

extension PredicateExpressions.SequenceStartsWith: TranslatablePredicateExpression {
    func translate(with translator: PredicateTranslator) throws -> PredicateTerm {
        PredicateTerm(try translator.compare(translator.term(of: base), translator.term(of: prefix), .beginsWith))
    }
}

extension PredicateExpressions.OptionalFlatMap: TranslatablePredicateExpression {
    func translate(with translator: PredicateTranslator) throws -> PredicateTerm {
        let wrapped = try translator.term(of: self.wrapped)
        let transformed = try translator.binding(variable.key, to: wrapped) { try translator.term(of: transform) }
        let isPresent = try translator.compare(wrapped, .none(of: Wrapped.self), .notEqualTo)
        return PredicateTerm(choosing: isPresent, transformed, else: .none(of: Output.self), type: Output.self)
    }
}

extension PredicateExpressions.ForcedUnwrap: TranslatablePredicateExpression {
    func translate(with translator: PredicateTranslator) throws -> PredicateTerm {
        // Swift stops with an error where the value is nil; the store reads the nil as it is.
        try translator.term(of: inner)
    }
}

extension PredicateExpressions.NilCoalesce: TranslatablePredicateExpression {
    func translate(with translator: PredicateTranslator) throws -> PredicateTerm {
        let value = try translator.term(of: lhs)
        let fallback = try translator.term(of: rhs)
        let isPresent = try translator.compare(value, .none(of: Output.self), .notEqualTo)
        return PredicateTerm(choosing: isPresent, value, else: fallback, type: Output.self)
    }
}

extension PredicateExpressions.Conditional: TranslatablePredicateExpression {
    func translate(with translator: PredicateTranslator) throws -> PredicateTerm {
        let condition = try translator.term(of: test).condition()
        return PredicateTerm(choosing: condition, try translator.term(of: trueBranch), else: try translator.term(of: falseBranch), type: Output.self)
    }
}
