@testable import CoreData
import CoreDataPostgreSQL
import Testing

/// `<`, `<=`, `>`, `>=` and `BETWEEN` on strings beyond ASCII answer the same in memory, in the
/// in-memory store and in SQLite (issue 18, defect 3), over items of `ConformanceModel` named:
///
/// | label | name      | UTF-8 bytes  | `[c]` folds to | `[d]` folds to |
/// |-------|-----------|--------------|----------------|----------------|
/// | A     | é         | C3 A9        | é              | e              |
/// | B     | İ         | C4 B0        | i + U+0307     | I              |
/// | C     | zebra     | 7A …         | zebra          | zebra          |
/// | D     | Zebra     | 5A …         | zebra          | Zebra          |
/// | E     | null      | 6E …         | null           | null           |
/// | F     | e + U+0301 | 65 CC 81    | é              | e              |
/// | G     | E         | 45           | e              | E              |
/// | H     | NULL      | 4E …         | null           | NULL           |
/// | I     | nil       |              |                |                |
/// | J     | f         | 66           | f              | f              |
///
/// Without options (and with `[n]`, which compares literally) strings order by their UTF-8
/// bytes, as SQLite's BINARY collation orders them in Apple's SQLite store (spec §6.3 [CD]) and
/// as `compare:` sorts them here (README, "Differences"): G H D F J E C A B. `[c]` and `[d]` fold
/// both sides (spec §4.7: full case folding, marks dropped from Latin letters) and compare them
/// as `compare:options:` does, which orders an accented letter after its base letter and before
/// the next one (Foundation's non-literal comparison [A]): `é` is between `e` and `f`.
@Suite("Conformance: string order")
struct StringOrderConformanceTests {
    typealias Case = StoreCase

    static let names: [(label: String, name: String?)] = [
        ("A", "é"), ("B", "İ"), ("C", "zebra"), ("D", "Zebra"), ("E", "null"),
        ("F", "e\u{301}"), ("G", "E"), ("H", "NULL"), ("I", nil), ("J", "f"),
    ]

    private static let sqliteStack = Result { try ConformanceStores.populated(NSSQLiteStoreType, with: insertItems).reopened() }
    private static let inMemoryStack = Result { try ConformanceStores.populated(NSInMemoryStoreType, with: insertItems) }
    private static let postgreSQLStack = CtxPostgreSQLServer.url.map { _ in Result { try ConformanceStores.populated(NSPostgreSQLStoreType, with: insertItems) } }

    private static func insertItems(into context: NSManagedObjectContext) {
        for (label, name) in names {
            let item = ctxInsert("Item", into: context, ["label": label])
            if let name { item.setValue(name, forKey: "name") }
        }
    }

    static let bytes: [Case] = [
        Case("name < 'null'", "DFGHJ"),
        Case("name <= 'null'", "DEFGHJ"),
        Case("name > 'null'", "ABC"),
        Case("name >= 'null'", "ABCE"),
        Case("name < 'NULL'", "G"),
        Case("name > 'e'", "ABCEFJ"),
        Case("name < %@", [.value("é")], "CDEFGHJ"),
        Case("name >= %@", [.value("é")], "AB"),
        Case("name < 'a'", "DGH"),
        Case("name BETWEEN {'f', 'zebra'}", "CEJ"),
        Case("name BETWEEN {'E', 'e'}", "DGH"),
        Case("name BETWEEN %@", [.value(["e\u{301}", "é"])], "ACEFJ"),
        Case("'null' > name", "DFGHJ"),
        Case("name <[n] 'null'", "DFGHJ"),
        Case("name >[cn] 'null'", "ABC"),
    ]

    /// Case folded: e < é (A, F) < f < i + U+0307 < null (E, H) < zebra (C, D).
    static let caseInsensitive: [Case] = [
        Case("name <[c] 'null'", "ABFGJ"),
        Case("name >=[c] 'NULL'", "CDEH"),
        Case("name <[c] 'F'", "AFG"),
        Case("name BETWEEN[c] {'E', 'f'}", "AFGJ"),
        Case("name >[c] 'i'", "BCDEH"),
        Case("name <=[c] %@", [.value("É")], "AFG"),
    ]

    /// Marks dropped: E < I < NULL < Zebra < e (A, F) < f < null < zebra.
    static let diacriticInsensitive: [Case] = [
        Case("name <[d] 'f'", "ABDFGH"),
        Case("name >[d] 'null'", "C"),
        Case("name <=[d] 'e'", "ABDFGH"),
        Case("name BETWEEN[d] {'I', 'e'}", "ABDFH"),
        Case("name >[d] 'Zebra'", "ACEFJ"),
    ]

    /// Both: e (A, F, G) < f < i < null (E, H) < zebra (C, D).
    static let caseAndDiacriticInsensitive: [Case] = [
        Case("name <[cd] 'null'", "ABFGJ"),
        Case("name >=[cd] %@", [.value("É")], "ABCDEFGHJ"),
        Case("name BETWEEN[cd] {'E', 'I'}", "ABFGJ"),
        Case("name >[cd] 'i'", "CDEH"),
    ]

    @Test(arguments: bytes + caseInsensitive + diacriticInsensitive + caseAndDiacriticInsensitive)
    func everyWayOfFilteringAgrees(_ testCase: Case) throws {
        try ConformanceStores.expectAgreement(testCase, memory: Self.inMemoryStack.get(), sqlite: Self.sqliteStack.get(), postgreSQL: Self.postgreSQLStack?.get())
    }
}
