import Testing
@testable import CoreData

/// The canonical `predicateFormat` text (spec §5).
@Suite("Predicate printing")
struct PredicateFormatTests {
    @Test("Canonical text of parsed predicates", arguments: [
        ("age = 24", "age == 24"),
        ("age <> 24", "age != 24"),
        ("age =< 24", "age <= 24"),
        ("age => 24", "age >= 24"),
        ("lastName like 'Smith'", #"lastName LIKE "Smith""#),
        ("firstName like[c] 'adam'", #"firstName LIKE[c] "adam""#),
        ("firstName beginswith[cd] 'bó'", #"firstName BEGINSWITH[cd] "bó""#),
        ("name CONTAINS[dc] 'x'", #"name CONTAINS[cd] "x""#),
        ("b ==[l] 'ABC'", #"b ==[l] "ABC""#),
        ("b <[cdnl] 'ABC'", #"b <[cdnl] "ABC""#),
        ("isMale == YES", "isMale == 1"),
        ("isMale == no", "isMale == 0"),
        ("name == nil", "name == nil"),
        ("name == NULL", "name == nil"),
        ("height > 1.5", "height > 1.5"),
        ("height > 2.0", "height > 2"),
        ("height > -7", "height > -7"),
        ("age BETWEEN {24, 31}", "age BETWEEN {24, 31}"),
        ("firstName IN {'Bob', 'Alice'}", #"firstName IN {"Bob", "Alice"}"#),
        ("age IN {}", "age IN {}"),
        ("a.@count == 3", "a.@count == 3"),
        ("a.firstName.length == 3", "a.firstName.length == 3"),
        ("SELF == 'a'", #"SELF == "a""#),
        ("SELF.name == 'a'", #"SELF.name == "a""#),
        ("name == $name", "name == $name"),
        ("#size == 1", "#size == 1"),
        ("ANY age == 21", "ANY age == 21"),
        ("SOME age == 21", "ANY age == 21"),
        ("ALL age == 21", "ALL age == 21"),
        ("NONE age == 21", "NOT ANY age == 21"),
        ("TRUEPREDICATE", "TRUEPREDICATE"),
        ("falsepredicate", "FALSEPREDICATE"),
        ("NOT age == 24", "NOT age == 24"),
        ("NOT extraInt BETWEEN {1, 3}", "NOT extraInt BETWEEN {1, 3}"),
        ("NOT text CONTAINS[cd] 'test'", #"NOT text CONTAINS[cd] "test""#),
        ("!(a == 1 && b == 2)", "NOT (a == 1 AND b == 2)"),
        ("a == 1 || b == 2", "a == 1 OR b == 2"),
        ("name == 'Foo' AND (age < 13 OR age > 18)", #"name == "Foo" AND (age < 13 OR age > 18)"#),
        (
            "(requiredString == 'a' OR requiredString == 'b') AND (extraInt == 1 OR extraInt == 999)",
            #"(requiredString == "a" OR requiredString == "b") AND (extraInt == 1 OR extraInt == 999)"#
        ),
        (
            "(NOT lastName == 'Smith' OR firstName == 'Charlie') AND age > 30",
            #"((NOT lastName == "Smith") OR firstName == "Charlie") AND age > 30"#
        ),
        (#"firstName MATCHES '([A-B])\\w+'"#, #"firstName MATCHES "([A-B])\\w+""#),
        (#"s == 'say "hi"'"#, #"s == "say \"hi\"""#),
    ])
    func canonicalText(format: String, expected: String) {
        let predicate = NSPredicate(format: format)
        #expect(predicate.parseError == nil)
        #expect(predicate.predicateFormat == expected)
        #expect(predicate.description == expected)
    }

    @Test("The canonical text parses back to an equal predicate", arguments: [
        "age == 24 AND (name BEGINSWITH[cd] 'a' OR NOT tags CONTAINS 'x')",
        #"s == 'quote " and backslash \\ and \' single'"#,
        "ALL scores BETWEEN {1, 9} OR NONE items.@count > 3",
        "#first == 1 AND a.#size.#self == 2",
        "SELF.a IN {1, 2.5, 'x', nil} AND $v == -3",
    ])
    func roundTrip(format: String) throws {
        let predicate = NSPredicate(format: format)
        #expect(predicate.parseError == nil)
        let reparsed = try NSPredicate(validatingFormat: predicate.predicateFormat)
        #expect(reparsed == predicate)
        #expect(reparsed.predicateFormat == predicate.predicateFormat)
    }

    @Test func arguments() {
        #expect(NSPredicate(format: "%K LIKE %@", "firstName", "Adam").predicateFormat == #"firstName LIKE "Adam""#)
        #expect(NSPredicate(format: "%@ LIKE %@", "firstName", "Adam").predicateFormat == #""firstName" LIKE "Adam""#)
        #expect(NSPredicate(format: "'%K' LIKE '%@'").predicateFormat == #""%K" LIKE "%@""#)
        #expect(NSPredicate(format: "age IN %@", [24, 33]).predicateFormat == "age IN {24, 33}")
        #expect(NSPredicate(format: "name IN %@", ["Bob", "Alice"]).predicateFormat == #"name IN {"Bob", "Alice"}"#)
        #expect(NSPredicate(format: "a == %@", NSNull()).predicateFormat == "a == <null>")
        #expect(NSPredicate(format: "a == %@", nil as Any? as Any).predicateFormat == "a == nil")
        #expect(NSPredicate(format: "a == %d", 24).predicateFormat == "a == 24")
        #expect(NSPredicate(format: "a == %f", 40.5).predicateFormat == "a == 40.5")
        #expect(NSPredicate(format: "a == %@", true).predicateFormat == "a == 1")
    }

    @Test func datesPrintAsCasts() {
        let date = Date(timeIntervalSinceReferenceDate: 453_945_600.5)
        #expect(NSPredicate(format: "birthday == %@", date).predicateFormat == #"birthday == CAST(453945600.500000, "NSDate")"#)
        let dates = [Date(timeIntervalSinceReferenceDate: 0)]
        #expect(NSPredicate(format: "birthday IN %@", dates).predicateFormat == "birthday IN {\(dates[0])}")
    }

    @Test func programmaticPredicates() {
        let a = NSPredicate(format: "a == 1")
        let b = NSPredicate(format: "b == 2")
        #expect(NSCompoundPredicate(andPredicateWithSubpredicates: [a, b]).predicateFormat == "a == 1 AND b == 2")
        let nested = NSCompoundPredicate(andPredicateWithSubpredicates: [
            NSCompoundPredicate(andPredicateWithSubpredicates: [a, b]), NSCompoundPredicate(orPredicateWithSubpredicates: [a, b]),
        ])
        #expect(nested.predicateFormat == "(a == 1 AND b == 2) AND (a == 1 OR b == 2)")
        #expect(NSCompoundPredicate(notPredicateWithSubpredicate: NSCompoundPredicate(orPredicateWithSubpredicates: [a, b])).predicateFormat
            == "NOT (a == 1 OR b == 2)")
        #expect(NSCompoundPredicate(andPredicateWithSubpredicates: []).predicateFormat == "TRUEPREDICATE")
        #expect(NSCompoundPredicate(orPredicateWithSubpredicates: []).predicateFormat == "FALSEPREDICATE")
        #expect(NSPredicate(value: false).predicateFormat == "FALSEPREDICATE")
        let comparison = NSComparisonPredicate(
            leftExpression: NSExpression(forKeyPath: "tags"), rightExpression: NSExpression(forConstantValue: "x"),
            modifier: .all, type: .contains, options: [.diacriticInsensitive, .caseInsensitive]
        )
        #expect(comparison.predicateFormat == #"ALL tags CONTAINS[cd] "x""#)
    }

    @Test func expressionDescriptions() {
        #expect(NSExpression(forKeyPath: "a.b").description == "a.b")
        #expect(NSExpression(forConstantValue: "x").description == #""x""#)
        #expect(NSExpression(forConstantValue: nil).description == "nil")
        #expect(NSExpression(forVariable: "v").description == "$v")
        #expect(NSExpression.expressionForEvaluatedObject().description == "SELF")
        #expect(NSExpression(forAggregate: [NSExpression(forConstantValue: 1), NSExpression(forKeyPath: "a")]).description == "{1, a}")
    }

    @Test("Numbers print as NSNumber describes them on Apple platforms", arguments: [
        (0.1, "0.1"), (2.0, "2"), (-0.5, "-0.5"), (1e20, "1e+20"), (123456789012.0, "123456789012"), (1e-5, "1e-05"),
    ])
    func numbers(value: Double, expected: String) {
        #expect(ConstantFormatter.format(NSNumber(value: value)) == expected)
    }
}
