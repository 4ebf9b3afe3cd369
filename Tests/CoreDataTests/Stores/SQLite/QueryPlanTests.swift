@testable import CoreData
import Testing

/// The SQL our SQLite store runs for fetches and counts on an indexed attribute searches the
/// index, as SQLite's `EXPLAIN QUERY PLAN` shows, while an unindexed attribute and
/// `noindex:(attribute)` scan the table. The benchmarks (W3, W4) compare our fetches with raw
/// SQLite running the same plan; these tests keep the plan from regressing. No timing here.
@Suite struct QueryPlanTests {
    /// How the model declares the index on `score`: both end up as a `CREATE INDEX`.
    enum IndexDeclaration: String, CaseIterable, CustomTestStringConvertible {
        /// An `NSFetchIndexDescription` on the entity (Apple's current API).
        case fetchIndex
        /// `NSPropertyDescription.isIndexed` (the older API).
        case indexedProperty

        var testDescription: String { rawValue }
    }

    /// `Item`: `score` (Int64, indexed as `declaration` says), `plain` (Int64, no index), `name`.
    private static func model(_ declaration: IndexDeclaration) -> NSManagedObjectModel {
        let score = ModelFixtureKit.attribute("score", .integer64AttributeType)
        let item = ModelFixtureKit.entity("Item", [
            score,
            ModelFixtureKit.attribute("plain", .integer64AttributeType),
            ModelFixtureKit.attribute("name", .stringAttributeType),
        ])
        switch declaration {
        case .fetchIndex:
            item.indexes = [
                NSFetchIndexDescription(name: "byScore", elements: [NSFetchIndexElementDescription(property: score, collationType: .binary)]),
            ]
        case .indexedProperty:
            score.isIndexed = true
        }
        return ModelFixtureKit.model([item])
    }

    /// A store of 200 items (`score` and `plain` = 0…199) in a scratch directory.
    private final class Fixture {
        let directory: SQLiteScratchDirectory
        let url: URL
        let stack: SQLiteTestStack

        init(_ declaration: IndexDeclaration) throws {
            directory = try SQLiteScratchDirectory("query-plan")
            url = directory.file("Plan.sqlite")
            stack = try SQLiteTestStack(model: QueryPlanTests.model(declaration), url: url)
            let context = stack.context
            try context.performAndWait {
                for index in 0..<200 {
                    let item = NSEntityDescription.insertNewObject(forEntityName: "Item", into: context)
                    item.setValue(NSNumber(value: Int64(index)), forKey: "score")
                    item.setValue(NSNumber(value: Int64(index)), forKey: "plain")
                    item.setValue("Item \(index)", forKey: "name")
                }
                try context.save()
                context.reset()
            }
        }

        deinit {
            stack.close()
            directory.remove()
        }

        /// The SELECT statements the store runs for `body`.
        func selects(_ body: (NSManagedObjectContext) throws -> Void) throws -> [String] {
            let store = try #require(stack.store as? SQLiteStore)
            let log = CtxLog<String>()
            store.statementObserver = { log.append($0) }
            defer { store.statementObserver = nil }
            try stack.context.performAndWait { try body(stack.context) }
            return log.elements.filter { $0.hasPrefix("SELECT") && $0.contains("ZITEM") }
        }

        /// The single SELECT a fetch of `format` runs, after checking it finds `expected` objects.
        func fetchSQL(_ format: String, _ arguments: [Any], expected: Int) throws -> String {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Item")
            request.predicate = NSPredicate(format: format, argumentArray: arguments)
            var found = -1
            let statements = try selects { found = try $0.fetch(request).count }
            #expect(found == expected, "\(format)")
            #expect(statements.count == 1, "\(statements)")
            return try #require(statements.first)
        }

        /// The single SELECT `count(for:)` runs for `format`.
        func countSQL(_ format: String, _ arguments: [Any], expected: Int) throws -> String {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Item")
            request.predicate = NSPredicate(format: format, argumentArray: arguments)
            var counted = -1
            let statements = try selects { counted = try $0.count(for: request) }
            #expect(counted == expected, "\(format)")
            #expect(statements.count == 1, "\(statements)")
            return try #require(statements.first)
        }

        /// The `detail` column (the fourth) of `EXPLAIN QUERY PLAN sql`, read on a second,
        /// read-only connection. Unbound parameters are NULL, which does not change the plan
        /// without `ANALYZE` statistics.
        func plan(_ sql: String) throws -> [String] {
            let connection = try SQLiteConnection(path: url.path, readOnly: true, create: false)
            defer { connection.close() }
            let statement = try connection.statement("EXPLAIN QUERY PLAN " + sql)
            var details: [String] = []
            while try statement.step() {
                details.append(statement.string(at: 3) ?? "")
            }
            return details
        }
    }

    /// Whether a plan searches the table `t0` through an index.
    private static func usesIndex(_ plan: [String]) -> Bool {
        plan.contains { $0.hasPrefix("SEARCH t0 USING INDEX") || $0.hasPrefix("SEARCH t0 USING COVERING INDEX") }
    }

    /// Whether a plan reads the whole table `t0` without any index.
    private static func scansTable(_ plan: [String]) -> Bool {
        plan.contains { $0 == "SCAN t0" } && !plan.contains { $0.contains("INDEX") }
    }

    /// The bounds of the ranges the tests fetch: 10 of the 200 items.
    private static var bounds: [Any] { [NSNumber(value: 50), NSNumber(value: 59)] }

    @Test(arguments: IndexDeclaration.allCases)
    func theModelIndexIsCreated(_ declaration: IndexDeclaration) throws {
        let fixture = try Fixture(declaration)
        let indexes = try RawStoreSQL.rows(fixture.url, "SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'ZITEM'")
            .compactMap { $0.first?.text }
        #expect(indexes.contains { $0.contains("(ZSCORE COLLATE BINARY ASC)") }, "\(indexes)")
        #expect(!indexes.contains { $0.contains("ZPLAIN") }, "\(indexes)")
    }

    @Test(arguments: IndexDeclaration.allCases)
    func betweenOnAnIndexedAttributeSearchesTheIndex(_ declaration: IndexDeclaration) throws {
        let fixture = try Fixture(declaration)
        let sql = try fixture.fetchSQL("score BETWEEN %@", [Self.bounds], expected: 10)
        let plan = try fixture.plan(sql)
        #expect(Self.usesIndex(plan), "\(sql) → \(plan)")
    }

    @Test(arguments: IndexDeclaration.allCases)
    func aRangeOfComparisonsOnAnIndexedAttributeSearchesTheIndex(_ declaration: IndexDeclaration) throws {
        let fixture = try Fixture(declaration)
        let sql = try fixture.fetchSQL("score >= %@ AND score <= %@", Self.bounds, expected: 10)
        let plan = try fixture.plan(sql)
        #expect(Self.usesIndex(plan), "\(sql) → \(plan)")
    }

    @Test(arguments: IndexDeclaration.allCases)
    func equalityOnAnIndexedAttributeSearchesTheIndex(_ declaration: IndexDeclaration) throws {
        let fixture = try Fixture(declaration)
        let sql = try fixture.fetchSQL("score == %@", [NSNumber(value: 42)], expected: 1)
        let plan = try fixture.plan(sql)
        #expect(Self.usesIndex(plan), "\(sql) → \(plan)")
    }

    @Test func countingARangeOfAnIndexedAttributeSearchesTheIndex() throws {
        let fixture = try Fixture(.fetchIndex)
        let sql = try fixture.countSQL("score BETWEEN %@", [Self.bounds], expected: 10)
        let plan = try fixture.plan(sql)
        #expect(Self.usesIndex(plan), "\(sql) → \(plan)")
    }

    @Test func betweenOnAnUnindexedAttributeScansTheTable() throws {
        let fixture = try Fixture(.fetchIndex)
        let sql = try fixture.fetchSQL("plain BETWEEN %@", [Self.bounds], expected: 10)
        let plan = try fixture.plan(sql)
        #expect(Self.scansTable(plan), "\(sql) → \(plan)")
        #expect(!Self.usesIndex(plan), "\(sql) → \(plan)")
    }

    @Test(arguments: ["noindex:(score) BETWEEN %@", "noindex:(score) >= %@ AND noindex:(score) <= %@"])
    func noindexKeepsSQLiteFromTheIndex(_ format: String) throws {
        let fixture = try Fixture(.fetchIndex)
        let arguments = format.contains("BETWEEN") ? [Self.bounds] : Self.bounds
        let sql = try fixture.fetchSQL(format, arguments, expected: 10)
        let plan = try fixture.plan(sql)
        #expect(Self.scansTable(plan), "\(sql) → \(plan)")
        #expect(!Self.usesIndex(plan), "\(sql) → \(plan)")
    }
}
