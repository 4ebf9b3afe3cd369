import Foundation

/// The two tables of W5's to-many traversal: `Parent` objects, each with a to-many `children`
/// relationship to `Child` objects (inverse: the to-one `parent`). This enum holds what every peer
/// family shares: the shape of the fixture, the values of each row, the expected checksum, and the
/// SQL the raw peers run, with the select lists our SQLite store uses (checked with
/// `COREDATA_SQL_DEBUG=1`, see README.md).
///
/// Our store lays the entities out as `ZPARENT(Z_PK, Z_ENT, Z_OPT, ZRANK)` and
/// `ZCHILD(Z_PK, Z_ENT, Z_OPT, ZPARENT, ZSERIAL, ZWEIGHT)`, where `ZCHILD.ZPARENT` is the foreign
/// key of the to-one side, with the index `ZCHILD_ZPARENT_INDEX` every to-one foreign key gets.
enum ParentChildTable {
    /// The parent entity's name in our model.
    static let parentEntityName = "Parent"
    /// The child entity's name in our model.
    static let childEntityName = "Child"
    /// The parent's to-many relationship, the one W5 traverses.
    static let childrenKey = "children"
    /// The child's to-one relationship, the inverse of ``childrenKey``.
    static let parentKey = "parent"
    /// The two child attributes W5 reads.
    static let readAttributes = ("serial", "weight")

    /// Children per parent (spec §7.2: 1k parents × 100 children).
    static let childrenPerParent = 100

    /// The number of parents of a fixture of `count` children (at least one).
    static func parentCount(count: Int) -> Int {
        max(count / childrenPerParent, 1)
    }

    /// The number of children of a fixture of `count` children: a whole number of children per
    /// parent.
    static func childCount(count: Int) -> Int {
        parentCount(count: count) * childrenPerParent
    }

    /// The values of child `index` (0-based; its `Z_PK` is `index + 1`) of a fixture of
    /// `parents` parents: the 0-based index of its parent, and its two attributes. Children are
    /// dealt to the parents in turn (child `i` to parent `i % parents`), so that the children of
    /// one parent are spread over the table as they are when they were added over time, not
    /// stored next to each other.
    static func childValues(at index: Int, parents: Int) -> (parent: Int, serial: Int64, weight: Int64) {
        (index % parents, Int64(index), Int64(index * 7 % 1_000))
    }

    /// The rank of parent `index` (0-based; its `Z_PK` is `index + 1`).
    static func parentRank(at index: Int) -> Int64 {
        Int64(index)
    }

    /// What W5 adds up: `serial + weight` of every child of every parent.
    static func expectedChecksum(count: Int) -> Int64 {
        let parents = parentCount(count: count)
        return (0..<childCount(count: count)).reduce(Int64(0)) { sum, index in
            let values = childValues(at: index, parents: parents)
            return sum &+ values.serial &+ values.weight
        }
    }

    // MARK: SQL

    /// The parents' table.
    static let parentTableName = "ZPARENT"
    /// The children's table.
    static let childTableName = "ZCHILD"
    /// The children's foreign-key column.
    static let foreignKeyColumn = "ZPARENT"

    /// The columns our store selects to load a parent row, in its order.
    static let parentSelectList = "t0.Z_PK, t0.Z_ENT, t0.Z_OPT, t0.ZRANK"

    /// The columns our store selects to load a child row, in its order (attributes, then the
    /// foreign key, whereas the table has the foreign key first).
    static let childSelectList = "t0.Z_PK, t0.Z_ENT, t0.Z_OPT, t0.ZSERIAL, t0.ZWEIGHT, t0.ZPARENT"

    /// Every parent, as our store loads a fetch of `Parent` without predicate.
    static let selectParentsSQL = "SELECT \(parentSelectList) FROM ZPARENT t0"

    /// The children of one parent (its `Z_PK` bound): one query of the N+1, a search of the
    /// foreign-key index. It loads whole rows, as Apple's Core Data does when it fires a to-many
    /// fault.
    static let selectChildrenOfParentSQL = "SELECT \(childSelectList) FROM ZCHILD t0 WHERE t0.ZPARENT = ?"

    /// Every child in one query, grouped by parent through the foreign-key index.
    static let selectChildrenByParentSQL = "SELECT \(childSelectList) FROM ZCHILD t0 ORDER BY t0.ZPARENT"

    /// The tables and the foreign-key index as our store creates them, for the raw fixture builder
    /// used when our Core Data is not compiled in.
    static let createSQL = """
        CREATE TABLE ZPARENT ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZRANK INTEGER );
        CREATE TABLE ZCHILD ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZPARENT INTEGER, \
        ZSERIAL INTEGER, ZWEIGHT INTEGER );
        CREATE INDEX ZCHILD_ZPARENT_INDEX ON ZCHILD (ZPARENT)
        """

    /// One parent row per execution: `Z_PK`, `Z_ENT`, `Z_OPT`, `ZRANK`.
    static let insertParentSQL = "INSERT INTO ZPARENT (Z_PK, Z_ENT, Z_OPT, ZRANK) VALUES (?, ?, ?, ?)"

    /// One child row per execution: `Z_PK`, `Z_ENT`, `Z_OPT`, `ZPARENT`, `ZSERIAL`, `ZWEIGHT`.
    static let insertChildSQL = "INSERT INTO ZCHILD (Z_PK, Z_ENT, Z_OPT, ZPARENT, ZSERIAL, ZWEIGHT) VALUES (?, ?, ?, ?, ?, ?)"
}
