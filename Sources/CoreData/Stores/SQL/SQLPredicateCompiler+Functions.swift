/// Function expressions in SQL: arithmetic and bitwise operators over numeric attributes,
/// `abs:`, `noindex:`, `now()`, `uppercase:` and `lowercase:` of string attributes,
/// `SUBQUERY(…).@count`, and anything whose value does not depend on
/// the row, which is computed once in memory and bound as a constant.
///
/// Like Apple's store, the compiler refuses the functions SQL cannot compute the way memory does
/// (powers, roots, logarithms, statistics over key paths, `FUNCTION`, random numbers).
extension SQLPredicateCompiler {
    mutating func functionOperand(_ function: ExpressionFunction, _ arguments: [ExpressionNode], in scope: SQLScope) throws -> Operand {
        switch function {
        case .now:
            return .constant(Date())
        case .noIndex:
            // SQLite's unary plus leaves the value alone and keeps it from using an index on it.
            switch try operand(arguments[0], in: scope) {
            case .attribute(let column, let attribute): return .attribute(dialect.opaqueValuePrefix + column, attribute)
            case let other: return other
            }
        case .add, .subtract, .multiply, .divide, .modulus, .bitwiseAnd, .bitwiseOr, .leftShift, .rightShift:
            return .scalar(try binary(function, arguments, in: scope))
        case .absoluteValue, .onesComplement:
            let argument = try numericOperand(arguments[0], for: function, in: scope).fragment
            let sql = function == .absoluteValue ? "abs(\(argument.sql))" : "(~(\(argument.sql)))"
            return .scalar(SQLFragment(sql: sql, bindings: argument.bindings))
        case .uppercase, .lowercase:
            // SQLite's upper() and lower() change ASCII letters only; these call the evaluator's code.
            guard case .attribute(let column, let attribute) = try operand(arguments[0], in: scope), attribute.attributeType == .stringAttributeType else {
                throw unsupported("\(function.selector) of \(PredicateFormatPrinter.format(arguments[0])), which is not a string attribute")
            }
            let name = function == .uppercase ? SQLFunctions.uppercase : SQLFunctions.lowercase
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

    /// How tightly the SQL of an operand binds, in the order of SQLite's grammar: operators of
    /// one level are left-associative, and a column, a constant, a function call or a
    /// parenthesized subquery binds tightest.
    private enum SQLPrecedence: Int, Comparable {
        case bitwise
        case additive
        case multiplicative
        case primary

        static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// An operand of arithmetic: its SQL, what it is made of, how tightly its SQL binds, and its
    /// value when it is a number known before the query runs.
    private struct NumericOperand {
        let fragment: SQLFragment
        let kind: NumericKind
        var precedence = SQLPrecedence.primary
        var constant: PredicateNumber?
    }

    private mutating func binary(_ function: ExpressionFunction, _ arguments: [ExpressionNode], in scope: SQLScope) throws -> SQLFragment {
        let left = try numericOperand(arguments[0], for: function, in: scope)
        let right = try numericOperand(arguments[1], for: function, in: scope)
        let isIntegral = left.kind == .integer && right.kind == .integer
        switch function {
        case .divide, .modulus:
            guard function == .divide || isIntegral else {
                throw unsupported("modulus:by: of numbers that are not integers")
            }
            return division(function, left, right, isIntegral: isIntegral)
        case .leftShift, .rightShift:
            guard isIntegral else { throw unsupported("\(function.selector) of numbers that are not integers") }
            guard let type = dialect.shiftAmountType else { return Self.infix(function, left, right) }
            let amount = NumericOperand(fragment: SQLFragment(sql: "CAST(\(right.fragment.sql) AS \(type))", bindings: right.fragment.bindings), kind: .integer)
            return Self.infix(function, left, amount)
        case .bitwiseAnd, .bitwiseOr:
            guard isIntegral else { throw unsupported("\(function.selector) of numbers that are not integers") }
            fallthrough
        default:
            return Self.infix(function, left, right)
        }
    }

    /// `dividend / divisor` or `dividend % divisor` as memory computes them: integers divide
    /// into integers, and by zero into 0; other numbers divide by zero into an infinity. Each
    /// operand is written once, so that the SQL of nested divisions grows linearly with them: a
    /// constant divisor is decided now, and any other goes to `cd_divide` or `cd_modulus`, which
    /// compute with the evaluator's own arithmetic.
    private func division(_ function: ExpressionFunction, _ dividend: NumericOperand, _ divisor: NumericOperand, isIntegral: Bool) -> SQLFragment {
        guard let constant = divisor.constant else {
            let name = function == .divide ? SQLFunctions.divide : SQLFunctions.modulus
            let arguments = SQLFragment.joined([dividend.fragment, divisor.fragment, SQLFragment(sql: isIntegral ? "1" : "0")], separator: ", ")
            return SQLFragment(sql: "\(name)(\(arguments.sql))", bindings: arguments.bindings)
        }
        if constant.doubleValue == 0 {
            // SQLite divides by zero into NULL; an infinity times the dividend has the sign a
            // division of real numbers by this zero has.
            let infinity = dialect.infinityLiteral(negative: constant.doubleValue.sign == .minus)
            let factor = NumericOperand(fragment: SQLFragment(sql: isIntegral ? "0" : infinity), kind: divisor.kind)
            return Self.infix(.multiply, dividend, factor)
        }
        // SQLite divides as integers when both values are integers: a division of numbers that
        // memory holds as real numbers (a decimal attribute's integral values, say) binds the
        // divisor as one.
        let divisor = isIntegral ? divisor : NumericOperand(fragment: .parameter(.real(constant.doubleValue)), kind: .real)
        return Self.infix(function, dividend, divisor)
    }

    /// `left operator right`, with parentheses only around an operand that binds less tightly
    /// than the operator (or as tightly, on the right), so that chains such as `a / 2 / 3` nest
    /// no parentheses: SQLite's parser refuses a hundred nested levels.
    private static func infix(_ function: ExpressionFunction, _ left: NumericOperand, _ right: NumericOperand) -> SQLFragment {
        let (symbol, precedence) = sqlOperator(function)
        let lhs = left.precedence < precedence ? left.fragment.parenthesized : left.fragment
        let rhs = right.precedence <= precedence ? right.fragment.parenthesized : right.fragment
        return SQLFragment(sql: "\(lhs.sql) \(symbol) \(rhs.sql)", bindings: lhs.bindings + rhs.bindings)
    }

    /// SQLite's operator for an arithmetic function, and how tightly it binds.
    private static func sqlOperator(_ function: ExpressionFunction) -> (symbol: String, precedence: SQLPrecedence) {
        switch function {
        case .subtract: ("-", .additive)
        case .multiply: ("*", .multiplicative)
        case .divide: ("/", .multiplicative)
        case .modulus: ("%", .multiplicative)
        case .bitwiseAnd: ("&", .bitwise)
        case .bitwiseOr: ("|", .bitwise)
        case .leftShift: ("<<", .bitwise)
        case .rightShift: (">>", .bitwise)
        default: ("+", .additive)
        }
    }

    /// How tightly the SQL of a computed operand binds: arithmetic compiles to an operator, also
    /// through `noindex:`; anything else to a call or a parenthesized subquery.
    private static func precedence(of expression: ExpressionNode) -> SQLPrecedence {
        switch expression {
        case .function(.noIndex, let arguments) where arguments.count == 1:
            precedence(of: arguments[0])
        case .function(let function, _) where function.infixOperator != nil || function == .modulus:
            sqlOperator(function).precedence
        default:
            .primary
        }
    }

    /// An operand of arithmetic: a numeric or date attribute, a computed number, or a number.
    private mutating func numericOperand(_ expression: ExpressionNode, for function: ExpressionFunction, in scope: SQLScope) throws -> NumericOperand {
        switch try operand(expression, in: scope) {
        case .attribute(let column, let attribute) where attribute.attributeType.isNumeric || attribute.attributeType == .booleanAttributeType:
            return NumericOperand(fragment: SQLFragment(sql: column), kind: Self.isIntegerType(attribute.attributeType) ? .integer : .real)
        case .attribute(let column, let attribute) where attribute.attributeType == .dateAttributeType && [.add, .subtract].contains(function):
            return NumericOperand(fragment: SQLFragment(sql: column), kind: .real)
        case .scalar(let fragment):
            let kind = Self.isIntegral(expression, from: scope.entity) ? NumericKind.integer : .real
            return NumericOperand(fragment: fragment, kind: kind, precedence: Self.precedence(of: expression))
        case .constant(let value):
            guard let number = ValueUnwrapping.nonNull(value).flatMap(PredicateNumber.init) else {
                if let date = value as? Date, [.add, .subtract].contains(function) {
                    return NumericOperand(fragment: .parameter(.real(date.timeIntervalSinceReferenceDate)), kind: .real)
                }
                if ValueUnwrapping.isNull(value) { return NumericOperand(fragment: SQLFragment(sql: "NULL"), kind: .integer) }
                throw unsupported("\(function.selector) of \(PredicateFormatPrinter.format(expression))")
            }
            if case .integer = number {
                return NumericOperand(fragment: .parameter(number.sqlValue), kind: .integer, constant: number)
            }
            return NumericOperand(fragment: .parameter(number.sqlValue), kind: .real, constant: number)
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
        guard let resolved = try? entity.resolve(keyPathComponents: components), let last = resolved.steps.last else { return nil }
        if let attribute = last.property as? NSAttributeDescription { return attribute.attributeType }
        guard let destination = last.relationship?.destinationEntity, resolved.remainder.first?.hasPrefix("@") == true else { return nil }
        return attributeType(at: Array(resolved.remainder.dropFirst()), from: destination)
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
