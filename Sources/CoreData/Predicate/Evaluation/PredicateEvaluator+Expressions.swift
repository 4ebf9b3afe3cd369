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
            return try KeyValueReader.value(atKeyPath: components[...], of: root)
        case .variableKeyPath(let base, let variable):
            return try KeyValueReader.value(atKeyPath: keyPath(inVariable: variable)[...], of: value(of: base, with: object))
        case .aggregate(let elements):
            return try elements.map { try value(of: $0, with: object) ?? NSNull() }
        case .function(let function, let arguments):
            return try FunctionEvaluation.apply(function, to: arguments.map { try value(of: $0, with: object) })
        case .method(let receiver, let selector, let arguments):
            return try MethodCall.invoke(selector, on: value(of: receiver, with: object),
                                         arguments: arguments.map { try value(of: $0, with: object) })
        case .indexSymbol(let symbol):
            return symbol.rawValue
        case .subquery(let collection, let variable, let predicate):
            return try subquery(collection, variable: variable, predicate: predicate, with: object)
        case .setOperation(let operation, let left, let right):
            return try SetOperationEvaluation.apply(operation, value(of: left, with: object), value(of: right, with: object))
        case .conditional(let condition, let whenTrue, let whenFalse):
            return try value(of: evaluate(condition, with: object) ? whenTrue : whenFalse, with: object)
        case .anyKey:
            return try anyKeyValues(of: object)
        case .block(let block, let arguments):
            let context = self.context ?? NSMutableDictionary(dictionary: variables)
            return ValueUnwrapping.unwrapped(block.body(object, arguments.map { NSExpression.make(node: $0) }, context))
        case .fetchRequest(let request, let context, let countOnly):
            return try fetchResult(of: request, in: context, countOnly: countOnly, with: object)
        }
    }

    /// A variable must be bound; to compare with null, bind it to `NSNull` (spec §4.9).
    private func value(ofVariable name: String) throws -> Any? {
        guard let value = variables[name] else {
            throw PredicateEvaluationError.missingVariable(name)
        }
        return ValueUnwrapping.unwrapped(value)
    }

    /// The key path a variable names in `base.$variable`, as `valueForKeyPath:` reads a string.
    private func keyPath(inVariable name: String) throws -> [String] {
        guard let keyPath = try value(ofVariable: name) as? String, !keyPath.isEmpty else {
            throw PredicateEvaluationError.invalidOperand("the variable $\(name) names a key, so its value must be a key path string")
        }
        return keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    }

    /// The elements of the collection for which the predicate holds with `$variable` bound to the
    /// element. As in Apple's implementation, the predicate is evaluated against the outer object
    /// (so its own key paths name the element through the variable), and a nil collection gives nil.
    private func subquery(_ collection: ExpressionNode, variable: String, predicate: PredicateNode, with object: Any?) throws -> [Any]? {
        let source = try value(of: collection, with: object)
        guard !ValueUnwrapping.isNull(source) else { return nil }
        guard let elements = CollectionElements.elements(of: source) else {
            throw PredicateEvaluationError.invalidOperand("the collection of a SUBQUERY must be an array or a set, found \(type(of: source ?? NSNull()))")
        }
        var inner = self
        return try elements.filter { element in
            inner.variables[variable] = element
            return try inner.evaluate(predicate, with: object)
        }
    }

    /// The results of a fetch request expression, or their number: the context runs the fetch.
    private func fetchResult(of request: ExpressionNode, in context: ExpressionNode, countOnly: Bool, with object: Any?) throws -> Any {
        let contextValue = try value(of: context, with: object)
        guard let fetchingContext = contextValue as? FetchRequestExpressionContext else {
            throw PredicateEvaluationError.invalidOperand(
                "the context of a fetch request expression must be a managed object context, found \(type(of: contextValue ?? NSNull()))"
            )
        }
        return try fetchingContext.result(ofFetch: value(of: request, with: object), countOnly: countOnly)
    }

    /// `ANYKEY`: the values of every key of the evaluated dictionary.
    private func anyKeyValues(of object: Any?) throws -> [Any] {
        guard let values = DictionaryLookup.values(of: ValueUnwrapping.unwrapped(object)) else {
            throw PredicateEvaluationError.unsupported("ANYKEY on \(type(of: object ?? NSNull()))")
        }
        return values
    }
}
