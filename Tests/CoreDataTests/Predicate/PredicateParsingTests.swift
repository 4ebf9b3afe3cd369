import Testing
@testable import CoreData

/// The trees `NSPredicate(format:)` and `NSExpression(format:)` build (spec §1–§3).
@Suite("Predicate parsing")
struct PredicateParsingTests {
    private func comparison(_ format: String, _ args: Any...) throws -> ComparisonNode {
        let predicate = NSPredicate(format: format, argumentArray: args)
        #expect(predicate.parseError == nil, "\(predicate.parseError?.localizedDescription ?? "")")
        guard case .comparison(let comparison) = predicate.node else {
            Issue.record("\(format) did not parse to a comparison: \(predicate.node)")
            throw ParsingTestFailure()
        }
        return comparison
    }

    private struct ParsingTestFailure: Error {}

    private func key(_ path: String...) -> ExpressionNode {
        .keyPath(base: nil, components: path)
    }

    private func constant(_ value: Any?) -> ExpressionNode {
        .constant(ConstantValue(value))
    }

    @Test("Each operator spelling maps to one operator", arguments: [
        ("==", NSComparisonPredicate.Operator.equalTo), ("=", .equalTo), ("!=", .notEqualTo), ("<>", .notEqualTo),
        ("<", .lessThan), ("<=", .lessThanOrEqualTo), ("=<", .lessThanOrEqualTo), (">", .greaterThan),
        (">=", .greaterThanOrEqualTo), ("=>", .greaterThanOrEqualTo), ("BEGINSWITH", .beginsWith),
        ("endswith", .endsWith), ("Contains", .contains), ("like", .like), ("MATCHES", .matches), ("in", .in),
    ])
    func operatorSpellings(spelling: String, expected: NSComparisonPredicate.Operator) throws {
        let parsed = try comparison("a \(spelling) 'x'")
        #expect(parsed.operatorType == expected)
        #expect(parsed.left == key("a"))
        #expect(parsed.right == constant("x"))
        #expect(parsed.modifier == .direct)
    }

    @Test func betweenTakesAnAggregate() throws {
        let parsed = try comparison("age BETWEEN {1, 3}")
        #expect(parsed.operatorType == .between)
        #expect(parsed.right == .aggregate([constant(1), constant(3)]))
    }

    private static let optionSpellings: [(String, NSComparisonPredicate.Options)] = [
        ("[c]", .caseInsensitive), ("[d]", .diacriticInsensitive), ("[n]", .normalized),
        ("[cd]", [.caseInsensitive, .diacriticInsensitive]), ("[CD]", [.caseInsensitive, .diacriticInsensitive]),
        ("[ c ]", .caseInsensitive), ("[cdl]", [.caseInsensitive, .diacriticInsensitive, .localeSensitive]), ("", []),
    ]

    @Test("Options in any combination and case", arguments: optionSpellings)
    func options(written: String, expected: NSComparisonPredicate.Options) throws {
        #expect(try comparison("name LIKE\(written) 'x'").options == expected)
        #expect(try comparison("name !=\(written) 'x'").options == expected)
    }

    @Test("Quantifiers", arguments: [
        ("ANY", NSComparisonPredicate.Modifier.any), ("some", .any), ("All", .all),
    ])
    func quantifiers(word: String, expected: NSComparisonPredicate.Modifier) throws {
        #expect(try comparison("\(word) tags.name == 'x'").modifier == expected)
    }

    @Test func noneIsTheNegationOfAny() {
        let predicate = NSPredicate(format: "NONE tags.name == 'x'")
        let any = NSPredicate(format: "ANY tags.name == 'x'")
        #expect(predicate.node == .compound(.not, [any.node]))
    }

    @Test func notBindsTighterThanAndWhichBindsTighterThanOr() {
        let predicate = NSPredicate(format: "NOT a == 1 OR b == 2 AND c == 3")
        let a = NSPredicate(format: "a == 1").node
        let b = NSPredicate(format: "b == 2").node
        let c = NSPredicate(format: "c == 3").node
        #expect(predicate.node == .compound(.or, [.compound(.not, [a]), .compound(.and, [b, c])]))
        #expect(NSPredicate(format: "NOT NOT a == 1").node == .compound(.not, [.compound(.not, [a])]))
    }

    @Test func symbolicLogicalOperatorsAreTheWords() {
        #expect(NSPredicate(format: "!(a == 1) || b == 2 && c == 3") == NSPredicate(format: "NOT (a == 1) OR b == 2 AND c == 3"))
    }

    @Test func chainsOfOneOperatorAreFlatButParenthesesNest() {
        let a = NSPredicate(format: "a == 1").node
        let b = NSPredicate(format: "b == 2").node
        let c = NSPredicate(format: "c == 3").node
        #expect(NSPredicate(format: "a == 1 AND b == 2 AND c == 3").node == .compound(.and, [a, b, c]))
        #expect(NSPredicate(format: "a == 1 OR b == 2 || c == 3").node == .compound(.or, [a, b, c]))
        #expect(NSPredicate(format: "(a == 1 AND b == 2) AND c == 3").node == .compound(.and, [.compound(.and, [a, b]), c]))
    }

    @Test func longGeneratedChainsStayShallow() {
        let format = (0..<5000).map { "id == \($0)" }.joined(separator: " OR ")
        let predicate = NSPredicate(format: format)
        guard case .compound(.or, let operands) = predicate.node else {
            Issue.record("expected one OR compound")
            return
        }
        #expect(operands.count == 5000)
        #expect(predicate.evaluate(with: ["id": 4999]))
    }

    @Test func parenthesesGroupPredicates() {
        let predicate = NSPredicate(format: "(a == 1 OR b == 2) AND c == 3")
        guard case .compound(.and, let operands) = predicate.node else {
            Issue.record("expected an AND, got \(predicate.node)")
            return
        }
        #expect(operands.first.map { if case .compound(.or, _) = $0 { true } else { false } } == true)
    }

    @Test func parenthesesAroundAnExpression() throws {
        #expect(try comparison("(a) == 1").left == key("a"))
        #expect(try comparison("((a.b)) == 1").left == key("a", "b"))
    }

    @Test func truePredicateAndFalsePredicate() {
        #expect(NSPredicate(format: "TRUEPREDICATE").node == .constant(true))
        #expect(NSPredicate(format: "falsepredicate").node == .constant(false))
        #expect(NSPredicate(value: true).node == .constant(true))
    }

    @Test func whitespaceIsIgnored() throws {
        #expect(try comparison("  \t a\n==\r1  ") == comparison("a == 1"))
    }

    // MARK: Expressions

    @Test func keyPathsSelfAndEscapedReservedWords() throws {
        #expect(try comparison("department.name == 'x'").left == key("department", "name"))
        #expect(try comparison("SELF == 'x'").left == .evaluatedObject)
        #expect(try comparison("self.name == 'x'").left == .keyPath(base: .evaluatedObject, components: ["name"]))
        #expect(try comparison("#size == 1").left == key("size"))
        #expect(try comparison("a.#first == 1").left == key("a", "first"))
        #expect(try comparison("employees.@count > 1").left == key("employees", "@count"))
        #expect(try comparison("@sum.items.price > 1").left == key("@sum", "items", "price"))
    }

    @Test func variables() throws {
        #expect(try comparison("a == $limit").right == .variable("limit"))
        #expect(try comparison("$person.name == 'x'").left == .keyPath(base: .variable("person"), components: ["name"]))
    }

    @Test("Number literals", arguments: [
        ("42", 42.0), ("-7", -7), ("2.71828", 2.71828), ("9.2e-5", 9.2e-5), ("1E3", 1000), ("0x1F", 31), ("0o17", 15),
        ("0b101", 5), ("5000000000", 5_000_000_000), ("- 1.5", -1.5),
    ])
    func numbers(literal: String, expected: Double) throws {
        let value = try comparison("a == \(literal)").right
        guard case .constant(let constant) = value, let number = constant.value as? NSNumber else {
            Issue.record("\(literal) parsed to \(value)")
            return
        }
        #expect(number.doubleValue == expected)
    }

    @Test func integersAreIntegersAndDecimalsAreDoubles() throws {
        guard case .constant(let integer) = try comparison("a == 3").right,
              case .constant(let decimal) = try comparison("a == 3.0").right
        else {
            Issue.record("expected constants")
            return
        }
        #expect(PredicateNumber(integer.value as Any).map { if case .integer(3) = $0 { true } else { false } } == true)
        #expect(PredicateNumber(decimal.value as Any).map { if case .floating(3) = $0 { true } else { false } } == true)
    }

    @Test("String literals and escapes", arguments: [
        (#""a'b""#, "a'b"), (#"'a\"b'"#, "a\"b"), (#"'a\'b'"#, "a'b"), (#"'\\d+'"#, #"\d+"#),
        (#"'\d+'"#, #"\d+"#), (#"'x\ny'"#, "x\ny"), (#"'x\ty\r'"#, "x\ty\r"), (#"'\x41\u00e9\101'"#, "AéA"), ("''", ""),
    ])
    func strings(literal: String, expected: String) throws {
        #expect(try comparison("a == \(literal)").right == constant(expected))
    }

    @Test("Boolean and null literals", arguments: ["TRUE", "yes", "FALSE", "No", "NIL", "null"])
    func booleansAndNull(word: String) throws {
        let right = try comparison("a == \(word)").right
        switch word.uppercased() {
        case "TRUE", "YES": #expect(right == constant(NSNumber(value: true)))
        case "FALSE", "NO": #expect(right == constant(NSNumber(value: false)))
        default: #expect(right == constant(nil))
        }
    }

    @Test func aggregates() throws {
        #expect(try comparison("a IN {}").right == .aggregate([]))
        #expect(try comparison("a IN {'x', 2, $v}").right == .aggregate([constant("x"), constant(2), .variable("v")]))
    }

    // MARK: Format arguments

    @Test func objectArguments() throws {
        #expect(try comparison("name == %@", "Bob").right == constant("Bob"))
        #expect(try comparison("age > %@", 3).right == constant(3))
        #expect(try comparison("a IN %@", [1, 2]).right == constant([1, 2]))
        #expect(try comparison("a == %@", NSNull()).right == constant(NSNull()))
        let nothing: String? = nil
        #expect(try comparison("a == %@", nothing as Any).right == constant(nil))
        let something: Int? = 4
        #expect(try comparison("a == %@", something as Any).right == constant(4))
    }

    @Test func expressionArgumentsAreSpliced() throws {
        #expect(try comparison("%@ == 1", NSExpression(forKeyPath: "a.b")).left == key("a", "b"))
        #expect(try comparison("a == %@", NSExpression.expressionForEvaluatedObject()).right == .evaluatedObject)
    }

    @Test func keyPathArguments() throws {
        #expect(try comparison("%K == 1", "name").left == key("name"))
        #expect(try comparison("%K == 1", "Record1.Name").left == key("Record1", "Name"))
        #expect(try comparison("%K.@count == 1", "items").left == key("items", "@count"))
        #expect(try comparison("%@ LIKE 'x'", "firstName").left == constant("firstName"))
    }

    @Test func numericSpecifiers() throws {
        let cases: [(specifier: String, argument: Any, expected: Double)] = [
            ("%d", 7, 7), ("%i", 7, 7), ("%ld", 7, 7), ("%lld", Int64(7), 7), ("%u", UInt(7), 7), ("%lu", 7, 7),
            ("%f", 40.5, 40.5), ("%lf", 2, 2), ("%d", true, 1), ("%d", NSNumber(value: 9), 9),
        ]
        for (specifier, argument, expected) in cases {
            let right = try comparison("a == \(specifier)", argument).right
            guard case .constant(let constant) = right, let number = constant.value as? NSNumber else {
                Issue.record("\(specifier) gave \(right)")
                continue
            }
            #expect(number.doubleValue == expected, "\(specifier) with \(argument)")
        }
    }

    @Test func stringSpecifierAndPercent() throws {
        #expect(try comparison("a == %s", "text").right == constant("text"))
        #expect(try comparison("a LIKE '%@'").right == constant("%@"))
        #expect(try comparison("a LIKE \"%K%d\"").right == constant("%K%d"))
    }

    @Test func specifiersInsideQuotesTakeNoArgument() {
        let predicate = NSPredicate(format: "%K LIKE '%@' AND b == %d", "name", 3)
        #expect(predicate.parseError == nil)
        #expect(predicate.predicateFormat == #"name LIKE "%@" AND b == 3"#)
    }

    @Test func argumentArrayAndVariadicFormsAgree() {
        #expect(NSPredicate(format: "a == %@ AND %K > %d", "x", "b", 2)
            == NSPredicate(format: "a == %@ AND %K > %d", argumentArray: ["x", "b", 2]))
    }

    // MARK: Object model

    @Test func comparisonPredicateInitializerBuildsTheSameTreeAsTheParser() {
        let built = NSComparisonPredicate(
            leftExpression: NSExpression(forKeyPath: "name"),
            rightExpression: NSExpression(forConstantValue: "a"),
            modifier: .direct,
            type: .beginsWith,
            options: [.caseInsensitive]
        )
        let parsed = NSPredicate(format: "name BEGINSWITH[c] 'a'")
        #expect(built == parsed)
        #expect(built.node == parsed.node)
        #expect(built.predicateOperatorType == .beginsWith)
        #expect(built.comparisonPredicateModifier == .direct)
        #expect(built.options == .caseInsensitive)
        #expect(built.leftExpression.keyPath == "name")
        #expect(built.rightExpression.constantValue as? String == "a")
    }

    @Test func compoundPredicateExposesTypedSubpredicates() throws {
        let compound = NSCompoundPredicate(andPredicateWithSubpredicates: [
            NSPredicate(format: "a == 1"), NSPredicate(format: "b == 2 OR c == 3"),
        ])
        #expect(compound.compoundPredicateType == .and)
        #expect(compound.subpredicates.count == 2)
        let first = try #require(compound.subpredicates[0] as? NSComparisonPredicate)
        #expect(first.leftExpression.keyPath == "a")
        let second = try #require(compound.subpredicates[1] as? NSCompoundPredicate)
        #expect(second.compoundPredicateType == .or)
        #expect(compound == NSPredicate(format: "a == 1 AND (b == 2 OR c == 3)"))
        #expect(NSCompoundPredicate(orPredicateWithSubpredicates: []).compoundPredicateType == .or)
        #expect(NSCompoundPredicate(notPredicateWithSubpredicate: first).predicateFormat == "NOT a == 1")
    }

    @Test func rawValuesAreApples() {
        #expect(NSComparisonPredicate.Operator.contains.rawValue == 99)
        #expect(NSComparisonPredicate.Operator.between.rawValue == 100)
        #expect(NSComparisonPredicate.Operator.customSelector.rawValue == 11)
        #expect(NSComparisonPredicate.Modifier.any.rawValue == 2)
        #expect(NSComparisonPredicate.Options.normalized.rawValue == 4)
        #expect(NSCompoundPredicate.LogicalType.or.rawValue == 2)
        #expect(NSExpression.ExpressionType.aggregate.rawValue == 14)
        #expect(NSExpression.ExpressionType.conditional.rawValue == 20)
    }

    @Test func expressionsFromFormatStrings() {
        let keyPath = NSExpression(format: "department.name")
        #expect(keyPath.expressionType == .keyPath)
        #expect(keyPath.keyPath == "department.name")
        #expect(NSExpression(format: "%K", "a.b") == NSExpression(forKeyPath: "a.b"))
        #expect(NSExpression(format: "SELF").expressionType == .evaluatedObject)
        #expect(NSExpression(format: "$x").variable == "x")
        #expect(NSExpression(format: "$x.name").expressionType == .function)
        #expect(NSExpression(format: "'a'").constantValue as? String == "a")
        let aggregate = NSExpression(format: "{1, 'b'}")
        #expect(aggregate.expressionType == .aggregate)
        #expect((aggregate.collection as? [NSExpression])?.map(\.expressionType) == [.constantValue, .constantValue])
    }

    @Test func expressionInitializers() {
        #expect(NSExpression(forConstantValue: 3).expressionType == .constantValue)
        #expect(NSExpression(forVariable: "v").node == .variable("v"))
        #expect(NSExpression.expressionForEvaluatedObject().node == .evaluatedObject)
        let aggregate = NSExpression(forAggregate: [NSExpression(forConstantValue: 1), 2])
        #expect(aggregate.node == .aggregate([constant(1), constant(2)]))
    }

    @Test func substitutionReplacesVariables() {
        let template = NSPredicate(format: "name == $name AND age > $age AND city == $city")
        let substituted = template.withSubstitutionVariables(["name": "Ann", "age": 30, "city": NSNull()])
        #expect(substituted == NSPredicate(format: "name == 'Ann' AND age > 30 AND city == nil"))
        #expect(substituted.predicateFormat == #"name == "Ann" AND age > 30 AND city == <null>"#)
        let comparison = NSComparisonPredicate(
            leftExpression: NSExpression(forKeyPath: "a"), rightExpression: NSExpression(forVariable: "v"),
            modifier: .direct, type: .equalTo
        )
        let substitutedComparison: NSComparisonPredicate = comparison.withSubstitutionVariables(["v": NSExpression(forKeyPath: "b")])
        #expect(substitutedComparison.rightExpression.keyPath == "b")
        #expect(template.withSubstitutionVariables([:]) == template)
    }
}
