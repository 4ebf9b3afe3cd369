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

    /// A variable is a key path component: `$a.$b` reads the key `$b` names from `$a`'s value
    /// (spec §2.2 [V dd `$a.$b == 'ABC'` with `a = {a: ABC}`, `b = a`]); Apple's key-path
    /// expressions are `valueForKeyPath:` functions of their base.
    @Test func variablesAsKeyPathComponents() throws {
        #expect(try comparison("$a.$b == 'ABC'").left == .variableKeyPath(base: .variable("a"), variable: "b"))
        #expect(try comparison("SELF.$key == 1").left == .variableKeyPath(base: .evaluatedObject, variable: "key"))
        #expect(try comparison("ship.$k.name == 1").left == .keyPath(base: .variableKeyPath(base: key("ship"), variable: "k"), components: ["name"]))
        let expression = NSExpression(format: "$a.$b")
        #expect(expression.expressionType == .function)
        #expect(expression.function == "valueForKeyPath:")
        #expect(expression.operand == NSExpression(forVariable: "a"))
        #expect(expression.arguments == [NSExpression(forVariable: "b")])
    }

    /// Substituting a key path string for the variable makes the plain key path, which a SQLite
    /// fetch can use; a value that is not a string stays a `valueForKeyPath:` call, which fails at
    /// evaluation as Apple's raises.
    @Test func substitutingAVariableKey() throws {
        let template = NSPredicate(format: "SELF.$key == 'Nostromo' AND $a.$b == 'ABC'")
        let substituted = template.withSubstitutionVariables(["key": "ship.name", "b": "x"])
        #expect(substituted.predicateFormat == #"SELF.ship.name == "Nostromo" AND $a.x == "ABC""#)
        #expect(substituted == NSPredicate(format: "SELF.ship.name == 'Nostromo' AND $a.x == 'ABC'"))
        #expect(substituted.evaluate(with: ["ship": ["name": "Nostromo"]], substitutionVariables: ["a": ["x": "ABC"]]))
        guard case .compound(_, let parts) = substituted.node, case .comparison(let first) = parts[0] else {
            Issue.record("\(substituted.node)")
            return
        }
        #expect(first.left.rootedKeyPath == ["ship", "name"])
        let number = NSPredicate(format: "$a.$b == 1").withSubstitutionVariables(["b": 0])
        #expect(number.predicateFormat == #"FUNCTION($a, "valueForKeyPath:" , 0) == 1"#)
        #expect(!number.evaluate(with: nil, substitutionVariables: ["a": [1]]))
    }

    /// Arguments beyond the format's specifiers are ignored, as Apple's parser ignores them: a
    /// quoted `'%@'` takes none and compares with the text `%@` [V dd "Abnormal Case 1": no
    /// exception, no match for "Smith"].
    @Test func extraArgumentsAreIgnored() throws {
        let quoted = NSPredicate(format: "lastName LIKE '%@'", "Smith")
        #expect(quoted.parseError == nil)
        #expect(quoted.predicateFormat == #"lastName LIKE "%@""#)
        #expect(!quoted.evaluate(with: ["lastName": "Smith"]))
        #expect(quoted.evaluate(with: ["lastName": "%@"]))
        #expect(NSPredicate(format: "a == %@", 1, 2) == NSPredicate(format: "a == 1"))
        #expect(NSPredicate(format: "a == 1", argumentArray: [1]) == NSPredicate(format: "a == 1"))
        #expect(NSExpression(format: "%@", 1, 2) == NSExpression(forConstantValue: 1))
    }

    /// `as CVarArg`, the spelling most Core Data code uses for `Date`, `UUID`, collections and
    /// objects, compiles as on Apple platforms and passes the value itself.
    @Test func cVarArgArguments() throws {
        let born = Date(timeIntervalSinceReferenceDate: 100)
        let id = UUID()
        let predicate = NSPredicate(format: "born > %@ AND id == %@ AND id IN %@ AND tag IN %@ AND data == %@ AND home == %@ AND price == %@ AND n == %@",
                                    born as CVarArg, id as CVarArg, [id] as CVarArg, Set(["a"]) as CVarArg, Data([1]) as CVarArg,
                                    URL(fileURLWithPath: "/tmp") as CVarArg, Decimal(string: "1.5")! as CVarArg, NSNumber(value: 3) as CVarArg)
        #expect(predicate.parseError == nil)
        let match: [String: Any] = ["born": Date(timeIntervalSinceReferenceDate: 200), "id": id, "tag": "a", "data": Data([1]),
                                    "home": URL(fileURLWithPath: "/tmp"), "price": Decimal(string: "1.5")!, "n": 3]
        #expect(predicate.evaluate(with: match))
        #expect(!predicate.evaluate(with: match.merging(["id": UUID()]) { $1 }))
        #expect(try comparison("born > %@", born as CVarArg).right == constant(born))
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
