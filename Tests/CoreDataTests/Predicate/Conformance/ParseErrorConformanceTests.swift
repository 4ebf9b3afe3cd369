@testable import CoreData
import Testing

/// The parse-error half of the conformance table: formats (and arguments) Apple's parser refuses.
/// Each gives an `NSFormattingError` (2048) in `NSCocoaErrorDomain`, never a crash; the predicate
/// matches nothing and `init(validatingFormat:)` throws. Expectations come from the sources cited
/// per group, never from running this code.
@Suite("Conformance: parse errors")
struct ParseErrorConformanceTests {
    /// One refused format. `@unchecked Sendable`: an immutable constant of the table.
    struct Case: @unchecked Sendable, CustomTestStringConvertible {
        let format: String
        let arguments: [Any]

        init(_ format: String, _ arguments: [Any] = []) {
            self.format = format
            self.arguments = arguments
        }

        var testDescription: String { "\(format) \(arguments)" }
    }

    /// A predicate must be a comparison: bare expressions, empty strings and dangling operators
    /// are refused (spec §2.2 [V dd, Realm]).
    static let notAComparison: [Case] = [
        Case(""), Case("   "), Case("age"), Case("1"), Case("TRUE"), Case("FALSE"), Case("age * 25"), Case("()"), Case(","),
        Case("0 || 1"), Case("nil"), Case("SELF"), Case("$x"), Case("'text'"), Case("{1, 2}"), Case("NOT"), Case("ANY"),
        Case("a == 1 AND"), Case("OR a == 1"), Case("a == 1 b == 2"), Case("a =="), Case("== 3"),
    ]

    /// Comparisons are not associative, operators are words or symbols of the grammar, option
    /// letters are c, d, n, l (spec §1.7–§1.8, §2.1 [V Realm: `age === 25`, `CONATINS`]).
    static let badOperators: [Case] = [
        Case("age === 25"), Case("a == 1 =="), Case("a < b < c"), Case("anyCol CONATINS 0"), Case("a ~= 1"),
        Case("a LIKE[x] 'b'"), Case("a ==[] 1"), Case("a ==[c 1"), Case("a BEGINSWITH[cq] 'x'"), Case("a !! b"),
        Case("a ? 1"), Case("a BETWEEN"), Case("a IN"), Case("a == 1 ||"),
    ]

    /// Malformed literals and key paths: unterminated strings, bad numbers, numeric key path
    /// components, dangling dots and sigils (spec §1.3–§1.5 [A][V dde `x.0`]).
    static let badTokens: [Case] = [
        Case("name == 'unterminated"), Case("name == \"unterminated"), Case("x.0 == 1"), Case("a. == 1"), Case(".a == 1"),
        Case("a == 1abc"), Case("a == 0x"), Case("a == 0b102"), Case("a == $"), Case("a == @"), Case("a == #"),
        Case("a..b == 1"), Case("a == 'x\\u12'"), Case("(a == 1"), Case("a == 1)"), Case("{1, 2 == a"), Case("a IN {1,}"),
        Case("a[] == 1"), Case("a[0 == 1"),
    ]

    /// Reserved words cannot be keys without `#` (Predicate Format String Syntax, reserved words
    /// [A]).
    static let reservedWords: [Case] = [
        Case("size == 1"), Case("a.first == 1"), Case("between == 1"), Case("like == 'x'"), Case("in == 1"),
        Case("contains == 1"), Case("any == 1"), Case("a.last == 1"),
    ]

    /// Functions: the name must exist (`expressionForFunction:` raises at once for an unknown
    /// selector [A][V dde `factorial`]); SUBQUERY needs a variable; CAST, TERNARY and FUNCTION need
    /// their arguments (spec §2.2).
    static let badFunctions: [Case] = [
        Case("factorial(3) == 6"), Case("foo(a) == 1"), Case("SUBQUERY(a, x, x == 1).@count > 0"),
        Case("SUBQUERY(a, $x).@count == 0"), Case("TERNARY(a, 1, 2) == 1"), Case("FUNCTION(a) == 1"),
        Case("CAST(a) == 1"), Case("sum( == 1"), Case("TERNARY(a == 1, 2) == 2"),
    ]

    /// Format specifiers: too few arguments, `%k` (`%K` must be upper case [V dd]), arguments of
    /// the wrong kind, a predicate through `%@` (raises [A]). Arguments beyond the specifiers are
    /// ignored, not refused (see the evaluation and printing tables).
    static let badArguments: [Case] = [
        Case("a == %@"), Case("a == %@ AND b == %@", [1]), Case("%K == 1"), Case("a == %d"),
        Case("a == %k", ["x"]), Case("%K == 1", [3]), Case("%K == 1", [""]),
        Case("a == %@", [NSPredicate(value: true)]), Case("a == %d", ["3"]), Case("a == %f", ["x"]), Case("a == %y", [1]),
        Case("a == %", [1]), Case("%K == %K", ["a"]),
    ]

    static let all = notAComparison + badOperators + badTokens + reservedWords + badFunctions + badArguments

    @Test(arguments: all)
    func refuses(_ testCase: Case) {
        let predicate = NSPredicate(format: testCase.format, argumentArray: testCase.arguments)
        let error = predicate.parseError
        #expect(error?.domain == NSCocoaErrorDomain)
        #expect(error?.code == 2048)
        #expect(!predicate.evaluate(with: ["a": 1, "age": 25, "name": "x"]))
        #expect(throws: NSError.self) { try NSPredicate(validatingFormat: testCase.format, argumentArray: testCase.arguments) }
    }
}
