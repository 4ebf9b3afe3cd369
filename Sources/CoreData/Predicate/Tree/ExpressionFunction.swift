/// The built-in functions of `NSExpression(forFunction:arguments:)`, by Apple's selector names
/// (spec §4.8), together with the functions the parser makes for operators, indexes and `CAST`.
///
/// The number of colons in a selector is the number of arguments the function takes.
enum ExpressionFunction: String, CaseIterable, Hashable, Sendable {
    // Statistics over one collection argument.
    case sum = "sum:"
    case count = "count:"
    case min = "min:"
    case max = "max:"
    case average = "average:"
    case median = "median:"
    case mode = "mode:"
    case standardDeviation = "stddev:"

    // Arithmetic; `+ - * / **` parse to these.
    case add = "add:to:"
    case subtract = "from:subtract:"
    case multiply = "multiply:by:"
    case divide = "divide:by:"
    case modulus = "modulus:by:"
    case power = "raise:toPower:"

    // Functions of one number.
    case squareRoot = "sqrt:"
    case logarithm = "log:"
    case naturalLogarithm = "ln:"
    case exponential = "exp:"
    case floor = "floor:"
    case ceiling = "ceiling:"
    case absoluteValue = "abs:"
    case truncate = "trunc:"

    // Values that change from one evaluation to the next.
    case random = "random"
    case randomBelow = "random:"
    case now = "now"

    // Strings.
    case uppercase = "uppercase:"
    case lowercase = "lowercase:"

    // Bitwise operations on integers; `& | ^ << >> ~` parse to these.
    case bitwiseAnd = "bitwiseAnd:with:"
    case bitwiseOr = "bitwiseOr:with:"
    case bitwiseXor = "bitwiseXor:with:"
    case leftShift = "leftshift:by:"
    case rightShift = "rightshift:by:"
    case onesComplement = "onesComplement:"

    /// An index hint for Core Data; the identity everywhere else.
    case noIndex = "noindex:"

    /// `collection[index]`, where the index may also be `FIRST`, `LAST` or `SIZE`.
    case index = "objectFrom:withIndex:"

    /// `CAST(value, "type")`.
    case cast = "castObject:toType:"

    /// The function a selector names, such as `add:to:`; nil for a selector that is not built in.
    init?(selector: String) {
        self.init(rawValue: selector)
    }

    /// The function a format string calls by name with a number of arguments: `sum(…)` is
    /// `sum:`, `now()` is `now`, `random()` is `random` and `random(10)` is `random:`.
    init?(name: String, argumentCount: Int) {
        let selector = name + String(repeating: ":", count: Swift.min(argumentCount, 1))
        guard let function = ExpressionFunction(selector: selector), function.arity == argumentCount,
              !function.hasOperatorSyntax else { return nil }
        self = function
    }

    /// The selector, as `NSExpression.function` reports it.
    var selector: String {
        rawValue
    }

    /// How many arguments the function takes.
    var arity: Int {
        rawValue.reduce(0) { $1 == ":" ? $0 + 1 : $0 }
    }

    /// Whether the result depends on nothing but the arguments.
    var isDeterministic: Bool {
        switch self {
        case .random, .randomBelow, .now: false
        default: true
        }
    }

    /// The infix operator that writes a binary function, such as `+` for `add:to:`.
    var infixOperator: String? {
        switch self {
        case .add: "+"
        case .subtract: "-"
        case .multiply: "*"
        case .divide: "/"
        case .power: "**"
        case .bitwiseAnd: "&"
        case .bitwiseOr: "|"
        case .bitwiseXor: "^"
        case .leftShift: "<<"
        case .rightShift: ">>"
        default: nil
        }
    }

    /// Functions with a syntax of their own (operators, `[…]`, `CAST`), which a format string
    /// does not call by name.
    private var hasOperatorSyntax: Bool {
        infixOperator != nil || [.index, .cast, .onesComplement].contains(self)
    }
}
