import CoreData
import CoreDataPostgreSQL
import Testing

/// Logs and metrics as a server sees them: `CoreDataObservabilityProbe`, built with the tests,
/// bootstraps swift-log and swift-metrics with handlers of its own, works with a store, and
/// prints what reached them. The SQL debug switch's levels; counters and the save timer, on
/// SQLite and, when there is a server, PostgreSQL.
@Suite struct ObservabilityTests {
    private static func probe(sqlDebugLevel: Int?, storeType: String = NSSQLiteStoreType) throws -> [String] {
        let directory = try SQLiteScratchDirectory("observability")
        defer { directory.remove() }
        var environment = ProcessInfo.processInfo.environment
        environment["COREDATA_SQL_DEBUG"] = sqlDebugLevel.map(String.init)
        let location = storeType == NSSQLiteStoreType ? directory.url.path : try #require(CtxPostgreSQLServer.url).absoluteString
        let run = try ProgramRun.run("CoreDataObservabilityProbe", [location], environment: environment)
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.errors.isEmpty, "Core Data wrote to standard error itself")
        return run.output.split(separator: "\n").map(String.init)
    }

    private static func metric(_ label: String, in lines: [String]) -> Int? {
        lines.first { $0.hasPrefix("METRIC \(label) ") }.flatMap { Int($0.split(separator: " ")[2]) }
    }

    @Test(arguments: MigrationScenario.relationalStoreTypes)
    func countersAndTheSaveTimerReachTheMetricsBackend(_ storeType: String) throws {
        let lines = try Self.probe(sqlDebugLevel: nil, storeType: storeType)
        #expect(lines.allSatisfy { $0.hasPrefix("LOG ") || $0.hasPrefix("METRIC ") }, "Core Data printed to standard output itself")
        #expect(!lines.contains { $0.hasPrefix("LOG CoreData.SQL") })
        #expect(Self.metric("coredata_fetches_total", in: lines) == 4)
        #expect(Self.metric("coredata_saves_total", in: lines) == 3)
        #expect(Self.metric("coredata_save_duration_seconds", in: lines) == 3)
        #expect(Self.metric("coredata_save_conflicts_total", in: lines) == 1)
        #expect(Self.metric("coredata_merges_total", in: lines) == 1)
        #expect((Self.metric("coredata_rows_fetched_total", in: lines) ?? 0) >= 3)
        #expect((Self.metric("coredata_faults_fired_total", in: lines) ?? 0) >= 3)
        #expect((Self.metric("coredata_row_cache_hits_total", in: lines) ?? 0) >= 1)
    }

    @Test func sqlDebugLevelOneLogsEachStatementAndItsTime() throws {
        let lines = try Self.probe(sqlDebugLevel: 1)
        #expect(lines.contains("LOG CoreData.SQL debug sql: INSERT INTO ZITEM (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (?, ?, ?, ?)"), "\(lines.filter { $0.contains("INSERT") })")
        #expect(lines.contains { $0.hasPrefix("LOG CoreData.SQL debug annotation: sql execution time: ") })
        #expect(!lines.contains { $0.contains("EXPLAIN QUERY PLAN") })
    }

    @Test(.enabled(if: CtxPostgreSQLServer.url != nil))
    func thePostgreSQLStoreLogsEachStatementAndItsTimeFromLevelOne() throws {
        let lines = try Self.probe(sqlDebugLevel: 1, storeType: NSPostgreSQLStoreType)
        #expect(lines.contains { $0.hasPrefix("LOG CoreData.SQL debug sql: INSERT INTO ZITEM") }, "\(lines.prefix(20))")
        #expect(lines.contains { $0.hasPrefix("LOG CoreData.SQL debug annotation: sql execution time: ") })
    }

    @Test func sqlDebugLevelTwoShowsTheBoundValues() throws {
        let lines = try Self.probe(sqlDebugLevel: 2)
        #expect(lines.contains { $0.hasPrefix("LOG CoreData.SQL debug sql: INSERT INTO ZITEM") && $0.contains("'a'") })
        #expect(lines.contains { $0.hasPrefix("LOG CoreData.SQL debug sql: UPDATE ZITEM") && $0.contains("'first'") })
    }

    @Test func sqlDebugLevelThreeAddsTheQueryPlans() throws {
        let lines = try Self.probe(sqlDebugLevel: 3)
        #expect(lines.contains("LOG CoreData.SQL debug details: SQLite: EXPLAIN QUERY PLAN: SCAN t0"), "\(lines.filter { $0.contains("EXPLAIN") })")
        #expect(!lines.contains { $0.contains("sql: EXPLAIN") })
    }
}
