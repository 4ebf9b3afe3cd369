import Foundation

/// The entity of W6's fetched results controller: `SectionedItem`, with a `section` string (1,000
/// distinct values, `"s0000"` … `"s0999"`), an Int64 `score` (with ties) and a unique Int64
/// `serial`, listed in sections by `section`, sorted by (`section`, `score`, `serial`). This enum
/// holds what every peer family shares: the values of each row, the changes of W6b's background
/// save, the expected checksum, and the SQL the raw and GRDB peers run.
///
/// Our store lays the entity out as `ZSECTIONEDITEM(Z_PK, Z_ENT, Z_OPT, ZSCORE, ZSECTION, ZSERIAL)`
/// (columns in property-name order), without an index: every peer's sorted query sorts in a
/// temporary B-tree.
enum SectionedItemTable {
    /// The entity's name in our model.
    static let entityName = "SectionedItem"
    /// Its table.
    static let tableName = "ZSECTIONEDITEM"
    /// The attribute that names each object's section: the controller's `sectionNameKeyPath`.
    static let sectionKey = "section"
    /// The attributes sorted by after the section, in order: `score`, then the unique `serial`,
    /// which breaks the ties of `score`.
    static let scoreKey = "score"
    static let serialKey = "serial"

    /// The number of distinct sections (spec §7.2: 1k sections), fewer for a fixture of fewer
    /// objects.
    static func sectionCount(count: Int) -> Int {
        max(min(1_000, count), 1)
    }

    /// The name of section `index`: `"s"` and four digits, so that names sort as numbers do.
    static func sectionName(_ index: Int) -> String {
        let digits = String(index)
        return "s" + String(repeating: "0", count: max(4 - digits.count, 0)) + digits
    }

    /// The values of row `index` (0-based; its `Z_PK` is `index + 1`) of a table of `count` rows:
    /// section `index mod sections` (the objects of a section are spread over the table),
    /// a score in `0..<1000` scattered by a permutation (objects of a section share some scores),
    /// and the serial `index`.
    static func values(at index: Int, count: Int) -> (section: Int, score: Int64, serial: Int64) {
        (index % sectionCount(count: count), Int64(index * 2_147_483_647 % count % 1_000), Int64(index))
    }

    // MARK: W6b's background save

    /// The changes of W6b's background save, by serial.
    struct Changes {
        /// Objects whose score changes: some stay in place (`score + 1`), others move within
        /// their section (`999 - score`).
        var scores: [(serial: Int64, score: Int64)] = []
        /// Objects that move to another section: pairs of objects that swap sections, so that
        /// every section keeps its size.
        var sections: [(serial: Int64, section: String)] = []
        /// Objects deleted.
        var deletes: [Int64] = []
        /// Objects inserted, each into the section of one deleted object, with serials from
        /// `count` up.
        var inserts: [(serial: Int64, section: String, score: Int64)] = []

        /// The number of updated objects (score and section changes).
        var updateCount: Int { scores.count + sections.count }
        /// The number of object changes a controller reports for the save: one per updated,
        /// deleted and inserted object.
        var objectChangeCount: Int { updateCount + deletes.count + inserts.count }
    }

    /// Score changes per save; the updates are these plus ``sectionChangesPerSave``.
    static let scoreChangesPerSave = 90
    /// Of the score changes, how many add 1 to the score (the others reverse it, `999 - score`).
    static let smallScoreChangesPerSave = 60
    /// Section changes per save (an even number: pairs swap sections).
    static let sectionChangesPerSave = 10
    /// Deletes and inserts per save.
    static let deletesPerSave = 50
    static let insertsPerSave = 50

    /// The objects W6b changes in a table of `count` rows: the `j`-th changed object is row
    /// `(499·j + 17) mod count`, so that the 200 changed objects are spread over the table and,
    /// with 1,000 sections, lie in 200 different sections. Every section keeps its size: section
    /// changes swap pairs, and each insert goes into the section of a deleted object.
    ///
    /// - Throws: when `count` is too small for 200 different changed rows.
    static func changes(count: Int) throws -> Changes {
        let total = scoreChangesPerSave + sectionChangesPerSave + deletesPerSave
        let rows = (0..<total).map { ($0 * 499 + 17) % count }
        guard Set(rows).count == total else {
            throw BenchmarkError.usage("W6 needs at least \(total) objects whose changed rows differ; --count \(count) is too small")
        }
        var changes = Changes()
        var next = rows.makeIterator()
        for change in 0..<scoreChangesPerSave {
            let values = values(at: next.next()!, count: count)
            let score = change < smallScoreChangesPerSave ? values.score + 1 : 999 - values.score
            changes.scores.append((values.serial, score))
        }
        for _ in 0..<sectionChangesPerSave / 2 {
            let first = values(at: next.next()!, count: count), second = values(at: next.next()!, count: count)
            changes.sections.append((first.serial, sectionName(second.section)))
            changes.sections.append((second.serial, sectionName(first.section)))
        }
        for insert in 0..<deletesPerSave {
            let deleted = values(at: next.next()!, count: count)
            changes.deletes.append(deleted.serial)
            changes.inserts.append((Int64(count + insert), sectionName(deleted.section), Int64(insert * 37 % 1_000)))
        }
        return changes
    }

    // MARK: Checksum

    /// What every W6 peer returns: the sum over the sections, in order, of (position + 1) × the
    /// section's number of objects. It checks the section names' order (by their positions),
    /// their sizes and the total, and W6b's save leaves it unchanged.
    static func sectionChecksum<Sizes: Sequence<Int>>(sizes: Sizes) -> Int64 {
        sizes.enumerated().reduce(Int64(0)) { $0 &+ Int64($1.offset + 1) &* Int64($1.element) }
    }

    /// The checksum of a fixture of `count` rows.
    static func expectedChecksum(count: Int) -> Int64 {
        let sections = sectionCount(count: count)
        return sectionChecksum(sizes: (0..<sections).lazy.map { count / sections + ($0 < count % sections ? 1 : 0) })
    }

    // MARK: SQL

    /// The objects in order: the key of each and the name of its section (`Z_PK, ZSECTION`), the
    /// query spec §7.2 names as the raw floor of a controller's initial fetch.
    static let selectSectionedSQL =
        "SELECT t0.Z_PK, t0.ZSECTION FROM ZSECTIONEDITEM t0 ORDER BY t0.ZSECTION, t0.ZSCORE, t0.ZSERIAL"

    /// The sections in order with their sizes: the grouped count a controller needs for its
    /// sections.
    static let countSectionsSQL =
        "SELECT t0.ZSECTION, COUNT(*) FROM ZSECTIONEDITEM t0 GROUP BY t0.ZSECTION ORDER BY t0.ZSECTION"

    /// The primary key of the fixture's object with serial `serial`: row `index` holds serial
    /// `index` and `Z_PK = index + 1`.
    static func primaryKey(ofSerial serial: Int64) -> Int64 {
        serial + 1
    }

    /// The number of rows whose `Z_PK` is not ``primaryKey(ofSerial:)`` of their serial: 0 in
    /// the fixture, whichever peer built it.
    static let countMisplacedKeysSQL = "SELECT COUNT(*) FROM ZSECTIONEDITEM WHERE Z_PK <> ZSERIAL + 1"

    /// W6b's score change of the GRDB peer: the new `ZSCORE`, then the `Z_PK`.
    static let updateScoreSQL = "UPDATE ZSECTIONEDITEM SET ZSCORE = ? WHERE Z_PK = ?"
    /// W6b's section change of the GRDB peer: the new `ZSECTION`, then the `Z_PK`.
    static let updateSectionSQL = "UPDATE ZSECTIONEDITEM SET ZSECTION = ? WHERE Z_PK = ?"
    /// W6b's delete of the GRDB peer, by `Z_PK`.
    static let deleteSQL = "DELETE FROM ZSECTIONEDITEM WHERE Z_PK = ?"
    /// W6b's insert of the GRDB peer: `ZSCORE`, `ZSECTION`, `ZSERIAL` (SQLite picks the `Z_PK`).
    static let insertChangeSQL = "INSERT INTO ZSECTIONEDITEM (Z_ENT, Z_OPT, ZSCORE, ZSECTION, ZSERIAL) VALUES (1, 1, ?, ?, ?)"

    /// The table as our store creates it, for the raw fixture builder used when our Core Data is
    /// not compiled in.
    static let createSQL =
        "CREATE TABLE ZSECTIONEDITEM ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZSCORE INTEGER, ZSECTION VARCHAR, ZSERIAL INTEGER )"

    /// One row per execution: `Z_PK`, `Z_ENT`, `Z_OPT`, `ZSCORE`, `ZSECTION`, `ZSERIAL`.
    static let insertSQL = "INSERT INTO ZSECTIONEDITEM (Z_PK, Z_ENT, Z_OPT, ZSCORE, ZSECTION, ZSERIAL) VALUES (?, ?, ?, ?, ?, ?)"
}
