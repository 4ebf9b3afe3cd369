import Testing
@testable import CoreData

/// Functions, operators, indexes, `CAST`, `TERNARY`, `SUBQUERY`, set operations and blocks: how
/// they parse, print and evaluate (spec §2–§5). Printed forms follow Apple's
/// `NSFunctionExpression`: a nested infix operand is parenthesised whatever the precedence.
@Suite("Expression functions")
struct ExpressionFunctionTests {
    private static var object: [String: Any] { ["a": [10, 20, 30], "items": [["price": 3], ["price": 7], ["price": 9]], "name": "Ripley"] }

    private static func value(_ format: String, _ arguments: Any...) -> Any? {
        NSExpression(format: format, argumentArray: arguments).expressionValue(with: object, context: nil)
    }

    @Test(arguments: [
        ("1 + 2 * 3", "1 + (2 * 3)"), ("(1 + 2) * 3", "(1 + 2) * 3"), ("2 * 3 + 1", "(2 * 3) + 1"), ("1 + 1 + 1", "(1 + 1) + 1"),
        ("2 ** 3", "2 ** 3"), ("-a", "a * -1"), ("~5", "~5"), ("~(1 & 3)", "~(1 & 3)"), ("0x10 >> 1", "16 >> 1"),
        ("sum({1, 2, 3})", "sum:({1, 2, 3})"), ("sum:({1, 2, 3})", "sum:({1, 2, 3})"), ("multiply:by:(5, 3)", "5 * 3"),
        ("modulus:by:(7, 3)", "modulus:by:(7, 3)"), ("now()", "now()"), ("uppercase('abc')", "uppercase:(\"abc\")"),
        ("a[1]", "a[1]"), ("a[FIRST]", "a[FIRST]"), ("a[last]", "a[LAST]"), ("(a + b)[0]", "(a + b)[0]"),
        ("CAST(1.5, 'NSString')", "CAST(1.5, \"NSString\")"), ("TERNARY(a > 1, 'x', nil)", "TERNARY(a > 1, \"x\", nil)"),
        ("SUBQUERY(items, $x, $x.price > 5).@count", "SUBQUERY(items, $x, $x.price > 5).@count"),
        ("a UNION b", "a UNION b"), ("a intersect b", "a INTERSECT b"), ("a MINUS {1}", "a MINUS {1}"),
        ("FUNCTION(name, 'uppercaseString')", "FUNCTION(name, \"uppercaseString\")"),
        ("FUNCTION(name, 'stringByAppendingString:', 'x')", "FUNCTION(name, \"stringByAppendingString:\" , \"x\")"),
        ("anykey", "ANYKEY"),
    ])
    func printsCanonically(format: String, expected: String) throws {
        let expression = NSExpression(format: format)
        #expect(expression.parseError == nil, "\(format)")
        #expect(expression.description == expected)
        #expect(NSExpression(format: expected) == expression, "\(expected) reads back as the same tree")
    }

    @Test func arithmeticKeepsIntegersAndFollowsApple() {
        #expect(Self.value("5 / 2") as? NSNumber == 2)
        #expect(Self.value("5.0 / 2") as? NSNumber == 2.5)
        #expect(Self.value("7 / 0") as? NSNumber == 0, "Apple divides integers by zero into 0")
        #expect(Self.value("modulus:by:(7, 3)") as? NSNumber == 1)
        #expect(Self.value("modulus:by:(7.5, 2)") as? NSNumber == 1.5)
        #expect(Self.value("2 ** 10") as? NSNumber == 1024)
        #expect(Self.value("-(1 - 3)") as? NSNumber == 2)
        #expect(Self.value("9223372036854775807 + 1") as? NSNumber == NSNumber(value: 9.223372036854775808e18), "overflow becomes a double")
        #expect(Self.value("nil + 1") == nil)
        #expect(Self.value("3 & 5 | 8") as? NSNumber == 9)
        #expect(Self.value("bitwiseXor:with:(6, 3)") as? NSNumber == 5)
        #expect(Self.value("1 << 4") as? NSNumber == 16)
        #expect(Self.value("~0") as? NSNumber == -1)
    }

    @Test func functionsGiveTheValuesAppleDocuments() {
        #expect(Self.value("ceiling(-1.5)") as? NSNumber == -1)
        #expect(Self.value("trunc(-1.5)") as? NSNumber == -1)
        #expect(Self.value("floor(-1.5)") as? NSNumber == -2)
        #expect(Self.value("exp(0)") as? NSNumber == 1)
        #expect(Self.value("average({1, 2, 2, 3, 4, 7, 9})") as? NSNumber == 4)
        #expect(Self.value("count({1, 2, 2, 3, 4, 7, 9})") as? NSNumber == 7)
        #expect(Self.value("noindex(513)") as? NSNumber == 513)
        #expect(Self.value("sum({})") as? NSNumber == 0)
        #expect(Self.value("average({})") == nil, "Apple raises for the average of nothing")
        #expect(Self.value("median({1, 5, 2, 4})") as? NSNumber == 3)
        #expect(Self.value("median({1, 5, 2})") as? NSNumber == 2)
        #expect((Self.value("mode({1, 2, 2, 3, 3})") as? [Any])?.compactMap { $0 as? NSNumber } == [2, 3])
        #expect(Self.value("stddev({2, 4, 4, 4, 5, 5, 7, 9})") as? NSNumber == 2, "the population standard deviation")
        #expect(Self.value("min({3, 1.5, 2})") as? NSNumber == 1.5)
        #expect(Self.value("max(a)") as? NSNumber == 30)
        #expect(Self.value("sqrt(16)") as? NSNumber == 4)
        #expect(Self.value("log(1000)") as? NSNumber == 3)
        #expect(Self.value("ln(1)") as? NSNumber == 0)
        #expect(Self.value("abs(-3)") as? NSNumber == 3)
        #expect(Self.value("uppercase(name)") as? String == "RIPLEY")
        #expect(Self.value("lowercase('ÀB')") as? String == "àb")
        #expect(Self.value("uppercase(3)") == nil, "not a string")
        let random = Self.value("random()") as? NSNumber
        #expect(random.map { (0..<1).contains($0.doubleValue) } == true)
        #expect((Self.value("now()") as? Date).map { abs($0.timeIntervalSinceNow) < 60 } == true)
    }

    @Test func indexesCastsAndConditionals() {
        #expect(Self.value("a[1]") as? NSNumber == 20)
        #expect(Self.value("a[FIRST]") as? NSNumber == 10)
        #expect(Self.value("a[LAST]") as? NSNumber == 30)
        #expect(Self.value("a[SIZE]") as? NSNumber == 3)
        #expect(Self.value("a[3]") == nil, "beyond the bounds is an error, not a crash")
        #expect(Self.value("SELF['name']") as? String == "Ripley")
        #expect(Self.value("items[1].price") as? NSNumber == 7)
        #expect(Self.value("CAST(1.5, 'NSString')") as? String == "1.5")
        #expect(Self.value("CAST('02134', 'NSNumber')") as? NSNumber == 1116, "strtoll with base 0 reads a leading 0 as octal")
        #expect(Self.value("CAST('0x1A', 'NSNumber')") as? NSNumber == 26)
        #expect(Self.value("CAST('2.5', 'NSNumber')") as? NSNumber == 2.5)
        #expect(Self.value("CAST(0, 'NSDate')") as? Date == Date(timeIntervalSinceReferenceDate: 0))
        #expect(Self.value("CAST(CAST(0, 'NSDate') + 60, 'NSNumber')") as? NSNumber == 60)
        #expect(Self.value("CAST(1, 'NSWindow')") == nil)
        #expect(Self.value("TERNARY(a[SIZE] > 2, 'many', 'few')") as? String == "many")
        #expect(Self.value("TERNARY(name == nil, 1, 2)") as? NSNumber == 2)
    }

    @Test func subqueriesSetsAndAnyKey() {
        #expect(Self.value("SUBQUERY(items, $x, $x.price > 5).@count") as? NSNumber == 2)
        #expect(Self.value("SUBQUERY(items, $x, name == 'Ripley' AND $x.price > 5)[SIZE]") as? NSNumber == 2, "key paths without the variable read the outer object")
        #expect(Self.value("SUBQUERY(missing, $x, TRUEPREDICATE)") == nil, "a nil collection gives nil")
        #expect(Self.value("SUBQUERY(items, $x, SUBQUERY(%@, $y, $y < $x.price).@count == 1).@count", [5, 8]) as? NSNumber == 1)
        #expect((Self.value("{1, 2} UNION {2, 3}") as? [Any])?.count == 3)
        #expect((Self.value("{1, 2} INTERSECT {2, 3}") as? [Any])?.compactMap { $0 as? NSNumber } == [2])
        #expect((Self.value("a MINUS {20}") as? [Any])?.compactMap { $0 as? NSNumber } == [10, 30])
        #expect(NSPredicate(format: "ANY ANYKEY == 'Ripley'").evaluate(with: Self.object))
        #expect(!NSPredicate(format: "ANY ANYKEY == 'Hicks'").evaluate(with: Self.object))
    }

    @Test func substitutionKeepsTheSubqueryVariableBound() {
        let predicate = NSPredicate(format: "SUBQUERY(items, $x, $x.price > $limit).@count == 1")
        let substituted = predicate.withSubstitutionVariables(["limit": 8, "x": 100])
        #expect(substituted.predicateFormat == "SUBQUERY(items, $x, $x.price > 8).@count == 1")
        #expect(substituted.evaluate(with: Self.object))
    }

    @Test func expressionObjectsExposeTheirParts() throws {
        let sum = NSExpression(forFunction: "sum:", arguments: [NSExpression(forKeyPath: "a")])
        #expect(sum.expressionType == .function)
        #expect(sum.function == "sum:")
        #expect(sum.arguments == [NSExpression(forKeyPath: "a")])
        #expect(sum.expressionValue(with: Self.object, context: nil) as? NSNumber == 60)
        #expect(sum == NSExpression(format: "sum(a)"))

        let unknown = NSExpression(forFunction: "factorial:", arguments: [3])
        #expect(unknown.parseError?.localizedDescription.contains("factorial:") == true)
        #expect(!NSPredicate(format: "%@ == 6", unknown).evaluate(with: nil))
        #expect(NSExpression(forFunction: "sum:", arguments: [1, 2]).parseError != nil, "wrong number of arguments")

        let method = NSExpression(forFunction: NSExpression(forKeyPath: "name"), selectorName: "length", arguments: nil)
        #expect(method.function == "length")
        #expect(method.operand == NSExpression(forKeyPath: "name"))
        #expect(method.expressionValue(with: Self.object, context: nil) as? NSNumber == 6)

        let subquery = NSExpression(forSubquery: NSExpression(forKeyPath: "items"), usingIteratorVariable: "x", predicate: NSPredicate(format: "$x.price < 5"))
        #expect(subquery.expressionType == .subquery)
        #expect(subquery.predicate.predicateFormat == "$x.price < 5")
        #expect((subquery.collection as? NSExpression)?.keyPath == "items")

        let union = NSExpression(forUnionSet: NSExpression(format: "{1}"), with: NSExpression(format: "{2}"))
        #expect(union.expressionType == .unionSet)
        #expect(union.left == NSExpression(format: "{1}"))
        #expect(union.right == NSExpression(format: "{2}"))
        #expect(NSExpression(forIntersectSet: union, with: union).expressionType == .intersectSet)
        #expect(NSExpression(forMinusSet: union, with: union).expressionType == .minusSet)

        let conditional = NSExpression(forConditional: NSPredicate(value: true), trueExpression: NSExpression(forConstantValue: 1), falseExpression: NSExpression(forConstantValue: 2))
        #expect(conditional.expressionType == .conditional)
        #expect(conditional.true.constantValue as? Int == 1)
        #expect(conditional.false.constantValue as? Int == 2)
        #expect(conditional.description == "TERNARY(TRUEPREDICATE, 1, 2)")
        #expect(NSExpression.expressionForAnyKey().expressionType == .anyKey)
    }

    @Test func blocksEvaluateInMemory() {
        let double = NSExpression(block: { object, arguments, _ in
            let base = arguments.first?.expressionValue(with: object, context: nil) as? Int ?? 0
            return base * 2
        }, arguments: [NSExpression(format: "a[SIZE]")])
        #expect(double.expressionType == .block)
        #expect(double.expressionValue(with: Self.object, context: nil) as? Int == 6)
        let predicate = NSPredicate(format: "%@ == 6", double)
        #expect(predicate.evaluate(with: Self.object))

        let counting = NSExpression(block: { _, _, context in
            let calls = (context?["calls"] as? Int ?? 0) + 1
            context?["calls"] = calls
            return calls
        }, arguments: nil)
        let state = NSMutableDictionary()
        _ = counting.expressionValue(with: nil, context: state)
        #expect(counting.expressionValue(with: nil, context: state) as? Int == 2, "the block keeps its state in the caller's context")
        #expect(state["calls"] as? Int == 2)

        let block = NSPredicate { object, bindings in
            (object as? [String: Any])?["name"] as? String == bindings?["name"] as? String
        }
        #expect(block.evaluate(with: Self.object, substitutionVariables: ["name": "Ripley"]))
        #expect(!block.evaluate(with: Self.object, substitutionVariables: ["name": "Hicks"]))
    }

    @Test func functionAnswersTheCommonMethodsOfStringsAndNumbers() {
        #expect(Self.value("FUNCTION(name, 'stringByAppendingString:', '!')") as? String == "Ripley!")
        #expect(Self.value("FUNCTION(name, 'uppercaseString')") as? String == "RIPLEY")
        #expect(Self.value("FUNCTION(name, 'length')") as? NSNumber == 6)
        #expect(Self.value("FUNCTION('2.5', 'doubleValue')") as? NSNumber == 2.5)
        #expect(Self.value("FUNCTION(7, 'stringValue')") as? String == "7")
        #expect(Self.value("FUNCTION(a, 'count:')") as? NSNumber == 3, "a built-in function as a method of its first argument")
    }

    @Test func customSelectorComparisons() throws {
        let parsed = NSPredicate(format: "name hasPrefix: 'Rip'")
        #expect(parsed.parseError == nil)
        #expect(parsed.predicateFormat == #"name hasPrefix: "Rip""#)
        #expect(parsed.evaluate(with: Self.object))
        #expect(!NSPredicate(format: "name hasSuffix: 'Rip'").evaluate(with: Self.object))
        #expect(NSPredicate(format: "SELF isEqual: %@", ["a": 1]).evaluate(with: ["a": 1]))
        #expect(!NSPredicate(format: "name frobnicate: 1").evaluate(with: Self.object), "unknown selectors fail without crashing")

        let built = NSComparisonPredicate(leftExpression: NSExpression(forKeyPath: "name"), rightExpression: NSExpression(forConstantValue: "ley"), customSelector: Selector("containsString:"))
        #expect(built.predicateOperatorType == .customSelector)
        #expect(built.customSelector == Selector("containsString:"))
        #expect(built.evaluate(with: Self.object))
        #expect(built == NSPredicate(format: "name containsString: 'ley'"))
        #expect(NSComparisonPredicate(leftExpression: NSExpression(forKeyPath: "a"), rightExpression: NSExpression(forConstantValue: 1), modifier: .direct, type: .equalTo).customSelector == nil)
    }

    @Test func functionsNeedTheRightArguments() {
        for format in ["CAST(CAST('txt', 'NSDecimalNumber'), 'NSDate')", "CAST(0, 'NSDate') + 1e308 * 10", "sum(1)", "count(name)", "uppercase(3)", "a['x']", "a[-1]", "CAST(1, 2)", "FUNCTION(name, 'frobnicate')", "SUBQUERY(name, $x, TRUEPREDICATE)", "name UNION a"] {
            #expect(Self.value(format) == nil, "\(format) fails without crashing")
            #expect(!NSPredicate(format: "\(format) == 1").evaluate(with: Self.object))
        }
    }
}
