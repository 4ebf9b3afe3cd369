/// Function expressions in SQL: arithmetic and bitwise operators over numeric attributes,
/// `abs:`, `noindex:`, `now()`, `uppercase:` and `lowercase:` of string attributes,
/// `SUBQUERY(…).@count`, and anything whose value does not depend on
/// the row, which is computed once in memory and bound as a constant.
///
/// Like Apple's store, the compiler refuses the functions SQL cannot compute the way memory does
/// (powers, roots, logarithms, statistics over key paths, `FUNCTION`, random numbers).
extension SQLitePredicateCompiler {
    mutating func functionOperand(_ function: ExpressionFunction, _ arguments: [ExpressionNode], in scope: SQLScope) throws -> Operand {
        switch function {
        case .now:
            return .constant(Date())
        case .noIndex:
            // Unary plus leaves the value alone and keeps SQLite from using an index on it.
            switch try operand(arguments[0], in: scope) {
            case .attribute(let column, let attribute): return .attribute("+" + column, attribute)
            case let other: return other
            }
        case .add, .subtract, .multiply, .divide, .modulus, .bitwiseAnd, .bitwiseOr, .leftShift, .rightShift:
            return .scalar(try binary(function, arguments, in: scope))
        case .absoluteValue, .onesComplement:
            let argument = try numericFragment(arguments[0], for: function, in: scope)
            let sql = function == .absoluteValue ? "abs(\(argument.fragment.sql))" : "(~(\(argument.fragment.sql)))"
            return .scalar(SQLFragment(sql: sql, bindings: argument.fragment.bindings))
        case .uppercase, .lowercase:
            // SQLite's upper() and lower() change ASCII letters only; these call the evaluator's code.
            guard case .attribute(let column, let attribute) = try operand(arguments[0], in: scope), attribute.attributeType == .stringAttributeType else {
                throw unsupported("\(function.selector) of \(PredicateFormatPrinter.format(arguments[0])), which is not a string attribute")
            }
            let name = function == .uppercase ? SQLiteFunctions.uppercase : SQLiteFunctions.lowercase
            return .attribute("\(name)(\(column))", attribute)
        case .index where arguments.count == 2 && arguments[1] == .indexSymbol(.size):
            return try countOperand(of: arguments[0], in: scope)
        default:
            throw unsupported("the function \(PredicateFormatPrinter.format(ExpressionNode.function(function, arguments)))")
        }
    }

    /// `SUBQUERY(…).@count` (or `[SIZE]`), and the count of a to-many relationship.
    mutating func countOperand(of collection: ExpressionNode, in scope: SQLScope) throws -> Operand {
        if case .subquery(let source, let variable, let predicate) = collection {
            return .scalar(try subqueryCount(source, variable: variable, predicate: predicate, in: scope))
        }
        if let components = collection.rootedKeyPath, case .toMany(let relationship, let ownerAlias, let remainder) = try keyPathOperand(components, in: scope), remainder.isEmpty {
            return .scalar(try countSubquery(relationship, ownerAlias: ownerAlias))
        }
        throw unsupported("the count of \(PredicateFormatPrinter.format(collection))")
    }

    // MARK: Arithmetic

    /// What an arithmetic operand is made of: integers only, or possibly real numbers.
    private enum NumericKind {
        case integer
        case real
    }

    private mutating func binary(_ function: ExpressionFunction, _ arguments: [ExpressionNode], in scope: SQLScope) throws -> SQLFragment {
        let left = try numericFragment(arguments[0], for: function, in: scope)
        let right = try numericFragment(arguments[1], for: function, in: scope)
        let isIntegral = left.kind == .integer && right.kind == .integer
        switch function {
        case .divide, .modulus:
            guard function == .divide || isIntegral else {
                throw unsupported("modulus:by: of numbers that are not integers")
            }
            // SQLite divides by zero into NULL. Apple's functions divide integers by zero into 0,
            // and doubles into an infinity, which SQLite's 1e999 is.
            let sqlOperator = function == .divide ? "/" : "%"
            let byZero = isIntegral ? ") * 0" : ") * 1e999"
            let pieces = [SQLFragment(sql: "(CASE WHEN ("), right.fragment, SQLFragment(sql: ") = 0 THEN ("), left.fragment,
                          SQLFragment(sql: byZero + " ELSE ("), left.fragment, SQLFragment(sql: ") \(sqlOperator) ("), right.fragment,
                          SQLFragment(sql: ") END)")]
            return SQLFragment.joined(pieces, separator: "")
        case .bitwiseAnd, .bitwiseOr, .leftShift, .rightShift:
            guard isIntegral else { throw unsupported("\(function.selector) of numbers that are not integers") }
            fallthrough
        default:
            let symbol = function.infixOperator ?? "+"
            return SQLFragment.joined([SQLFragment(sql: "("), left.fragment, SQLFragment(sql: ") \(symbol) ("), right.fragment, SQLFragment(sql: ")")], separator: "")
        }
    }

    /// An operand of arithmetic: a numeric or date attribute, a computed number, or a number.
    private mutating func numericFragment(_ expression: ExpressionNode, for function: ExpressionFunction, in scope: SQLScope) throws -> (fragment: SQLFragment, kind: NumericKind) {
        switch try operand(expression, in: scope) {
        case .attribute(let column, let attribute) where attribute.attributeType.isNumeric || attribute.attributeType == .booleanAttributeType:
            let isInteger = [.integer16AttributeType, .integer32AttributeType, .integer64AttributeType, .booleanAttributeType].contains(attribute.attributeType)
            return (SQLFragment(sql: column), isInteger ? .integer : .real)
        case .attribute(let column, let attribute) where attribute.attributeType == .dateAttributeType && [.add, .subtract].contains(function):
            return (SQLFragment(sql: column), .real)
        case .scalar(let fragment):
            return (fragment, Self.isIntegral(expression, from: scope.entity) ? .integer : .real)
        case .constant(let value):
            guard let number = ValueUnwrapping.nonNull(value).flatMap(PredicateNumber.init) else {
                if let date = value as? Date, [.add, .subtract].contains(function) {
                    return (SQLFragment(sql: "?", bindings: [.real(date.timeIntervalSinceReferenceDate)]), .real)
                }
                if ValueUnwrapping.isNull(value) { return (SQLFragment(sql: "NULL"), .integer) }
                throw unsupported("\(function.selector) of \(PredicateFormatPrinter.format(expression))")
            }
            if case .integer = number { return (SQLFragment(sql: "?", bindings: [number.sqlValue]), .integer) }
            return (SQLFragment(sql: "?", bindings: [number.sqlValue]), .real)
        default:
            throw unsupported("\(function.selector) of \(PredicateFormatPrinter.format(expression))")
        }
    }

    /// Whether a computed operand is an integer in memory: integer constants and attributes,
    /// counts, and integer arithmetic of those (`**` is always a double).
    private static func isIntegral(_ expression: ExpressionNode, from entity: NSEntityDescription) -> Bool {
        switch expression {
        case .constant(let constant):
            guard let value = constant.value, case .integer? = PredicateNumber(value) else { return false }
            return true
        case .keyPath:
            guard let components = expression.rootedKeyPath, let last = components.last else { return false }
            if last == "@count" { return true }
            if components.contains("@avg") { return false }
            return attributeType(at: components, from: entity).map(Self.isIntegerType) ?? false
        case .subquery:
            return true
        case .function(let function, let arguments):
            switch function {
            case .add, .subtract, .multiply, .divide, .modulus, .bitwiseAnd, .bitwiseOr, .leftShift, .rightShift, .absoluteValue, .onesComplement, .noIndex:
                return arguments.allSatisfy { isIntegral($0, from: entity) }
            case .index:
                return arguments.count == 2 && arguments[1] == .indexSymbol(.size)
            default:
                return false
            }
        default:
            return false
        }
    }

    /// Whether a computed value is a date in memory: a date, or a date plus or minus seconds (the
    /// difference of two dates is a number).
    static func isDateValued(_ expression: ExpressionNode, from entity: NSEntityDescription) -> Bool {
        switch expression {
        case .constant(let constant):
            return constant.value is Date
        case .keyPath:
            return expression.rootedKeyPath.flatMap { attributeType(at: $0, from: entity) } == .dateAttributeType
        case .function(.add, let arguments) where arguments.count == 2:
            return isDateValued(arguments[0], from: entity) != isDateValued(arguments[1], from: entity)
        case .function(.subtract, let arguments) where arguments.count == 2:
            return isDateValued(arguments[0], from: entity) && !isDateValued(arguments[1], from: entity)
        case .function(.noIndex, let arguments) where arguments.count == 1:
            return isDateValued(arguments[0], from: entity)
        default:
            return false
        }
    }

    private static func isIntegerType(_ type: NSAttributeType) -> Bool {
        [.integer16AttributeType, .integer32AttributeType, .integer64AttributeType, .booleanAttributeType].contains(type)
    }

    /// The type of the attribute a key path ends at, through to-one relationships and a
    /// collection operator (`items.@sum.price` has `price`'s type); nil for anything else.
    static func attributeType(at components: [String], from entity: NSEntityDescription) -> NSAttributeType? {
        var current = entity
        for component in components where component.lowercased() != "self" && !component.hasPrefix("@") {
            if let attribute = current.attributesByName[component] { return attribute.attributeType }
            guard let destination = current.relationshipsByName[component]?.destinationEntity else { return nil }
            current = destination
        }
        return nil
    }

    // MARK: Subqueries

    /// `(SELECT COUNT(*) FROM destination WHERE linked AND predicate)`, with the iterator
    /// variable standing for the destination row.
    private mutating func subqueryCount(_ source: ExpressionNode, variable: String, predicate: PredicateNode, in scope: SQLScope) throws -> SQLFragment {
        guard let components = source.rootedKeyPath,
              case .toMany(let relationship, let ownerAlias, let remainder) = try keyPathOperand(components, in: scope), remainder.isEmpty,
              let destination = relationship.destinationEntity else {
            throw unsupported("a SUBQUERY over \(PredicateFormatPrinter.format(source)), which is not a to-many relationship")
        }
        let inner = SQLScope(entity: destination, alias: newAlias())
        guard !predicate.readsEvaluatedObject else {
            throw unsupported("a SUBQUERY predicate that reads the outer object; name the element through $\(variable)")
        }
        let rowPredicate = predicate.substitutingVariables([variable: NSExpression.expressionForEvaluatedObject()])
        let condition = try compile(rowPredicate, in: inner)
        let from = try subquerySource(relationship, ownerAlias: ownerAlias, alias: inner.alias)
        let joins = inner.joins.joined(separator: " ")
        return SQLFragment(sql: "(SELECT COUNT(*) \(from.from) \(joins) WHERE \(from.link) AND (\(condition.sql)))", bindings: condition.bindings)
    }
}
