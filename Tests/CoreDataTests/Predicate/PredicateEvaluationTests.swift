import Testing
@testable import CoreData

/// In-memory evaluation (spec §4), mostly against dictionaries.
@Suite("Predicate evaluation")
struct PredicateEvaluationTests {
    private let alice: [String: Any] = [
        "name": "Alice", "age": 24, "height": 1.68, "isMember": true, "nickname": NSNull(),
        "tags": ["red", "green"], "scores": [3, 7, 9], "address": ["city": "Zürich", "zip": "8001"],
        "birthday": Date(timeIntervalSinceReferenceDate: 1000),
    ]

    private func matches(_ format: String, _ args: Any..., object: Any? = nil) -> Bool {
        NSPredicate(format: format, argumentArray: args).evaluate(with: object ?? alice)
    }

    // MARK: Equality and nil

    @Test func equalityOfNumbersAcrossTypes() {
        #expect(matches("age == 24"))
        #expect(matches("age == 24.0"))
        #expect(matches("age == %@", NSNumber(value: 24)))
        #expect(matches("age == %@", Int64(24)))
        #expect(matches("isMember == YES"))
        #expect(matches("isMember == 1"))
        #expect(matches("isMember == TRUE"))
        #expect(!matches("age == 25"))
        #expect(matches("height == 1.68"))
        #expect(!matches("age == '24'"), "a number never equals a string")
    }

    @Test func notANumberEqualsOnlyItselfAndOrdersFirst() {
        let nan: [String: Any] = ["x": Double.nan]
        #expect(!NSPredicate(format: "x == 5").evaluate(with: nan))
        #expect(NSPredicate(format: "x != 5").evaluate(with: nan))
        #expect(NSPredicate(format: "x < -1e300").evaluate(with: nan))
        #expect(NSPredicate(format: "x == %@", NSNumber(value: Double.nan)).evaluate(with: nan))
    }

    @Test func largeInListsAnswerAsSmallOnesDo() throws {
        let members: [Any] = Array(0..<20) + [NSNull(), "x", 2.5, ["nested"]]
        #expect(MembershipIndex(members) != nil)
        let inList = NSPredicate(format: "v IN %@", argumentArray: [members])
        let aggregate = NSPredicate(format: "v IN {" + (0..<20).map(String.init).joined(separator: ",") + ", nil, 'x', 2.5}")
        for value in [5, 5.0, true, 2.5, "x", NSNull(), 99, "y", "X", ["nested"], 2.5000001] as [Any] {
            let expected = members.contains { ValueComparison.isEqual($0, value) }
            #expect(inList.evaluate(with: ["v": value]) == expected, "\(value)")
            if !(value is [Any]) { #expect(aggregate.evaluate(with: ["v": value]) == expected, "\(value)") }
        }
        #expect(NSPredicate(format: "v IN[c] %@", argumentArray: [members]).evaluate(with: ["v": "X"]))
        #expect(NSPredicate(format: "ANY v IN %@", argumentArray: [members]).evaluate(with: ["v": [100, 3]]))
        #expect(!NSPredicate(format: "ALL v IN %@", argumentArray: [members]).evaluate(with: ["v": [100, 3]]))
    }

    @Test func equalityOfStringsIsExactWithoutOptions() {
        #expect(matches("name == 'Alice'"))
        #expect(!matches("name == 'alice'"))
        #expect(!matches("name == 'Ali*'"), "== has no wildcards")
        #expect(!NSPredicate(format: "SELF == %@", "e\u{301}").evaluate(with: "\u{e9}"), "isEqual: compares code units")
        #expect(NSPredicate(format: "SELF ==[cd] %@", "e\u{301}").evaluate(with: "\u{e9}"))
    }

    @Test func nilAndNullMatchOnlyEachOther() {
        #expect(matches("nickname == nil"))
        #expect(matches("missing == nil"), "a missing dictionary key reads as nil")
        #expect(matches("nickname == %@", NSNull()))
        #expect(!matches("name == nil"))
        #expect(matches("name != nil"))
        #expect(matches("missing != 'x'"), "nil != value is true in memory")
        #expect(!matches("missing == 'x'"))
        #expect(!matches("missing BEGINSWITH 'a'"))
        #expect(!matches("name CONTAINS nil"))
        #expect(!matches("missing < 3"))
        #expect(matches("missing <= nil"))
        #expect(!matches("missing < nil"))
    }

    @Test func datesCompareByInstant() {
        #expect(matches("birthday == %@", Date(timeIntervalSinceReferenceDate: 1000)))
        #expect(matches("birthday > %@", Date(timeIntervalSinceReferenceDate: 999)))
        #expect(!matches("birthday < %@", Date(timeIntervalSinceReferenceDate: 999)))
    }

    // MARK: Ordering

    @Test func orderingOfNumbersAndStrings() {
        #expect(matches("age > 20 AND age < 25 AND age >= 24 AND age <= 24"))
        #expect(matches("height > 1"))
        #expect(matches("30 > age"))
        #expect(matches("name < 'Bob'"))
        #expect(!matches("name < 'Aardvark'"))
        #expect(matches("name < 'alicf'"), "'A' sorts before 'a' with compare:")
        #expect(!matches("name < 'ALICF'"))
        #expect(matches("name <[c] 'ALICF'"))
    }

    @Test func incomparableValuesDoNotMatchAndThrowInternally() {
        #expect(!matches("name > 3"))
        #expect(throws: PredicateEvaluationError.self) {
            try NSPredicate(format: "name > 3").evaluate(with: alice, variables: [:])
        }
    }

    // MARK: String operators

    @Test func beginsEndsContains() {
        #expect(matches("name BEGINSWITH 'Al'"))
        #expect(!matches("name BEGINSWITH 'al'"))
        #expect(matches("name BEGINSWITH[c] 'al'"))
        #expect(matches("name ENDSWITH 'ice'"))
        #expect(matches("name ENDSWITH[c] 'ICE'"))
        #expect(matches("name CONTAINS 'lic'"))
        #expect(matches("name CONTAINS[cd] 'LÍ'"))
        #expect(!matches("name CONTAINS 'Alice and Bob'"))
        #expect(matches("address.city BEGINSWITH[d] 'Zur'"))
        #expect(!matches("address.city BEGINSWITH 'Zur'"))
    }

    @Test("An empty needle never matches", arguments: [
        "name CONTAINS ''", "name BEGINSWITH ''", "name ENDSWITH[cd] ''", "'' IN name",
    ])
    func emptyNeedle(format: String) {
        #expect(!matches(format))
    }

    @Test func like() {
        #expect(NSPredicate(format: "SELF LIKE 'hel*o'").evaluate(with: "helllo"))
        #expect(!NSPredicate(format: "SELF LIKE 'hel*o'").evaluate(with: "heo"))
        #expect(!NSPredicate(format: "SELF LIKE 'hel?o'").evaluate(with: "helllo"))
        #expect(NSPredicate(format: "SELF LIKE 'hel?o'").evaluate(with: "hello"))
        #expect(NSPredicate(format: "SELF LIKE 'test*.foo'").evaluate(with: "test.foo"))
        #expect(!NSPredicate(format: "SELF LIKE 'test*.foo'").evaluate(with: "testxfoo"), ". is literal")
        #expect(NSPredicate(format: "SELF LIKE '*'").evaluate(with: ""))
        #expect(!NSPredicate(format: "SELF LIKE 'ab'").evaluate(with: "abc"), "LIKE covers the whole string")
        #expect(NSPredicate(format: "SELF LIKE[c] 'NEXT'").evaluate(with: "NeXT"))
        #expect(NSPredicate(format: "SELF LIKE[d] 'naive'").evaluate(with: "naïve"))
        #expect(!matches("missing LIKE '*'"))
    }

    @Test func matchesIsAWholeStringRegularExpression() {
        #expect(NSPredicate(format: "SELF MATCHES '.*[e-f][l-m].*'").evaluate(with: "Hello"))
        #expect(!NSPredicate(format: "SELF MATCHES 'ell'").evaluate(with: "Hello"))
        #expect(NSPredicate(format: "SELF MATCHES 'a|ab'").evaluate(with: "ab"))
        #expect(NSPredicate(format: "SELF MATCHES %@", "\\d{3}").evaluate(with: "123"))
        #expect(NSPredicate(format: "SELF MATCHES '\\\\d{3}'").evaluate(with: "123"))
        #expect(!NSPredicate(format: "SELF MATCHES %@", "\\d{3}").evaluate(with: "123\n"))
        #expect(NSPredicate(format: "SELF MATCHES[c] 'HEL+O'").evaluate(with: "hello"))
        #expect(NSPredicate(format: #"SELF MATCHES[d] "([Á-B])\\w+""#).evaluate(with: "Alice"))
    }

    @Test("An invalid regular expression matches nothing", arguments: ["(", "a)(b", "[z-a]", "*"])
    func invalidRegularExpression(pattern: String) {
        #expect(!NSPredicate(format: "SELF MATCHES %@", pattern).evaluate(with: "a)(b"))
    }

    @Test func stringOperatorsRefuseNonStrings() {
        #expect(!matches("age BEGINSWITH '2'"))
        #expect(throws: PredicateEvaluationError.self) {
            try NSPredicate(format: "age BEGINSWITH '2'").evaluate(with: alice, variables: [:])
        }
    }

    // MARK: Collections

    @Test func inAndContains() {
        #expect(matches("age IN {23, 24}"))
        #expect(!matches("age IN {}"))
        #expect(matches("name IN %@", ["Bob", "Alice"]))
        #expect(matches("name IN %@", Set(["Alice"])))
        #expect(matches("name IN %@", NSOrderedSet(array: ["Alice"])))
        #expect(matches("name IN %@", ["x": "Alice"]), "a dictionary's values are searched")
        #expect(matches("name IN[c] {'ALICE'}"))
        #expect(matches("'lic' IN name"), "IN with a string on the right is a substring test")
        #expect(matches("tags CONTAINS 'red'"))
        #expect(!matches("tags CONTAINS 're'"))
        #expect(matches("scores CONTAINS 7"))
        #expect(matches("24 IN %@", NSArray(array: [24])))
    }

    @Test func between() {
        #expect(matches("age BETWEEN {24, 30}"), "inclusive at the lower end")
        #expect(matches("age BETWEEN {20, 24}"), "inclusive at the upper end")
        #expect(!matches("age BETWEEN {25, 30}"))
        #expect(matches("age BETWEEN %@", [1, 99]))
        #expect(matches("name BETWEEN {'A', 'B'}"))
        #expect(matches("birthday BETWEEN %@", [Date(timeIntervalSinceReferenceDate: 0), Date(timeIntervalSinceReferenceDate: 2000)]))
        #expect(!matches("age BETWEEN {1}"))
        #expect(!matches("missing BETWEEN {1, 2}"))
    }

    @Test func quantifiers() {
        #expect(matches("ANY scores > 8"))
        #expect(!matches("ANY scores > 9"))
        #expect(matches("ALL scores > 2"))
        #expect(!matches("ALL scores > 3"))
        #expect(matches("NONE scores > 9"))
        #expect(!matches("NONE scores > 8"))
        #expect(matches("SOME tags BEGINSWITH 'gr'"))
        #expect(matches("ALL tags IN {'red', 'green', 'blue'}"))
    }

    @Test func quantifiersOverEmptyCollections() {
        let empty: [String: Any] = ["items": [Int]()]
        #expect(!matches("ANY items == 1", object: empty))
        #expect(matches("ALL items == 1", object: empty))
        #expect(matches("NONE items == 1", object: empty))
        #expect(!matches("ANY missing == 1", object: empty))
        #expect(!matches("ANY name == 'Alice'"), "ANY needs a collection")
    }

    @Test func quantifiersOverKeyPathsThroughCollections() {
        let team: [String: Any] = ["members": [["name": "Ann", "age": 30], ["name": "Ben", "age": 40]]]
        #expect(matches("ANY members.name == 'Ben'", object: team))
        #expect(matches("ALL members.age >= 30", object: team))
        #expect(matches("members.@count == 2", object: team))
        #expect(matches("members.@sum.age == 70", object: team))
        #expect(matches("members.@avg.age == 35", object: team))
        #expect(matches("members.@max.age == 40 AND members.@min.age == 30", object: team))
    }

    // MARK: Compound predicates

    @Test func compoundLogic() {
        #expect(matches("name == 'Alice' AND age == 24"))
        #expect(!matches("name == 'Alice' AND age == 25"))
        #expect(matches("name == 'Bob' OR age == 24"))
        #expect(!matches("NOT name == 'Alice'"))
        #expect(matches("NOT (name == 'Bob' OR age == 25)"))
        #expect(NSCompoundPredicate(andPredicateWithSubpredicates: []).evaluate(with: alice))
        #expect(!NSCompoundPredicate(orPredicateWithSubpredicates: []).evaluate(with: alice))
        #expect(matches("TRUEPREDICATE"))
        #expect(!matches("FALSEPREDICATE"))
    }

    @Test func evaluationShortCircuits() {
        #expect(matches("name == 'Alice' OR name > 3"), "the second operand would throw")
        #expect(!matches("name == 'Bob' AND name > 3"))
    }

    // MARK: Variables and SELF

    @Test func variables() {
        let predicate = NSPredicate(format: "age > $minimum AND name == $name")
        #expect(predicate.evaluate(with: alice, substitutionVariables: ["minimum": 20, "name": "Alice"]))
        #expect(!predicate.evaluate(with: alice, substitutionVariables: ["minimum": 30, "name": "Alice"]))
        #expect(!predicate.evaluate(with: alice), "an unbound variable does not match")
        #expect(throws: PredicateEvaluationError.missingVariable("minimum")) {
            try predicate.evaluate(with: alice, variables: [:])
        }
        #expect(NSPredicate(format: "nickname == $n").evaluate(with: alice, substitutionVariables: ["n": NSNull()]))
    }

    @Test func selfIsTheEvaluatedObject() {
        #expect(NSPredicate(format: "SELF == 3").evaluate(with: 3))
        #expect(NSPredicate(format: "SELF IN {1, 2, 3}").evaluate(with: 2))
        #expect(NSPredicate(format: "SELF.length == 5").evaluate(with: "Alice"))
        #expect(NSPredicate(format: "SELF == nil").evaluate(with: nil))
        #expect(matches("SELF.name == 'Alice'"))
    }

    @Test func optionalsInsideAnyAreUnwrapped() {
        let present: Int? = 24
        let absent: Int? = nil
        let object: [String: Any] = ["present": present as Any, "absent": absent as Any]
        #expect(matches("present == 24", object: object))
        #expect(matches("absent == nil", object: object))
        #expect(matches("SELF == 24", object: present as Any))
    }

    @Test func unknownKeysOnObjectsDoNotMatchAndThrowInternally() {
        struct Point { let x: Int }
        #expect(NSPredicate(format: "x == 1").evaluate(with: Point(x: 1)))
        #expect(!NSPredicate(format: "y == 1").evaluate(with: Point(x: 1)))
        #expect(throws: PredicateEvaluationError.unknownKey("y", typeName: "Point")) {
            try NSPredicate(format: "y == 1").evaluate(with: Point(x: 1), variables: [:])
        }
    }

    @Test func expressionValues() {
        #expect(NSExpression(format: "address.city").expressionValue(with: alice, context: nil) as? String == "Zürich")
        #expect(NSExpression(format: "scores.@count").expressionValue(with: alice, context: nil) as? Int == 3)
        #expect(NSExpression(format: "$v").expressionValue(with: nil, context: NSMutableDictionary(dictionary: ["v": 5])) as? Int == 5)
        #expect((NSExpression(format: "{1, name}").expressionValue(with: alice, context: nil) as? [Any])?.count == 2)
        #expect(NSExpression(format: "nope(").expressionValue(with: alice, context: nil) == nil)
    }

    @Test func filteringAnArrayOfDictionaries() {
        let people: [[String: Any]] = [
            ["name": "Alice", "age": 24], ["name": "Bob", "age": 27], ["name": "Charlie", "age": 33], ["name": "Quentin", "age": 31],
        ]
        let predicate = NSPredicate(format: "age BETWEEN {24, 31} AND NOT name BEGINSWITH[c] 'q'")
        #expect(people.filter { predicate.evaluate(with: $0) }.compactMap { $0["name"] as? String } == ["Alice", "Bob"])
    }
}
