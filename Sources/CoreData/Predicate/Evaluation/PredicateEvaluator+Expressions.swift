extension PredicateEvaluator {
    /// The value of `expression` for `object`; nil stands for both nil and a missing key in a
    /// dictionary.
    func value(of expression: ExpressionNode, with object: Any?) throws -> Any? {
        switch expression {
        case .constant(let constant):
            return constant.value
        case .evaluatedObject:
            return ValueUnwrapping.unwrapped(object)
        case .variable(let name):
            return try value(ofVariable: name)
        case .keyPath(let base, let components):
            let root = try base.map { try value(of: $0, with: object) } ?? object
            return try KeyValueReader.value(atKeyPath: components, of: root)
        case .aggregate(let elements):
            return try elements.map { try value(of: $0, with: object) ?? NSNull() }
        }
    }

    /// A variable must be bound; to compare with null, bind it to `NSNull` (spec §4.9).
    private func value(ofVariable name: String) throws -> Any? {
        guard let value = variables[name] else {
            throw PredicateEvaluationError.missingVariable(name)
        }
        return ValueUnwrapping.unwrapped(value)
    }
}
