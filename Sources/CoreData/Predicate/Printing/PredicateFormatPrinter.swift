/// Prints predicate and expression trees in Apple's canonical `predicateFormat` text (spec §5).
///
/// The output parses back to an equal tree. Rules worth knowing: operators are printed in one
/// spelling each (`==`, `!=`, upper-case words) with options right after them (`LIKE[cd]`);
/// compound operands that are themselves compound are parenthesised, a top-level `NOT` of a
/// comparison is not; strings are double-quoted.
enum PredicateFormatPrinter {
    /// The canonical text of a predicate.
    static func format(_ predicate: PredicateNode) -> String {
        switch predicate {
        case .constant(let value):
            value ? "TRUEPREDICATE" : "FALSEPREDICATE"
        case .comparison(let comparison):
            format(comparison)
        case .compound(let type, let subpredicates):
            format(type, subpredicates)
        case .block:
            "BLOCKPREDICATE"
        }
    }

    /// The canonical text of an expression.
    static func format(_ expression: ExpressionNode) -> String {
        switch expression {
        case .constant(let constant):
            ConstantFormatter.format(constant.value)
        case .evaluatedObject:
            "SELF"
        case .variable(let name):
            "$" + name
        case .keyPath(let base, let components):
            (base.map { postfixBase($0) + "." } ?? "") + components.map(escapedKey).joined(separator: ".")
        case .variableKeyPath(let base, let variable):
            postfixBase(base) + ".$" + variable
        case .aggregate(let elements):
            "{" + elements.map(format).joined(separator: ", ") + "}"
        case .function(let function, let arguments):
            format(function, arguments)
        case .method(let receiver, let selector, let arguments):
            "FUNCTION(" + format(receiver) + ", " + ConstantFormatter.quoted(selector) + arguments.map { " , " + format($0) }.joined() + ")"
        case .indexSymbol(let symbol):
            symbol.rawValue
        case .subquery(let collection, let variable, let predicate):
            "SUBQUERY(" + format(collection) + ", $" + variable + ", " + format(predicate) + ")"
        case .setOperation(let operation, let left, let right):
            operand(left) + " " + operation.keyword + " " + operand(right)
        case .conditional(let condition, let whenTrue, let whenFalse):
            "TERNARY(" + format(condition) + ", " + format(whenTrue) + ", " + format(whenFalse) + ")"
        case .anyKey:
            "ANYKEY"
        case .block(_, let arguments):
            "BLOCK(<block>, " + arguments.map(format).joined(separator: ", ") + ")"
        case .fetchRequest(let request, let context, let countOnly):
            "FETCH(" + format(request) + ", " + format(context) + ", " + (countOnly ? "YES" : "NO") + ")"
        }
    }

    /// Operators print infix (`a + b`, `a ** b`), indexes as subscripts, `~` as a prefix, `CAST`
    /// as written, and every other function as its selector applied to its arguments
    /// (`sum:({1, 2})`, `now()`). An operand that is itself an infix operation is parenthesised,
    /// whatever the precedences: `(2 * 3) + 1`, as Apple prints it.
    private static func format(_ function: ExpressionFunction, _ arguments: [ExpressionNode]) -> String {
        if let infix = function.infixOperator, arguments.count == 2 {
            return operand(arguments[0]) + " " + infix + " " + operand(arguments[1])
        }
        switch function {
        case .index where arguments.count == 2:
            return postfixBase(arguments[0]) + "[" + format(arguments[1]) + "]"
        case .onesComplement where arguments.count == 1:
            return "~" + operand(arguments[0])
        case .cast:
            return "CAST(" + arguments.map(format).joined(separator: ", ") + ")"
        default:
            let name = FormatKeyword.isReserved(function.selector) ? "#" + function.selector : function.selector
            return name + "(" + arguments.map(format).joined(separator: ", ") + ")"
        }
    }

    /// The collection of a subscript or the base of a key path: parenthesised like an operand,
    /// and also when it is `~x`, which would otherwise take the key path or subscript as its own.
    private static func postfixBase(_ expression: ExpressionNode) -> String {
        guard case .function(.onesComplement, _) = expression else { return operand(expression) }
        return "(" + format(expression) + ")"
    }

    /// An operand of an operator, the collection of a subscript or the base of a key path:
    /// parenthesised when it is an infix or set operation, so that it reads back as one operand.
    private static func operand(_ expression: ExpressionNode) -> String {
        switch expression {
        case .function(let function, let arguments) where function.infixOperator != nil && arguments.count == 2:
            "(" + format(expression) + ")"
        case .setOperation:
            "(" + format(expression) + ")"
        default:
            format(expression)
        }
    }

    /// How an operator is written: `==`, `!=`, `<`, …, `BEGINSWITH`, `IN`, `BETWEEN`.
    static func spelling(of operatorType: NSComparisonPredicate.Operator) -> String {
        switch operatorType {
        case .lessThan: "<"
        case .lessThanOrEqualTo: "<="
        case .greaterThan: ">"
        case .greaterThanOrEqualTo: ">="
        case .equalTo: "=="
        case .notEqualTo: "!="
        case .matches: "MATCHES"
        case .like: "LIKE"
        case .beginsWith: "BEGINSWITH"
        case .endsWith: "ENDSWITH"
        case .in: "IN"
        case .customSelector: "CUSTOMSELECTOR"
        case .contains: "CONTAINS"
        case .between: "BETWEEN"
        }
    }

    /// `[c]`, `[cd]`, `[cdnl]`, … in the order c, d, n, l; empty without options.
    static func spelling(of options: NSComparisonPredicate.Options) -> String {
        let letters: [(NSComparisonPredicate.Options, String)] = [
            (.caseInsensitive, "c"), (.diacriticInsensitive, "d"), (.normalized, "n"), (.localeSensitive, "l"),
        ]
        let present = letters.filter { options.contains($0.0) }.map(\.1).joined()
        return present.isEmpty ? "" : "[" + present + "]"
    }

    private static func format(_ comparison: ComparisonNode) -> String {
        let quantifier = switch comparison.modifier {
        case .direct: ""
        case .any: "ANY "
        case .all: "ALL "
        }
        let operatorText = comparison.customSelector ?? spelling(of: comparison.operatorType) + spelling(of: comparison.options)
        return quantifier + format(comparison.left) + " " + operatorText + " " + format(comparison.right)
    }

    private static func format(_ type: NSCompoundPredicate.LogicalType, _ subpredicates: [PredicateNode]) -> String {
        switch type {
        case .and:
            subpredicates.isEmpty ? "TRUEPREDICATE" : subpredicates.map(operand).joined(separator: " AND ")
        case .or:
            subpredicates.isEmpty ? "FALSEPREDICATE" : subpredicates.map(operand).joined(separator: " OR ")
        case .not:
            "NOT " + operand(subpredicates.count == 1 ? subpredicates[0] : .compound(.and, subpredicates))
        }
    }

    /// An operand of a compound predicate, parenthesised when it is compound itself.
    private static func operand(_ predicate: PredicateNode) -> String {
        if case .compound = predicate {
            return "(" + format(predicate) + ")"
        }
        return format(predicate)
    }

    /// A key as written in a path: reserved words get a `#` so that they read back as keys.
    private static func escapedKey(_ key: String) -> String {
        FormatKeyword.isReserved(key) ? "#" + key : key
    }
}
