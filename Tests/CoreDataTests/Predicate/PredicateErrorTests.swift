import Testing
@testable import CoreData

/// Invalid format strings and arguments never crash: they produce a predicate carrying an
/// `NSFormattingError` (2048), and `init(validatingFormat:)` throws it.
@Suite("Predicate errors")
struct PredicateErrorTests {
    @Test("Malformed format strings", arguments: [
        "", "   ", "age", "1", "TRUE", "age * 25", "()", ",", "0 || 1", "age === 25", "age == ", "== 3", "a == 1 ==",
        "a == 1 AND", "(a == 1", "a == 1)", "a ==[x] 1", "a ==[] 1", "a ==[c 1", "a LIKE[cq] 'x'", "name == 'unterminated",
        #"name == "unterminated"#, "x.0 == 1", "a. == 1", "a == 1abc", "0x == 1", "0b102 == 1", "a == 'x\\u12'",
        "anyCol CONATINS 0", "a == $", "a == #", "a == @", "size == 1", "a.first == 1", "SUBQUERY(a, x, x == 1).@count > 0",
        "SUBQUERY(a, $x).@count == 0", "count(a, b) == 1", "foo(a) == 1", "modulus(a) == 1", "a + == 2", "a[] == 1", "a[0 == 1",
        "TERNARY(a, 1, 2) == 1", "FUNCTION(a) == 1", "FUNCTION(a, b) == 1", "CAST(a) == 1", "a == --", "a ** == 1", "a UTI-CONFORMS-TO 'x'", "a ~ 1", "a == %k", "a == %", "a == %y",
        "a == %%", "a BETWEEN", "{1, 2 == a", "NOT", "a IN {1,}", "ANY", "a == 1 b == 2",
    ])
    func malformed(format: String) {
        let predicate = NSPredicate(format: format)
        let error = predicate.parseError
        #expect(error?.domain == NSCocoaErrorDomain)
        #expect(error?.code == 2048)
        #expect(!predicate.evaluate(with: ["a": 1, "age": 25]))
        #expect(throws: NSError.self) { try NSPredicate(validatingFormat: format) }
    }

    @Test func longOperatorAndIndexChainsAreRefusedNotOverflowed() {
        for format in ["count == 1" + String(repeating: " + 1", count: 20_000), "a" + String(repeating: "[0]", count: 20_000) + " == 1",
                       "a" + String(repeating: " UNION a", count: 20_000) + " CONTAINS 1"] {
            let predicate = NSPredicate(format: format)
            #expect(predicate.parseError?.code == 2048)
        }
        #expect(NSPredicate(format: "count == 1" + String(repeating: " + 1", count: 50)).parseError == nil, "ordinary chains parse")
    }

    @Test func theDescriptionNamesTheOffsetAndTheExpectation() throws {
        let error = try #require(NSPredicate(format: "age == ").parseError)
        #expect(error.localizedDescription.contains("\"age == \""))
        #expect(error.localizedDescription.contains("character 7"))
        #expect(error.localizedDescription.contains("expected an expression after '=='"))

        let options = try #require(NSPredicate(format: "name LIKE[cx] 'a'").parseError)
        #expect(options.localizedDescription.contains("character 10"))
        #expect(options.localizedDescription.contains("unknown comparison option 'x'"))

        let string = try #require(NSPredicate(format: "name == 'abc").parseError)
        #expect(string.localizedDescription.contains("character 8"))
        #expect(string.localizedDescription.contains("unterminated string"))

        let unicode = try #require(NSPredicate(format: "nai\u{308}ve == 1 )").parseError)
        #expect(unicode.localizedDescription.contains("character 11"), "offsets count characters")
    }

    @Test func validatingFormatThrowsTheParseErrorAndAcceptsValidStrings() throws {
        do {
            _ = try NSPredicate(validatingFormat: "a ==", argumentArray: nil)
            Issue.record("expected an error")
        } catch let error as NSError {
            #expect(error.code == 2048)
            #expect(error.domain == NSCocoaErrorDomain)
        }
        let predicate = try NSPredicate(validatingFormat: "a == %d", 1)
        #expect(predicate.evaluate(with: ["a": 1]))
    }

    @Test func missingArguments() throws {
        let error = try #require(NSPredicate(format: "a == %@ AND b == %@", 1).parseError)
        #expect(error.code == 2048)
        #expect(error.localizedDescription.contains("missing argument for %@"))
        #expect(error.localizedDescription.contains("character 17"))
        #expect(NSPredicate(format: "a == %d").parseError != nil)
        #expect(NSPredicate(format: "%K == 1").parseError != nil)
    }

    @Test func argumentsOfTheWrongType() throws {
        let keyPath = try #require(NSPredicate(format: "%K == 1", 3).parseError)
        #expect(keyPath.localizedDescription.contains("argument 1 does not fit %K"))
        #expect(NSPredicate(format: "%K == 1", "").parseError != nil)
        #expect(NSPredicate(format: "a == %d", "3").parseError != nil)
        #expect(NSPredicate(format: "a == %d", 2.5).parseError != nil)
        #expect(NSPredicate(format: "a == %f", "x").parseError != nil)
        #expect(NSPredicate(format: "a == %s", 3).parseError != nil)
        #expect(NSPredicate(format: "a == %@", NSPredicate(value: true)).parseError != nil)
        #expect(NSPredicate(format: "a == %@", NSExpression(format: "(")).parseError != nil)
    }

    @Test func invalidPredicatesPropagateThroughCompositionAndPrintFalse() {
        let invalid = NSPredicate(format: "a ==")
        #expect(invalid.predicateFormat == "FALSEPREDICATE")
        let compound = NSCompoundPredicate(notPredicateWithSubpredicate: invalid)
        #expect(compound.parseError?.code == 2048)
        #expect(!compound.evaluate(with: ["a": 1]), "a predicate with an error never matches, even negated")
        let comparison = NSComparisonPredicate(
            leftExpression: NSExpression(format: "a +"), rightExpression: NSExpression(forConstantValue: 1),
            modifier: .direct, type: .equalTo
        )
        #expect(comparison.parseError?.code == 2048)
        #expect(invalid != NSPredicate(value: false))
    }

    @Test func deepNestingIsAnErrorNotAStackOverflow() throws {
        let depth = 20_000
        let parentheses = String(repeating: "(", count: depth) + "a == 1" + String(repeating: ")", count: depth)
        let error = try #require(NSPredicate(format: parentheses).parseError)
        #expect(error.localizedDescription.contains("nests more than"))
        #expect(NSPredicate(format: String(repeating: "NOT ", count: depth) + "a == 1").parseError != nil)
        #expect(NSExpression(format: String(repeating: "{", count: depth)).parseError != nil)
        let allowed = String(repeating: "(", count: 40) + "a == 1" + String(repeating: ")", count: 40)
        #expect(NSPredicate(format: allowed).evaluate(with: ["a": 1]))
        let expression = String(repeating: "(", count: 40) + "a" + String(repeating: ")", count: 40) + " == 1"
        #expect(NSPredicate(format: expression).evaluate(with: ["a": 1]))
    }

    @Test func programmaticNestingBeyondTheLimitIsAnError() throws {
        var negated = NSPredicate(format: "a == 1")
        for _ in 0..<5_000 { negated = NSCompoundPredicate(notPredicateWithSubpredicate: negated) }
        let error = try #require(negated.parseError)
        #expect(error.domain == NSCocoaErrorDomain && error.code == 2048)
        #expect(error.localizedDescription.contains("nests more than"))
        #expect(!negated.evaluate(with: ["a": 1]))
        #expect(throws: NSError.self) { try negated.evaluate(with: ["a": 1], variables: [:]) }

        var aggregate = NSExpression(forConstantValue: 1)
        for _ in 0..<5_000 { aggregate = NSExpression(forAggregate: [aggregate]) }
        #expect(aggregate.parseError?.code == 2048)
        #expect(aggregate.expressionValue(with: nil, context: nil) == nil)

        var chain = NSPredicate(format: "a == 1")
        for value in 2..<900 { chain = NSCompoundPredicate(andPredicateWithSubpredicates: [chain, NSPredicate(format: "a != %d", value)]) }
        #expect(chain.parseError == nil)
        #expect(chain.evaluate(with: ["a": 1]))
    }

    @Test func invalidExpressions() {
        for format in ["", "a ==", "{1", "a.", "'x", "%@"] {
            let expression = NSExpression(format: format)
            #expect(expression.parseError?.code == 2048, "\(format)")
            #expect(expression.expressionValue(with: ["a": 1], context: nil) == nil)
        }
    }

    @Test func evaluationErrorsAreDistinguishable() {
        let predicate = NSPredicate(format: "a == 1")
        #expect(throws: NSError.self) { try NSPredicate(format: "a ==").evaluate(with: nil, variables: [:]) }
        #expect(throws: Never.self) { try predicate.evaluate(with: ["b": 2], variables: [:]) }
    }
}
