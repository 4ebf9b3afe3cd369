@testable import CoreData
import Testing

/// The evaluation half of the conformance table: `evaluate(with:)` over dictionaries (Swift and
/// `NSDictionary`), arrays, sets and plain Swift values. Expectations come from the sources cited
/// per group, never from running this code.
@Suite("Conformance: evaluation")
struct EvaluationConformanceTests {
    typealias Case = EvaluationCase

    /// A person as a Swift dictionary; `ns` is the same as an `NSDictionary`.
    static var person: [String: Any] { [
        "name": "Ripley", "nick": NSNull(), "age": 30, "height": 1.75, "member": true, "text": "Hello",
        "city": "Zürich", "tags": ["alien", "nostromo"], "scores": [3, 7, 9], "empty": [Int](),
        "emptySet": Set<Int>(), "born": Date(timeIntervalSinceReferenceDate: 0),
        "ship": ["name": "Nostromo", "crew": 7],
        "crew": [["name": "Ash", "age": 40], ["name": "Dallas", "age": 45], ["name": "Kane", "age": 35]],
    ] }
    static var ns: NSDictionary { NSDictionary(dictionary: person) }
    static var p: [String: Any] { person }

    /// Numbers are equal and ordered numerically across integer, double and Boolean types
    /// (`NSComparisonPredicate.Operator` header: `isEqual:`, `compare:` [A]; spec §4.3 [V dd]);
    /// a number never equals a string (spec §4.3).
    static let numbers: [Case] = [
        Case("age == 30", on: p, true),
        Case("age = 30", on: p, true),
        Case("age == 30.0", on: p, true),
        Case("age == 31", on: p, false),
        Case("age != 31", on: p, true),
        Case("age <> 30", on: p, false),
        Case("age > 29", on: p, true),
        Case("age >= 30", on: p, true),
        Case("age < 30.5", on: p, true),
        Case("age <= 29", on: p, false),
        Case("31 > age", on: p, true),
        Case("height == 1.75", on: p, true),
        Case("height > 1", on: p, true),
        Case("age == '30'", on: p, false),
        Case("age == %d", [30], on: p, true),
        Case("age == %i", [30], on: p, true),
        Case("age == %ld", [30], on: p, true),
        Case("height == %f", [1.75], on: p, true),
        Case("age == %@", [NSNumber(value: 30)], on: p, true),
        Case("age == %@", [30.0], on: p, true),
        Case("age == 0x1E", on: p, true),
        Case("age == 0o36", on: p, true),
        Case("age == 0b11110", on: p, true),
        Case("age == 3e1", on: p, true),
        Case("age BETWEEN {30, 40}", on: p, true),
        Case("age BETWEEN {31, 40}", on: p, false),
        Case("age BETWEEN %@", [[20, 30]], on: p, true),
        Case("1 BETWEEN { 0 , 33 }", on: p, true),
        Case("NOT age BETWEEN {1, 3}", on: p, true),
    ]

    /// Booleans are the numbers 1 and 0 (spec §1.6 [V dd]).
    static let booleans: [Case] = [
        Case("member == YES", on: p, true),
        Case("member == yes", on: p, true),
        Case("member == TRUE", on: p, true),
        Case("member == 1", on: p, true),
        Case("member == NO", on: p, false),
        Case("member == %@", [true], on: p, true),
        Case("SELF == YES", on: true, true),
        Case("SELF == 1", on: true, true),
        Case("SELF == FALSE", on: false, true),
    ]

    /// nil and NSNull match only each other (Using Predicates, "Using Null Values" [A]); `!=`
    /// with nil is true in memory (Douglas Hill [V]).
    static let nils: [Case] = [
        Case("nick == nil", on: p, true),
        Case("nick == NULL", on: p, true),
        Case("nick == NIL", on: p, true),
        Case("missing == nil", on: p, true),
        Case("nick == %@", [NSNull()], on: p, true),
        Case("name == nil", on: p, false),
        Case("name != nil", on: p, true),
        Case("missing != 'x'", on: p, true),
        Case("missing == 'x'", on: p, false),
        Case("missing BEGINSWITH 'a'", on: p, false),
        Case("name CONTAINS nil", on: p, false),
        Case("nil == nil", on: p, true),
        Case("SELF == nil", on: nil, true),
        Case("SELF != nil", on: nil, false),
        Case("ship.missing == nil", on: p, true),
    ]

    /// Without options strings are equal when `isEqual:` says so, `==` has no wildcards, and
    /// order is `compare:` (spec §4.3–§4.5 [V dd]).
    static let plainStrings: [Case] = [
        Case("name == 'Ripley'", on: p, true),
        Case("name == \"Ripley\"", on: p, true),
        Case("name == 'ripley'", on: p, false),
        Case("name == %@", ["Ripley"], on: p, true),
        Case("%K == %@", ["name", "Ripley"], on: p, true),
        Case("name == 'Rip*'", on: p, false),
        Case("'Ri*' == 'Ri*'", on: p, true),
        Case("name < 'S'", on: p, true),
        Case("name > 'Ripley'", on: p, false),
        Case("name >= 'Ripley'", on: p, true),
        Case("name BETWEEN {'A', 'S'}", on: p, true),
        Case("name.length == 6", on: p, true),
        Case("SELF == %@", ["e\u{301}"], on: "\u{e9}", false),
        Case("lastName LIKE '%@'", on: ["lastName": "%@"], true),
    ]

    /// `[c]` full case folding, `[d]` drops marks on Latin/Greek/Cyrillic letters only, both
    /// compare canonically equivalent strings as equal, `[n]` supersedes them (spec §4.7 [CF];
    /// `Bó` prefix of `Bob` [V Preacher]; `NSComparisonPredicate.Options.normalized` [A]).
    static let stringOptions: [Case] = [
        Case("name ==[c] 'ripley'", on: p, true),
        Case("name ==[c] 'RIPLEY'", on: p, true),
        Case("city == 'Zurich'", on: p, false),
        Case("city ==[d] 'Zurich'", on: p, true),
        Case("city ==[c] 'zürich'", on: p, true),
        Case("city ==[cd] 'zurich'", on: p, true),
        Case("city BEGINSWITH[d] 'Zu'", on: p, true),
        Case("SELF BEGINSWITH[d] 'Bó'", on: "Bob", true),
        Case("SELF ==[c] 'STRASSE'", on: "Straße", true),
        Case("SELF ==[c] %@", ["\u{3C3}\u{3AF}\u{3C3}\u{3C5}\u{3C6}\u{3BF}\u{3C2}"], on: "\u{3A3}\u{38A}\u{3A3}\u{3A5}\u{3A6}\u{39F}\u{3A3}", true),
        Case("SELF ==[d] %@", ["ü"], on: "û", true),
        Case("SELF ==[d] %@", ["\u{5E9}"], on: "\u{5E9}\u{5B8}", false),
        Case("SELF ==[c] %@", ["e\u{301}"], on: "\u{e9}", true),
        Case("SELF ==[d] %@", ["e\u{301}"], on: "\u{e9}", true),
        Case("SELF ==[n] 'a'", on: "a", true),
        Case("SELF ==[cn] 'a'", on: "A", false),
        Case("SELF ==[dn] 'e'", on: "é", false),
        Case("SELF !=[c] 'A'", on: "a", false),
    ]

    /// BEGINSWITH, ENDSWITH, CONTAINS; empty needles never match (rdar://20626872 [V]); `IN`
    /// with a string on the right is a substring test (`Operator.in` [A]).
    static let substrings: [Case] = [
        Case("text BEGINSWITH 'He'", on: p, true),
        Case("text BEGINSWITH 'he'", on: p, false),
        Case("text BEGINSWITH[c] 'he'", on: p, true),
        Case("text ENDSWITH 'llo'", on: p, true),
        Case("text ENDSWITH[c] 'LLO'", on: p, true),
        Case("text CONTAINS 'ell'", on: p, true),
        Case("text CONTAINS 'L'", on: p, false),
        Case("text CONTAINS[c] 'L'", on: p, true),
        Case("text CONTAINS ''", on: p, false),
        Case("text BEGINSWITH ''", on: p, false),
        Case("text ENDSWITH[cd] ''", on: p, false),
        Case("text BEGINSWITH 'Hello!'", on: p, false),
        Case("'abc' CONTAINS ''", on: p, false),
        Case("'BBB' IN 'AABBBAA'", on: p, true),
        Case("'bbb' IN 'AABBBAA'", on: p, false),
        Case("text IN 'Hello World'", on: p, true),
        Case("SELF CONTAINS[cd] 'URI'", on: "Zürich", true),
    ]

    /// LIKE: `*` zero or more characters, `?` exactly one, all else literal, whole string
    /// (Predicate Format String Syntax [A]; `hel*o`, `hel?o` [V dd]; `test*.foo` [V]).
    static let like: [Case] = [
        Case("SELF LIKE 'hel*o'", on: "helllo", true),
        Case("SELF LIKE 'hel*o'", on: "heo", false),
        Case("SELF LIKE 'hel?o'", on: "helllo", false),
        Case("SELF LIKE 'hel?o'", on: "hello", true),
        Case("SELF LIKE 'test*.foo'", on: "test.foo", true),
        Case("SELF LIKE 'test.foo'", on: "testxfoo", false),
        Case("SELF LIKE '*'", on: "", true),
        Case("SELF LIKE 'ABC'", on: "abc", false),
        Case("SELF LIKE[c] 'ABC'", on: "abc", true),
        Case("SELF LIKE[cd] 'cafe'", on: "Café", true),
        Case("name LIKE 'Rip*'", on: p, true),
        Case("name LIKE 'R?pley'", on: p, true),
        Case("name LIKE 'Rip'", on: p, false),
        Case("name LIKE %@", ["*ey"], on: p, true),
    ]

    /// MATCHES: an ICU regular expression over the whole string; backslashes in the format are
    /// escapes (Using Predicates, "Using Regular Expressions" [A]; spec §4.5 [V Preacher]).
    static let matches: [Case] = [
        Case("SELF MATCHES '.*[e-f][l-m].*'", on: "Hello", true),
        Case("text MATCHES 'ell'", on: p, false),
        Case("text MATCHES 'H.*o'", on: p, true),
        Case("text MATCHES 'hello'", on: p, false),
        Case("text MATCHES[c] 'hello'", on: p, true),
        Case(#"SELF MATCHES '\\d{10}|\\d{9}[Xx]'"#, on: "123456789X", true),
        Case(#"SELF MATCHES '\\d{10}|\\d{9}[Xx]'"#, on: "12345", false),
        Case(#"SELF MATCHES[d] '([Á-B])\\w+'"#, on: "Alice", true),
        Case("SELF MATCHES '.*(CAT){3,}(?!CA).*'", on: "xCATCATCATy", true),
        Case("SELF MATCHES '.*(CAT){3,}(?!CA).*'", on: "CATCAT", false),
        Case("SELF MATCHES %@", ["[a-c]+"], on: "abcab", true),
    ]

    /// Membership in arrays, sets and dictionaries (whose values count), empty collections
    /// (`Operator.in`, `.contains` [A]; spec §4.6).
    static let membership: [Case] = [
        Case("'alien' IN tags", on: p, true),
        Case("'x' IN tags", on: p, false),
        Case("tags CONTAINS 'alien'", on: p, true),
        Case("3 IN scores", on: p, true),
        Case("age IN {29, 30}", on: p, true),
        Case("age IN %@", [[1, 2]], on: p, false),
        Case("age IN %@", [Set([30])], on: p, true),
        Case("age IN %@", [["a": 30]], on: p, true),
        Case("age IN %@", [NSOrderedSet(array: [30, 31])], on: p, true),
        Case("age IN {}", on: p, false),
        Case("age IN empty", on: p, false),
        Case("name IN {'Ash', 'Ripley'}", on: p, true),
        Case("crew.name CONTAINS 'Kane'", on: p, true),
    ]

    /// Quantifiers: ANY/SOME some element, ALL every element (true when empty, rdar://16299844
    /// [V]), NONE no element (true when empty [A]).
    static let quantifiers: [Case] = [
        Case("ANY scores > 8", on: p, true),
        Case("ANY scores > 9", on: p, false),
        Case("SOME scores == 7", on: p, true),
        Case("ALL scores > 2", on: p, true),
        Case("ALL scores > 3", on: p, false),
        Case("NONE scores > 9", on: p, true),
        Case("NONE scores > 8", on: p, false),
        Case("ANY empty == 1", on: p, false),
        Case("ALL empty == 1", on: p, true),
        Case("NONE empty == 1", on: p, true),
        Case("ALL emptySet > 0", on: p, true),
        Case("ANY tags BEGINSWITH 'nos'", on: p, true),
        Case("ALL tags CONTAINS 'o'", on: p, false),
        Case("ANY scores IN {9, 10}", on: p, true),
        Case("ALL scores IN {3, 7, 9}", on: p, true),
        Case("ANY scores BETWEEN {4, 6}", on: p, false),
        Case("ANY crew.age > 44", on: p, true),
        Case("ALL crew.age >= 35", on: p, true),
        Case("ANY crew.name == 'Kane'", on: p, true),
        Case("NOT (ANY scores > 9)", on: p, true),
    ]

    /// Key paths into nested dictionaries and the collection operators of key-value coding
    /// (Key-Value Coding Programming Guide, "Using Collection Operators" [A]; `a.@count` [V dd]).
    static let keyPaths: [Case] = [
        Case("ship.name == 'Nostromo'", on: p, true),
        Case("ship.crew == 7", on: p, true),
        Case("scores.@count == 3", on: p, true),
        Case("tags.@count == 2", on: p, true),
        Case("empty.@count == 0", on: p, true),
        Case("scores.@sum == 19", on: p, true),
        Case("scores.@avg > 6.33", on: p, true),
        Case("scores.@avg < 6.34", on: p, true),
        Case("scores.@min == 3", on: p, true),
        Case("scores.@max == 9", on: p, true),
        Case("crew.@avg.age == 40", on: p, true),
        Case("crew.@max.age == 45", on: p, true),
        Case("crew.@min.age == 35", on: p, true),
        Case("crew.@sum.age == 120", on: p, true),
        Case("crew.@count == 3", on: p, true),
        Case("ship.name == 'Nostromo'", on: ns, true),
        Case("name == 'Ripley' AND age == 30", on: ns, true),
        Case("nick == nil", on: ns, true),
        Case("missing == nil", on: ns, true),
        Case("scores.@sum == 19", on: ns, true),
        Case("ANY crew.age > 44", on: ns, true),
        Case("a == 1", on: NSDictionary(dictionary: ["a": 1]), true),
        Case("a.b.c == 'deep'", on: ["a": ["b": ["c": "deep"]]], true),
    ]

    /// Arrays, sets, ordered sets, strings, numbers and dates as the evaluated object (SELF) [A].
    static let selfValues: [Case] = [
        Case("SELF.@count == 3", on: [1, 2, 3], true),
        Case("ANY SELF == 2", on: [1, 2, 3], true),
        Case("ALL SELF > 0", on: [1, 2, 3], true),
        Case("SELF CONTAINS 2", on: [1, 2, 3], true),
        Case("2 IN SELF", on: [1, 2, 3], true),
        Case("SELF.@sum == 6", on: [1, 2, 3], true),
        Case("SELF.@max == 3", on: [1, 2, 3], true),
        Case("SELF[1] == 2", on: [1, 2, 3], true),
        Case("SELF.@count == 3", on: Set([1, 2, 3]), true),
        Case("2 IN SELF", on: Set([1, 2, 3]), true),
        Case("ALL SELF < 4", on: Set([1, 2, 3]), true),
        Case("SELF.@count == 2", on: NSSet(array: [1, 2]), true),
        Case("SELF CONTAINS 'b'", on: NSOrderedSet(array: ["a", "b"]), true),
        Case("SELF BEGINSWITH 'ab'", on: "abc", true),
        Case("SELF.length == 3", on: "abc", true),
        Case("SELF == 'abc'", on: "abc", true),
        Case("SELF == 3", on: 3, true),
        Case("SELF > 2", on: 3, true),
        Case("SELF BETWEEN {1, 5}", on: 3, true),
        Case("SELF == 1.5", on: 1.5, true),
        Case("SELF == 1", on: NSNumber(value: 1.0), true),
        Case("SELF > %@", [Date(timeIntervalSinceReferenceDate: -1)], on: Date(timeIntervalSinceReferenceDate: 0), true),
        Case("SELF == CAST(0, 'NSDate')", on: Date(timeIntervalSinceReferenceDate: 0), true),
    ]

    /// Dates compare by instant (spec §4.3–§4.4; `CAST(n, 'NSDate')` [V maplibre]).
    static let dates: [Case] = [
        Case("born == %@", [Date(timeIntervalSinceReferenceDate: 0)], on: p, true),
        Case("born < %@", [Date(timeIntervalSinceReferenceDate: 1)], on: p, true),
        Case("born > %@", [Date(timeIntervalSinceReferenceDate: -1)], on: p, true),
        Case("born == CAST(0, 'NSDate')", on: p, true),
        Case("born BETWEEN %@", [[Date(timeIntervalSinceReferenceDate: -1), Date(timeIntervalSinceReferenceDate: 1)]], on: p, true),
        Case("born < now()", on: p, true),
        Case("born == %@", [Date(timeIntervalSinceReferenceDate: 0.5)], on: p, false),
    ]

    /// Compound predicates; empty AND is true and empty OR false (`NSCompoundPredicate` [A]).
    static let compounds: [Case] = [
        Case("age == 30 AND name == 'Ripley'", on: p, true),
        Case("age == 30 && name == 'Ash'", on: p, false),
        Case("age == 31 OR name == 'Ripley'", on: p, true),
        Case("age == 31 || name == 'Ash'", on: p, false),
        Case("NOT age == 31", on: p, true),
        Case("!(age == 30)", on: p, false),
        Case("NOT name == 'Ash' OR age == 31", on: p, true),
        Case("TRUEPREDICATE", on: p, true),
        Case("FALSEPREDICATE", on: p, false),
        Case("TRUEPREDICATE AND FALSEPREDICATE", on: p, false),
        Case("(age == 30)", on: p, true),
    ]

    /// Variables from the substitution dictionary (`evaluate(with:substitutionVariables:)`) [A].
    static let variables: [Case] = [
        Case("name == $n", on: p, variables: ["n": "Ripley"], true),
        Case("age > $min AND age < $max", on: p, variables: ["min": 20, "max": 40], true),
        Case("nick == $none", on: p, variables: ["none": NSNull()], true),
        Case("ANY scores == $s", on: p, variables: ["s": 7], true),
        Case("$x == 3", on: p, variables: ["x": 3], true),
        Case("$a.$b == 'ABC'", on: nil, variables: ["a": ["a": "ABC"], "b": "a"], true),
        Case("$a[$b] == 'ABC'", on: nil, variables: ["a": ["a": "ABC"], "b": "a"], true),
        Case("$a.$b > 1", on: nil, variables: ["a": [2], "b": 0], false),
        Case("SELF.$key == 'Ripley'", on: p, variables: ["key": "name"], true),
        Case("SELF.$key == 'Nostromo'", on: p, variables: ["key": "ship.name"], true),
        Case("ship.$key == 7", on: p, variables: ["key": "crew"], true),
        Case("$c.$key.@count == 3", on: nil, variables: ["c": p, "key": "crew"], true),
        Case("SELF.$key == 'Ripley'", on: p, variables: ["key": NSNull()], false),
    ]

    /// Arguments beyond the specifiers are ignored; a quoted `'%@'` is the text `%@` and takes
    /// none [V dd "Abnormal Case 1/2": `lastName LIKE '%@'` with "Smith" matches nobody].
    static let extraArguments: [Case] = [
        Case("name LIKE '%@'", ["Ripley"], on: p, false),
        Case("name LIKE \"%@\"", ["Ripley"], on: p, false),
        Case("name LIKE '%@'", ["Ripley"], on: ["name": "%@"], true),
        Case("age == %@", [30, 31], on: p, true),
        Case("age == 30", [31], on: p, true),
    ]

    /// The path methods of `NSString`, with the values of Apple's documentation tables
    /// (`lastPathComponent`, `pathExtension`, `deletingLastPathComponent`, `deletingPathExtension`,
    /// `appendingPathComponent(_:)`, `appendingPathExtension(_:)`, `pathComponents`) [A].
    static let pathMethods: [Case] = [
        Case("FUNCTION('/tmp/scratch.tiff', 'lastPathComponent') == 'scratch.tiff'", on: p, true),
        Case("FUNCTION('/tmp/', 'lastPathComponent') == 'tmp'", on: p, true),
        Case("FUNCTION('scratch///', 'lastPathComponent') == 'scratch'", on: p, true),
        Case("FUNCTION('/', 'lastPathComponent') == '/'", on: p, true),
        Case("FUNCTION('/tmp/scratch.tiff', 'pathExtension') == 'tiff'", on: p, true),
        Case("FUNCTION('.scratch.tiff', 'pathExtension') == 'tiff'", on: p, true),
        Case("FUNCTION('/tmp/scratch', 'pathExtension') == ''", on: p, true),
        Case("FUNCTION('/tmp/scratch..tiff', 'pathExtension') == 'tiff'", on: p, true),
        Case("FUNCTION('/tmp/scratch.tiff', 'stringByDeletingLastPathComponent') == '/tmp'", on: p, true),
        Case("FUNCTION('/tmp/lock/', 'stringByDeletingLastPathComponent') == '/tmp'", on: p, true),
        Case("FUNCTION('/tmp', 'stringByDeletingLastPathComponent') == '/'", on: p, true),
        Case("FUNCTION('scratch.tiff', 'stringByDeletingLastPathComponent') == ''", on: p, true),
        Case("FUNCTION('/tmp/scratch.tiff', 'stringByDeletingPathExtension') == '/tmp/scratch'", on: p, true),
        Case("FUNCTION('scratch.bundle/', 'stringByDeletingPathExtension') == 'scratch'", on: p, true),
        Case("FUNCTION('scratch..tiff', 'stringByDeletingPathExtension') == 'scratch.'", on: p, true),
        Case("FUNCTION('.tiff', 'stringByDeletingPathExtension') == '.tiff'", on: p, true),
        Case("FUNCTION('/tmp', 'stringByAppendingPathComponent:', 'scratch.tiff') == '/tmp/scratch.tiff'", on: p, true),
        Case("FUNCTION('/tmp/', 'stringByAppendingPathComponent:', 'scratch.tiff') == '/tmp/scratch.tiff'", on: p, true),
        Case("FUNCTION('/', 'stringByAppendingPathComponent:', 'scratch.tiff') == '/scratch.tiff'", on: p, true),
        Case("FUNCTION('/tmp/scratch.old', 'stringByAppendingPathExtension:', 'tiff') == '/tmp/scratch.old.tiff'", on: p, true),
        Case("FUNCTION('/tmp/', 'stringByAppendingPathExtension:', 'tiff') == '/tmp.tiff'", on: p, true),
        Case("FUNCTION('scratch', 'stringByAppendingPathExtension:', 'tiff') == 'scratch.tiff'", on: p, true),
        Case("FUNCTION('/tmp/scratch.tiff', 'pathComponents') == {'/', 'tmp', 'scratch.tiff'}", on: p, true),
        Case("FUNCTION('/tmp/scratch.tiff', 'isAbsolutePath') == YES", on: p, true),
        Case("FUNCTION('~/x', 'stringByExpandingTildeInPath') BEGINSWITH '/'", on: p, true),
        Case("FUNCTION('/a/./b/../c', 'stringByStandardizingPath') == '/a/c'", on: p, true),
        Case("FUNCTION(name, 'pathExtension') == ''", on: p, true),
        Case("FUNCTION(missing, 'lastPathComponent') == nil", on: p, true),
        Case("FUNCTION('/tmp', 'stringByAppendingPathComponent:', 3) == '/tmp/3'", on: p, false),
    ]

    /// Built-in functions and arithmetic: maplibre's Apple-run values (`ceiling(-1.5) = -1`,
    /// `average({1,2,2,3,4,7,9}) = 4`, …), integer division and division by zero from the
    /// decompiled `_NSPredicateUtilities` (research notes §3), the population standard deviation
    /// (NSHipster), bitwise operators `2 ^ 1 == 3`, `1 << 3 == 8`, `2 & 1 == 0` (spec §1.7 [V dd]).
    static let functions: [Case] = [
        Case("average({1, 2, 2, 3, 4, 7, 9}) == 4", on: p, true),
        Case("sum({1, 2, 2, 3, 4, 7, 9}) == 28", on: p, true),
        Case("count({1, 2, 2, 3, 4, 7, 9}) == 7", on: p, true),
        Case("min({1, 2, 2, 3, 4, 7, 9}) == 1", on: p, true),
        Case("max({1, 2, 2, 3, 4, 7, 9}) == 9", on: p, true),
        Case("sum:({1, 1, 2}) == 4", on: p, true),
        Case("ceiling(-1.5) == -1", on: p, true),
        Case("ceiling:(1.5) == 2", on: p, true),
        Case("trunc(-1.5) == -1", on: p, true),
        Case("floor(-1.5) == -2", on: p, true),
        Case("exp(0) == 1", on: p, true),
        Case("noindex(513) == 513", on: p, true),
        Case("sqrt(16) == 4", on: p, true),
        Case("abs(-3) == 3", on: p, true),
        Case("stddev({1, 2, 3, 4, 4, 5, 9, 11}) BETWEEN {3.2185, 3.2186}", on: p, true),
        Case("median({1, 5, 2}) == 2", on: p, true),
        Case("median({1, 5, 2, 4}) == 3", on: p, true),
        Case("sum(empty) == 0", on: p, true),
        Case("count(scores) == 3", on: p, true),
        Case("sum(scores) == 19", on: p, true),
        Case("max(scores) == 9", on: p, true),
        Case("1 + 1 + 1 == 3", on: p, true),
        Case("5 / 2 == 2", on: p, true),
        Case("5.0 / 2 == 2.5", on: p, true),
        Case("7 / 0 == 0", on: p, true),
        Case("modulus:by:(7, 3) == 1", on: p, true),
        Case("2 ** 10 == 1024", on: p, true),
        Case("age * 2 == 60", on: p, true),
        Case("age + 0.5 == 30.5", on: p, true),
        Case("age - 31 == -1", on: p, true),
        Case("2 ^ 1 == 3", on: p, true),
        Case("1 << 3 == 8", on: p, true),
        Case("2 & 1 == 0", on: p, true),
        Case("16 >> 2 == 4", on: p, true),
        Case("3 | 4 == 7", on: p, true),
        Case("uppercase(name) == 'RIPLEY'", on: p, true),
        Case("lowercase(name) == 'ripley'", on: p, true),
        Case("now() > born", on: p, true),
    ]

    /// Indexes (`FIRST`, `LAST`, `SIZE`, numbers, dictionary keys), `CAST`, `TERNARY`, SUBQUERY,
    /// set expressions, `FUNCTION` (research notes §3 from the decompiled `objectFrom:withIndex:`
    /// and `castObject:toType:`; maplibre Apple-run `TERNARY(1 = 2, TRUE, FALSE)`,
    /// `FUNCTION('Old', 'stringByAppendingString:', 'MacDonald')`, `CAST('02134', 'NSNumber')`;
    /// `A IN B UNION C` [V Realm]).
    static let expressions: [Case] = [
        Case("scores[0] == 3", on: p, true),
        Case("scores[FIRST] == 3", on: p, true),
        Case("scores[LAST] == 9", on: p, true),
        Case("scores[SIZE] == 3", on: p, true),
        Case("SELF['name'] == 'Ripley'", on: p, true),
        Case("empty[FIRST] == nil", on: p, true),
        Case("CAST(1.5, 'NSString') == '1.5'", on: p, true),
        Case("CAST('02134', 'NSNumber') == 1116", on: p, true),
        Case("CAST('0x10', 'NSNumber') == 16", on: p, true),
        Case("CAST('2.5', 'NSNumber') == 2.5", on: p, true),
        Case("CAST(born, 'NSNumber') == 0", on: p, true),
        Case("TERNARY(age > 18, 'adult', 'minor') == 'adult'", on: p, true),
        Case("TERNARY(1 = 2, TRUE, FALSE) == NO", on: p, true),
        Case("TERNARY(missing != nil, 1, 0) == 0", on: p, true),
        Case("SUBQUERY(crew, $c, $c.age > 36).@count == 2", on: p, true),
        Case("SUBQUERY(crew, $c, $c.age > 100).@count == 0", on: p, true),
        Case("SUBQUERY(crew, $c, $c.name BEGINSWITH 'D')[SIZE] == 1", on: p, true),
        Case("3 IN {1, 2} UNION {2, 3}", on: p, true),
        Case("2 IN {1, 2} MINUS {2}", on: p, false),
        Case("2 IN {1, 2} INTERSECT {2, 3}", on: p, true),
        Case("FUNCTION('Old', 'stringByAppendingString:', 'MacDonald') == 'OldMacDonald'", on: p, true),
    ]

    static let all = numbers + booleans + nils + plainStrings + stringOptions + substrings + like + matches + membership
        + quantifiers + keyPaths + selfValues + dates + compounds + variables + extraArguments + functions + expressions + pathMethods

    @Test(arguments: all)
    func evaluates(_ testCase: Case) throws {
        let predicate = try NSPredicate(validatingFormat: testCase.format, argumentArray: testCase.arguments)
        #expect(predicate.evaluate(with: testCase.object, substitutionVariables: testCase.variables) == testCase.expected)
    }
}
