@testable import CoreData
import Testing

/// The store half of the conformance table: each predicate runs over `ConformanceModel`'s ten
/// items through `evaluate(with:)` (on objects of both stores), an in-memory store fetch and a
/// SQLite fetch, which must all return the expected rows, save where Apple's SQLite store differs
/// or refuses. Expectations come from the sources cited per group, never from running this code.
@Suite("Conformance: stores")
struct StoreConformanceTests {
    typealias Case = StoreCase

    /// Numbers compare numerically whatever their type; `isEqual:` and `compare:` per the
    /// `NSComparisonPredicate.Operator` header comments and spec §4.3–§4.4 [A][V].
    static let numbers: [Case] = [
        Case("count == 1", "A"),
        Case("count == 1.0", "A"),
        Case("count == %@", [.value(1.0)], "A"),
        Case("count == %d", [.value(7)], "G"),
        Case("count = 7", "G"),
        Case("count > 5", "DGJ"),
        Case("count >= 7", "DGJ"),
        Case("count => 7", "DGJ"),
        Case("count < 0", "E"),
        Case("count <= 0", "EF"),
        Case("count =< 0", "EF"),
        Case("count < 1.5", "AEF"),
        Case("5 < count", "DGJ"),
        Case("count BETWEEN {1, 3}", "ABC"),
        Case("count BETWEEN %@", [.value([0, 2])], "ABF"),
        Case("count IN {0, 2, 4}", "BFI"),
        Case("count IN %@", [.value([7, 100])], "GJ"),
        Case("count IN {}", ""),
        Case("price == 1.5", "A"),
        Case("price > 7.25", "DJ"),
        Case("price >= 7.25", "DGJ"),
        Case("price < 0", "E"),
        Case("price == 0", "F"),
        Case("price == count", "DF"),
        Case("price BETWEEN {2.5, 10}", "BDGH"),
    ]

    /// "A comparison predicate does not match any value with null except null" (Predicate
    /// Programming Guide, Using Predicates) [A]; `!=` with NULL rows differs in SQLite (spec §6.3,
    /// Douglas Hill [V], README "Differences").
    static let nils: [Case] = [
        Case("count == nil", "H"),
        Case("name == nil", "I"),
        Case("name == NULL", "I"),
        Case("name == %@", [.value(NSNull())], "I"),
        Case("price == nil", "CI"),
        Case("price != nil", "ABDEFGHJ"),
        Case("name != nil", "ABCDEFGHJ"),
        Case("day == nil", "CI"),
        Case("flag == nil", "GI"),
        Case("count != 1", "BCDEFGHIJ", sqlite: .differs("BCDEFGIJ")),
        Case("name != 'Alpha'", "BCDEFGHIJ", sqlite: .differs("BCDEFGHJ")),
        Case("flag != YES", "BDFGHI", sqlite: .differs("BDFH")),
        Case("name !=[c] 'alpha'", "DEFGHIJ", sqlite: .differs("DEFGHJ")),
    ]

    /// Booleans are numbers: `YES`/`TRUE` are 1, `NO`/`FALSE` 0 (spec §1.6 [V dd]).
    static let booleans: [Case] = [
        Case("flag == YES", "ACEJ"),
        Case("flag == TRUE", "ACEJ"),
        Case("flag == 1", "ACEJ"),
        Case("flag == %@", [.value(true)], "ACEJ"),
        Case("flag == NO", "BDFH"),
        Case("flag == false", "BDFH"),
        Case("flag == 0", "BDFH"),
    ]

    /// Compound predicates: AND, OR, NOT (`NSCompoundPredicate` reference [A]). NOT over a row
    /// whose comparison meets NULL is left out: what Apple's SQLite store answers is unknown.
    static let compounds: [Case] = [
        Case("TRUEPREDICATE", "ABCDEFGHIJ"),
        Case("FALSEPREDICATE", ""),
        Case("count == 1 AND flag == YES", "A"),
        Case("count == 1 && flag == YES", "A"),
        Case("count == 1 OR count == 2", "AB"),
        Case("count == 1 || count == 2", "AB"),
        Case("count > 0 AND price < 5", "AB"),
        Case("(count < 2 OR count > 50) AND flag == YES", "AEJ"),
        Case("NOT name BEGINSWITH[c] 'A' AND name != nil", "DEFGH"),
        Case("! (label == 'A' OR label == 'B')", "CDEFGHIJ"),
        Case("label IN {'A', 'B'} AND NOT label == 'A'", "B"),
        Case("TRUEPREDICATE AND label == 'C'", "C"),
        Case("FALSEPREDICATE OR label == 'C'", "C"),
    ]

    /// Strings without options compare as `isEqual:` does; `==` has no wildcards (spec §4.3,
    /// §4.5 [V dd]).
    static let plainStrings: [Case] = [
        Case("name == 'Alpha'", "A"),
        Case("name == \"alpha\"", "B"),
        Case("name == 'Eclair'", ""),
        Case("name == ''", "H"),
        Case("name == 'a.b*c?'", "J"),
        Case("name == 'a.b*'", ""),
        Case("'Alpha' == name", "A"),
        Case("name IN {'Alpha', 'eclair'}", "AE"),
        Case("name IN %@", [.value(["STRASSE", "x"])], "G"),
    ]

    /// `[c]` is full Unicode case folding (ß ≈ ss), `[d]` drops Latin diacritics, `[n]`
    /// supersedes both (spec §4.7 [CF][V Preacher]; `NSComparisonPredicate.Options.normalized` [A]).
    static let stringOptions: [Case] = [
        Case("name ==[c] 'alpha'", "ABC"),
        Case("name ==[c] 'ALPHA'", "ABC"),
        Case("name ==[c] 'eclair'", "E"),
        Case("name ==[d] 'Eclair'", "D"),
        Case("name ==[cd] 'ECLAIR'", "DE"),
        Case("name ==[dc] 'éclair'", "DE"),
        Case("name ==[c] 'strasse'", "FG"),
        Case("name ==[c] 'STRASSE'", "FG"),
        Case("name ==[c] 'straße'", "FG"),
        Case("name ==[n] 'Alpha'", "A"),
        Case("name ==[cn] 'alpha'", "B"),
        Case("name ==[cdn] 'eclair'", "E"),
        Case("owner.name ==[cd] 'ZOE'", "F"),
    ]

    /// BEGINSWITH, ENDSWITH, CONTAINS; an empty needle never matches (rdar://20626872,
    /// spec §4.5 [V]); `IN` with a string on the right is a substring test (`Operator.in` [A]).
    static let substrings: [Case] = [
        Case("name BEGINSWITH 'Al'", "A"),
        Case("name BEGINSWITH[c] 'al'", "ABC"),
        Case("name BEGINSWITH[cd] 'É'", "DE"),
        Case("name BEGINSWITH[d] 'E'", "D"),
        Case("name BEGINSWITH ''", ""),
        Case("name BEGINSWITH 'Alpha!'", ""),
        Case("name CONTAINS ''", ""),
        Case("name ENDSWITH[cd] ''", ""),
        Case("name ENDSWITH 'pha'", "AB"),
        Case("name ENDSWITH[c] 'PHA'", "ABC"),
        Case("name ENDSWITH 'c?'", "J"),
        Case("name CONTAINS 'lai'", "DE"),
        Case("name CONTAINS[c] 'SS'", "FG"),
        Case("name CONTAINS 'ß'", "F"),
        Case("name CONTAINS[c] 'ß'", "FG"),
        Case("name CONTAINS '*'", "J"),
        Case("name CONTAINS[cd] 'CLA'", "DE"),
        Case("name IN 'xxAlphaxx'", "A"),
        Case("'lph' IN name", "AB"),
        Case("'ALPHA!' CONTAINS name", "C"),
    ]

    /// LIKE: `*` any run (also empty), `?` one character, everything else literal, whole string
    /// (Predicate Format String Syntax [A]; `hel*o`/`hel?o` [V dd]).
    static let like: [Case] = [
        Case("name LIKE 'Al*'", "A"),
        Case("name LIKE 'alpha'", "B"),
        Case("name LIKE[c] 'al*'", "ABC"),
        Case("name LIKE '*'", "ABCDEFGHJ"),
        Case("name LIKE '?'", ""),
        Case("name LIKE '*?'", "ABCDEFGJ"),
        Case("name LIKE 'a.b*'", "J"),
        Case("name LIKE 'a?b*'", "J"),
        Case("name LIKE 'a*'", "BJ"),
        Case("name LIKE 'Str??e'", "F"),
        Case("name LIKE[cd] 'eclair'", "DE"),
        Case("name LIKE[c] '*ss*'", "FG"),
    ]

    /// MATCHES: an ICU regular expression matching the whole string (Using Predicates, Using
    /// Regular Expressions [A]; spec §4.5 [V]).
    static let matches: [Case] = [
        Case("name MATCHES 'A.*'", "AC"),
        Case("name MATCHES '[a-z]+'", "BE"),
        Case("name MATCHES 'lph'", ""),
        Case("name MATCHES '.*lph.*'", "AB"),
        Case("name MATCHES[c] 'alpha'", "ABC"),
        Case("name MATCHES '.*'", "ABCDEFGHJ"),
        Case("name MATCHES[cd] 'eclair'", "DE"),
        Case(#"name MATCHES 'a\\.b\\*c\\?'"#, "J"),
        Case("name MATCHES %@", [.value(#"\p{Lu}+"#)], "CG"),
    ]

    /// Strings order by their UTF-8 bytes, SQLite's BINARY collation, as Apple's SQLite store
    /// compares them (spec §6.3 [CD]; README, "Differences"): `É` follows `z` (more in
    /// `StringOrderConformanceTests`).
    static let stringOrder: [Case] = [
        Case("name < 'B'", "ACH"),
        Case("name >= 'a' AND name < 'b'", "BJ"),
        Case("name BETWEEN {'A', 'B'}", "AC"),
        Case("name <[c] 'b'", "ABCHJ"),
        Case("name < 'F'", "ACH"),
        Case("name > 'z'", "D"),
    ]

    /// Dates compare by instant; `CAST(n, 'NSDate')` is n seconds after 2001-01-01 (spec §4.4,
    /// §4.8 [V maplibre]).
    static let dates: [Case] = [
        Case("day == %@", [.date(days: 0)], "A"),
        Case("day == CAST(0, 'NSDate')", "A"),
        Case("day > %@", [.date(days: 3)], "GHJ"),
        Case("day < %@", [.date(days: 0)], "E"),
        Case("day <= %@", [.date(days: 0)], "AE"),
        Case("%@ >= day", [.date(days: 0)], "AE"),
        Case("day BETWEEN %@", [.dates(days: [1, 2])], "BD"),
        Case("day >= CAST(86400, 'NSDate')", "BDFGHJ"),
        Case("day < now()", "ABDEFGHJ"),
        Case("day IN %@", [.dates(days: [0, 6])], "AJ"),
    ]

    /// Key paths through a to-one relationship, and relationship equality with an object
    /// (Predicate Programming Guide, Using Predicates with Core Data [A]).
    static let toOne: [Case] = [
        Case("owner.name == 'Ann'", "ADH"),
        Case("SELF.owner.name == 'Bob'", "BE"),
        Case("owner.name BEGINSWITH 'B'", "BE"),
        Case("owner.name LIKE[c] 'a*'", "ADH"),
        Case("owner.name IN {'Bob', 'Zoë'}", "BEF"),
        Case("owner.name == nil", "CGI"),
        Case("owner == nil", "CGI"),
        Case("owner != nil", "ABDEFHJ"),
        Case("owner == %@", [.owner("Ann")], "ADH"),
        Case("owner != %@", [.owner("Ann")], "BCEFGIJ", sqlite: .differs("BEFJ")),
        Case("owner.name != 'Ann'", "BCEFGIJ", sqlite: .differs("BEFJ")),
    ]

    /// ANY/SOME, ALL and NONE over a to-many relationship; ALL and NONE hold for no elements
    /// (rdar://16299844 [V], NONE = NOT ANY [A]).
    static let toMany: [Case] = [
        Case("ANY tags.text == 'red'", "AEJ"),
        Case("SOME tags.text == 'red'", "AEJ"),
        Case("ANY tags.text ==[c] 'red'", "ABEJ"),
        Case("ALL tags.text == 'red'", "CHIJ"),
        Case("NONE tags.text == 'red'", "BCDFGHI"),
        Case("NOT (ANY tags.text == 'red')", "BCDFGHI"),
        Case("ANY tags.weight > 3", "DFG"),
        Case("ALL tags.weight >= 1", "ABCDEFGHI"),
        Case("NONE tags.weight >= 1", "CHIJ"),
        Case("ANY tags.text IN {'green', 'Blue'}", "DEG"),
        Case("ANY tags.text BEGINSWITH[c] 'b'", "AEFG"),
        Case("ALL tags.text CONTAINS 'r'", "CDHIJ"),
        Case("ANY tags.weight BETWEEN {2, 3}", "ABE"),
        Case("ANY owner.items.name == 'Straße'", "F"),
    ]

    /// `@count` and the `@sum/@avg/@min/@max` collection operators (Key-Value Coding
    /// Programming Guide, Collection Operators [A]); SUBQUERY (NSExpression reference [A]).
    static let aggregates: [Case] = [
        Case("tags.@count == 0", "CHI"),
        Case("tags.@count >= 2", "AE"),
        Case("tags.@count == 1", "BDFGJ"),
        Case("tags.@sum.weight == 6", "E"),
        Case("tags.@max.weight == 4", "FG"),
        Case("tags.@min.weight == 1", "AE"),
        Case("tags.@avg.weight == 1.5", "A"),
        Case("owner.items.@count == 3", "ADH"),
        Case("owner.items.@count == 1", "FJ"),
        Case("SUBQUERY(tags, $t, $t.text ==[c] 'red' AND $t.weight > 1).@count > 0", "B"),
        Case("SUBQUERY(tags, $t, $t.weight >= 2).@count == 2", "E"),
        Case("SUBQUERY(tags, $t, $t.text == 'blue').@count != 0", "AEF"),
        Case("SUBQUERY(tags, $t, $t.weight > 100).@count == 0", "ABCDEFGHIJ"),
    ]

    /// Arithmetic and the functions Apple's store computes in SQL; integer division truncates
    /// and dividing integers by zero gives 0 (research notes §3–§4, decompiled
    /// `_NSPredicateUtilities` and `NSSQLFunctionExpressionIntermediate`). Apple's functions
    /// raise for a nil argument, so the nil rows are filtered out first (AND short-circuits [A]).
    static let arithmetic: [Case] = [
        Case("count != nil AND count * 2 == 20", "D"),
        Case("count != nil AND count + 5 == 0", "E"),
        Case("count != nil AND count / 2 == 1", "BC"),
        Case("count != nil AND count / 0 == 0", "ABCDEFGIJ"),
        Case("count != nil AND count - 1 < 0", "EF"),
        Case("count != nil AND -count == 5", "E"),
        Case("price != nil AND price * 2 == 5", "B"),
        Case("count != nil AND price != nil AND count + price == 4.5", "B"),
        Case("count != nil AND abs(count) == 5", "E"),
        Case("count != nil AND modulus:by:(count, 2) == 1", "ACG"),
        Case("count != nil AND count & 1 == 1", "ACEG"),
        Case("count != nil AND count | 1 == 3", "BC"),
        Case("count != nil AND count << 1 == 8", "I"),
        Case("count != nil AND count >> 1 == 3", "G"),
        Case("noindex(count) == 7", "G"),
        Case("count == 3 + 4", "G"),
        Case("count == tags.@count + 1", "B"),
    ]

    /// `uppercase:` and `lowercase:` (NSExpression function table [A]; Apple's store calls its own
    /// `NSCoreDataToUpper`/`NSCoreDataToLower` SQL functions, research notes §4), with
    /// `uppercaseString`'s full mappings (ß → SS). They raise for nil, hence the guards.
    static let caseMapping: [Case] = [
        Case("name != nil AND uppercase(name) == 'ALPHA'", "ABC"),
        Case("name != nil AND lowercase(name) == 'alpha'", "ABC"),
        Case("name != nil AND uppercase(name) == 'ÉCLAIR'", "D"),
        Case("name != nil AND lowercase(name) == 'éclair'", "D"),
        Case("name != nil AND uppercase(name) == 'STRASSE'", "FG"),
        Case("owner != nil AND lowercase(owner.name) == 'zoë'", "F"),
        Case("name != nil AND uppercase(name) BEGINSWITH 'ECL'", "E"),
        Case("name != nil AND uppercase:(name) IN {'ALPHA', 'A.B*C?'}", "ABCJ"),
        Case("name != nil AND lowercase(name) ==[c] 'ÉCLAIR'", "D"),
    ]

    /// What Apple's SQLite store refuses: to-many key paths without a quantifier and through two
    /// to-many relationships (Core Data Programming Guide, store constraints [A]); custom
    /// `FUNCTION`s, set expressions [A]; functions without SQL generation (research notes §4); a
    /// nil constant on the left (spec §6.2 [CD]). Memory evaluates them all.
    static let refused: [Case] = [
        Case("tags.text == 'red'", "", sqlite: .refuses("tags")),
        Case("FUNCTION(name, 'uppercaseString') == 'ALPHA'", "ABC", sqlite: .refuses("FUNCTION")),
        Case("FUNCTION(name, 'lastPathComponent') == 'Alpha'", "A", sqlite: .refuses("lastPathComponent")),
        Case("FUNCTION(name, 'pathExtension') == 'b*c?'", "J", sqlite: .refuses("pathExtension")),
        Case("count IN tags.weight UNION {3}", "AC", sqlite: .refuses("UNION")),
        Case("sqrt(tags.@count) == 1", "BDFGJ", sqlite: .refuses("sqrt")),
        Case("ceiling(tags.@count) == 3", "E", sqlite: .refuses("ceiling")),
        Case("tags.@count ** 2 == 4", "A", sqlite: .refuses("**")),
        Case("bitwiseXor:with:(tags.@count, 1) == 0", "BDFGJ", sqlite: .refuses("^")),
        Case("random() > 1", "", sqlite: .refuses("random")),
        Case("nil == name", "I", sqlite: .refuses("NULL")),
    ]

    static let all = numbers + nils + booleans + compounds + plainStrings + stringOptions + substrings + like + matches
        + stringOrder + dates + toOne + toMany + aggregates + arithmetic + caseMapping + refused

    @Test(arguments: all)
    func everyWayOfFilteringAgrees(_ testCase: Case) throws {
        try ConformanceStores.expectAgreement(testCase, memory: ConformanceStores.inMemory(), sqlite: ConformanceStores.sqlite(), postgreSQL: ConformanceStores.postgreSQL())
    }
}
