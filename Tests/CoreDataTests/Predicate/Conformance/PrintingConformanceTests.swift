@testable import CoreData
import Testing

/// The printing half of the conformance table: a format (and arguments) and the exact canonical
/// `predicateFormat` Apple prints for it (spec §5), which must also parse back to an equal
/// predicate. Expectations come from the sources cited per group, never from running this code.
///
/// Left out on purpose (spec §8): chains of three operands (`a AND b AND c`), `NONE`, `~`, and
/// escapes other than `"` and `\` in strings.
@Suite("Conformance: printing")
struct PrintingConformanceTests {
    /// One printing case. `@unchecked Sendable`: an immutable constant of the table.
    struct Case: @unchecked Sendable, CustomTestStringConvertible {
        let format: String
        let arguments: [Any]
        let expected: String
        /// False where the text cannot read back as the same tree: `<null>` has no syntax, a
        /// collection argument is a constant where `{…}` is an aggregate, and `CAST(…)` of a date
        /// is a function where the argument was a date.
        let readsBack: Bool

        init(_ format: String, _ arguments: [Any], _ expected: String, readsBack: Bool = true) {
            self.format = format
            self.arguments = arguments
            self.expected = expected
            self.readsBack = readsBack
        }

        init(_ format: String, _ expected: String) {
            self.init(format, [], expected)
        }

        var testDescription: String { format }
    }

    /// One spelling per operator, upper-case words, options right after the operator in the
    /// order c, d, n, l (spec §5.2–§5.3 [A][V Preacher, swift-foundation, Realm]).
    static let operators: [Case] = [
        Case("age = 24", "age == 24"),
        Case("age == 24", "age == 24"),
        Case("age <> 24", "age != 24"),
        Case("age != 24", "age != 24"),
        Case("age < 24", "age < 24"),
        Case("age =< 24", "age <= 24"),
        Case("age <= 24", "age <= 24"),
        Case("age > 24", "age > 24"),
        Case("age => 24", "age >= 24"),
        Case("age >= 24", "age >= 24"),
        Case("lastName like 'Smith'", #"lastName LIKE "Smith""#),
        Case("firstName like[c] 'adam'", #"firstName LIKE[c] "adam""#),
        Case("name beginswith 'x'", #"name BEGINSWITH "x""#),
        Case("name endswith 'x'", #"name ENDSWITH "x""#),
        Case("name contains 'x'", #"name CONTAINS "x""#),
        Case("name matches 'x'", #"name MATCHES "x""#),
        Case("age in {1}", "age IN {1}"),
        Case("age between {1, 2}", "age BETWEEN {1, 2}"),
        Case("firstName BEGINSWITH[cd] 'bó'", #"firstName BEGINSWITH[cd] "bó""#),
        Case("name CONTAINS[dc] 'x'", #"name CONTAINS[cd] "x""#),
        Case("name CONTAINS[cdl] 'x'", #"name CONTAINS[cdl] "x""#),
        Case("b ==[l] 'ABC'", #"b ==[l] "ABC""#),
        Case("b <[c] 'ABC'", #"b <[c] "ABC""#),
        Case("b !=[cd] 'ABC'", #"b !=[cd] "ABC""#),
        Case("b ==[n] 'ABC'", #"b ==[n] "ABC""#),
        Case("b ENDSWITH[d] 'ABC'", #"b ENDSWITH[d] "ABC""#),
        Case("b MATCHES[c] 'a.*'", #"b MATCHES[c] "a.*""#),
        Case("ANY age == 21", "ANY age == 21"),
        Case("SOME age == 21", "ANY age == 21"),
        Case("ALL age == 21", "ALL age == 21"),
        Case("any tags.name == 'x'", #"ANY tags.name == "x""#),
    ]

    /// Constants: strings double-quoted with `"` and `\` escaped, numbers as `NSNumber` describes
    /// them, Booleans 1/0, nil, aggregates `{a, b}` (spec §5.7 [V dd, Preacher, Kokoro]; `=`
    /// printing `==` and a substituted NSNull `<null>`: Predicate Programming Guide [A]).
    static let constants: [Case] = [
        Case("isMale == YES", "isMale == 1"),
        Case("isMale == no", "isMale == 0"),
        Case("isMale == TRUE", "isMale == 1"),
        Case("isMale == false", "isMale == 0"),
        Case("name == nil", "name == nil"),
        Case("name == NULL", "name == nil"),
        Case("height > 1.5", "height > 1.5"),
        Case("height > 2.50", "height > 2.5"),
        Case("height > -7", "height > -7"),
        Case("age == 0x1F", "age == 31"),
        Case("age == 1e3", "age == 1000"),
        Case("name == 'x'", #"name == "x""#),
        Case("name == \"x\"", #"name == "x""#),
        Case("name == 'Zürich'", #"name == "Zürich""#),
        Case(#"s == 'say "hi"'"#, #"s == "say \"hi\"""#),
        Case(#"firstName MATCHES '([A-B])\\w+'"#, #"firstName MATCHES "([A-B])\\w+""#),
        Case("age BETWEEN {24, 31}", "age BETWEEN {24, 31}"),
        Case("firstName IN {'Bob', 'Alice'}", #"firstName IN {"Bob", "Alice"}"#),
        Case("age IN {}", "age IN {}"),
        Case("extraInt BETWEEN {1, 3}", "extraInt BETWEEN {1, 3}"),
        Case("TRUEPREDICATE", "TRUEPREDICATE"),
        Case("falsepredicate", "FALSEPREDICATE"),
        Case("a == %@", [NSNull()], "a == <null>", readsBack: false),
        Case("a == %@", [true], "a == 1"),
        Case("a == %d", [24], "a == 24"),
        Case("a == %f", [40.5], "a == 40.5"),
        Case("age IN %@", [[24, 33]], "age IN {24, 33}", readsBack: false),
        Case("name IN %@", [["Bob", "Alice"]], #"name IN {"Bob", "Alice"}"#, readsBack: false),
        Case("age BETWEEN %@", [[1, 2]], "age BETWEEN {1, 2}", readsBack: false),
    ]

    /// Dates print as `CAST(<seconds since 2001>, "NSDate")` with `%f`'s six decimals (decompiled
    /// `NSConstantValueExpression`, research notes §2; Apple's own `po` output
    /// `CAST(-978250148.000000, "NSDate")` in objc.io issue 4, "Core Data Fetch Requests").
    static let dates: [Case] = [
        Case("born == %@", [Date(timeIntervalSinceReferenceDate: 0)], #"born == CAST(0.000000, "NSDate")"#, readsBack: false),
        Case("%@ <= departureTime", [Date(timeIntervalSinceReferenceDate: -978_250_148)], #"CAST(-978250148.000000, "NSDate") <= departureTime"#, readsBack: false),
        Case("born > %@", [Date(timeIntervalSinceReferenceDate: 453_945_600.5)], #"born > CAST(453945600.500000, "NSDate")"#, readsBack: false),
        Case("born == CAST(0, 'NSDate')", #"born == CAST(0, "NSDate")"#),
    ]

    /// Key paths, SELF, variables, `%K` and `%@` in key position (spec §5.7 [V dd][A]).
    static let keyPaths: [Case] = [
        Case("a.@count == 3", "a.@count == 3"),
        Case("a.firstName.length == 3", "a.firstName.length == 3"),
        Case("SELF == 'a'", #"SELF == "a""#),
        Case("self == 'a'", #"SELF == "a""#),
        Case("name == $name", "name == $name"),
        Case("%K LIKE %@", ["firstName", "Adam"], #"firstName LIKE "Adam""#),
        Case("%K == 1", ["a.b"], "a.b == 1"),
        Case("%@ LIKE %@", ["firstName", "Adam"], #""firstName" LIKE "Adam""#),
        Case("'%K' LIKE '%@'", #""%K" LIKE "%@""#),
        Case("lastName LIKE '%@'", ["Smith"], #"lastName LIKE "%@""#),
        Case("a == %@", [1, 2], "a == 1"),
        Case("$a.$b == 'ABC'", #"$a.$b == "ABC""#),
        Case("SELF.$key == 1", "SELF.$key == 1"),
        Case("ship.$k.name == 1", "ship.$k.name == 1"),
        Case("a[0].$k == 1", "a[0].$k == 1"),
        Case("parents.@avg.age > 1", "parents.@avg.age > 1"),
        Case("ANY crew.@count > 1", "ANY crew.@count > 1"),
    ]

    /// Compound operands that are compound are parenthesised, a top-level NOT of a comparison is
    /// not, `&&`/`||`/`!` print as words (spec §5.4–§5.5 [V Kokoro, CoreDataKit, Preacher, PrediKit]).
    static let compounds: [Case] = [
        Case("a == 1 && b == 2", "a == 1 AND b == 2"),
        Case("a == 1 || b == 2", "a == 1 OR b == 2"),
        Case("a == 1 and b == 2", "a == 1 AND b == 2"),
        Case("NOT age == 24", "NOT age == 24"),
        Case("!age == 24", "NOT age == 24"),
        Case("NOT extraInt BETWEEN {1, 3}", "NOT extraInt BETWEEN {1, 3}"),
        Case("NOT text CONTAINS[cd] 'test'", #"NOT text CONTAINS[cd] "test""#),
        Case("(a == 1)", "a == 1"),
        Case("name == 'Foo' AND (age < 13 OR age > 18)", #"name == "Foo" AND (age < 13 OR age > 18)"#),
        Case(
            "(requiredString == 'a' OR requiredString == 'b') AND (extraInt == 1 OR extraInt == 999)",
            #"(requiredString == "a" OR requiredString == "b") AND (extraInt == 1 OR extraInt == 999)"#
        ),
        Case(
            "(NOT lastName == 'Smith' OR firstName == 'Charlie') AND age > 30",
            #"((NOT lastName == "Smith") OR firstName == "Charlie") AND age > 30"#
        ),
        Case("(a == 1 AND b == 2) AND (c == 3 AND d == 4)", "(a == 1 AND b == 2) AND (c == 3 AND d == 4)"),
        Case("a == 1 OR (b == 2 AND c == 3)", "a == 1 OR (b == 2 AND c == 3)"),
        Case("NOT a == 1 AND b == 2", "(NOT a == 1) AND b == 2"),
        Case("a == 1 AND NOT b == 2", "a == 1 AND (NOT b == 2)"),
        Case("TRUEPREDICATE OR a == 1", "TRUEPREDICATE OR a == 1"),
    ]

    /// Function expressions as the decompiled `NSFunctionExpression -predicateFormat` prints them:
    /// infix operators with every nested infix operand parenthesised, `modulus:by:` without an
    /// infix form, other functions as `selector(args)`, subscripts, CAST, TERNARY, SUBQUERY and set
    /// expressions (research notes §2; `TERNARY(deckDesignId != nil, …)` and `count:(name)` from
    /// Apple's own error messages; `SUBQUERY(city.branches, $x1, …)` and `FUNCTION(a, "pow:" , 3)`
    /// [V dd]; `(1 + 1) + 1` [V maplibre]).
    static let functions: [Case] = [
        Case("a == 1 + 2 * 3", "a == 1 + (2 * 3)"),
        Case("a == (1 + 2) * 3", "a == (1 + 2) * 3"),
        Case("a == 2 * 3 + 1", "a == (2 * 3) + 1"),
        Case("a == 1 + 1 + 1", "a == (1 + 1) + 1"),
        Case("a == 2 ** 3", "a == 2 ** 3"),
        Case("a == b - c", "a == b - c"),
        Case("a == b / c", "a == b / c"),
        Case("a == b & c", "a == b & c"),
        Case("a == b | c", "a == b | c"),
        Case("a == b ^ c", "a == b ^ c"),
        Case("a == b << 1", "a == b << 1"),
        Case("a == b >> 1", "a == b >> 1"),
        Case("a == add:to:(1, 2)", "a == 1 + 2"),
        Case("a == from:subtract:(5, 3)", "a == 5 - 3"),
        Case("a == multiply:by:(5, 3)", "a == 5 * 3"),
        Case("a == divide:by:(6, 3)", "a == 6 / 3"),
        Case("a == raise:toPower:(2, 3)", "a == 2 ** 3"),
        Case("a == modulus:by:(7, 3)", "a == modulus:by:(7, 3)"),
        Case("a == x * y[0]", "a == x * y[0]"),
        Case("a[1] == 2", "a[1] == 2"),
        Case("a[first] == 2", "a[FIRST] == 2"),
        Case("a[LAST] == 2", "a[LAST] == 2"),
        Case("a[SIZE] == 2", "a[SIZE] == 2"),
        Case("(a + b)[0] == 2", "(a + b)[0] == 2"),
        Case("sum({1, 2, 3}) == 6", "sum:({1, 2, 3}) == 6"),
        Case("sum:({1, 2, 3}) == 6", "sum:({1, 2, 3}) == 6"),
        Case("count(name) == 1", "count:(name) == 1"),
        Case("average(x) > 1", "average:(x) > 1"),
        Case("now() > born", "now() > born"),
        Case("random() < 1", "random() < 1"),
        Case("uppercase('a') == 'A'", #"uppercase:("a") == "A""#),
        Case("lowercase(name) == 'a'", #"lowercase:(name) == "a""#),
        Case("CAST(x, 'NSNumber') == 1", #"CAST(x, "NSNumber") == 1"#),
        Case(
            "TERNARY(deckDesignId != nil, deckDesignId, '') IN {'DECK-1', 'deck-1'}",
            #"TERNARY(deckDesignId != nil, deckDesignId, "") IN {"DECK-1", "deck-1"}"#
        ),
        Case("SUBQUERY(city.branches, $x1, $x1.nr == 52).@count > 0", "SUBQUERY(city.branches, $x1, $x1.nr == 52).@count > 0"),
        Case("3 IN a UNION b", "3 IN a UNION b"),
        Case("3 IN a intersect b", "3 IN a INTERSECT b"),
        Case("3 IN a MINUS {1}", "3 IN a MINUS {1}"),
        Case("FUNCTION(a, 'pow:', 3) == 8", #"FUNCTION(a, "pow:" , 3) == 8"#),
        Case("FUNCTION('a', 'uppercase') == 'A'", #"FUNCTION("a", "uppercase") == "A""#),
        Case("%@ == 1", [NSExpression(format: "%@ + %@", 1, 1)], "1 + 1 == 1"),
        Case("%@ == 'x'", [NSExpression(format: "%@ + %@", "1", "1")], #""1" + "1" == "x""#),
    ]

    static let all = operators + constants + dates + keyPaths + compounds + functions

    @Test(arguments: all)
    func printsCanonically(_ testCase: Case) throws {
        let predicate = try NSPredicate(validatingFormat: testCase.format, argumentArray: testCase.arguments)
        #expect(predicate.predicateFormat == testCase.expected)
        #expect(predicate.description == testCase.expected)
        guard testCase.readsBack else { return }
        let reparsed = try NSPredicate(validatingFormat: testCase.expected)
        #expect(reparsed == predicate, "the canonical text reads back as the same predicate")
        #expect(reparsed.predicateFormat == testCase.expected)
    }

    /// A substituted NSNull prints `<null>`: Apple's guide shows `date = $DATE` with NSNull
    /// printing `date == <null>` [A].
    @Test func aSubstitutedNullPrintsAsNull() {
        let predicate = NSPredicate(format: "date = $DATE").withSubstitutionVariables(["DATE": NSNull()])
        #expect(predicate.predicateFormat == "date == <null>")
    }
}
