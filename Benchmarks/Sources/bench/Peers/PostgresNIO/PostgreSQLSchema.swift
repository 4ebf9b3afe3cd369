import Foundation
import PostgresNIO

/// A schema of its own on the benchmark's PostgreSQL server: for one run of one peer (empty, or a
/// copy of the workload's template schema), or for a template. It plays the part of the run's
/// store file in the SQLite workloads: made in set-up, read back after the body, dropped in
/// tear-down (`DROP SCHEMA … CASCADE`), all through a PostgresNIO connection of its own.
final class PostgreSQLSchema {
    /// The schema's name, `bench_<process id>_<n>`: lower-case, so that it needs no quotes.
    let name: String

    /// The server's URL, which the peers connect to.
    let serverURL: URL

    /// The connection that creates, copies, reads back and drops the schema.
    private let administration: PostgresNIOConnection

    /// Creates a new schema on the server; a copy of `template`'s tables, rows, keys, indexes
    /// and functions when one is given.
    init(copying template: String? = nil) throws {
        serverURL = try PostgreSQLServer.requiredURL()
        name = PostgreSQLServer.newSchemaName()
        administration = try PostgresNIOConnection(url: serverURL)
        do {
            try administration.execute("CREATE SCHEMA \(name)")
            try administration.execute("SET search_path TO \(name)")
            if let template {
                try copy(template)
            }
        } catch {
            drop()
            throw error
        }
    }

    /// Runs SQL without parameters in the schema.
    func execute(_ sql: String) throws {
        try administration.execute(sql)
    }

    /// Runs a query whose columns are all 64-bit integers in the schema and returns its first
    /// row: what a peer's run left in its store.
    func integers(_ sql: String) throws -> [Int64] {
        try administration.integers(sql)
    }

    /// Drops the schema and everything in it, and closes the connection.
    func drop() {
        try? administration.execute("DROP SCHEMA IF EXISTS \(name) CASCADE")
        administration.close()
    }

    /// A run of a peer in a schema of its own (a copy of `template`, if there is one): `open`
    /// makes the peer's connection or stack in the schema and `prepare` returns the body, both in
    /// set-up; `storeChecksum` (SQL whose columns are integers) reads back what reached the schema
    /// after the body. Tear-down closes what `open` made and drops the schema; a set-up that fails
    /// undoes what it made.
    static func preparedRun<Resource>(
        copying template: String?, storeChecksum: String?,
        open: (PostgreSQLSchema) throws -> Resource, close: @escaping (Resource) throws -> Void,
        prepare: (Resource) throws -> () throws -> Int64
    ) throws -> PreparedRun {
        let schema = try PostgreSQLSchema(copying: template)
        let resource: Resource
        let body: () throws -> Int64
        do {
            resource = try open(schema)
            do {
                body = try prepare(resource)
            } catch {
                try? close(resource)
                throw error
            }
        } catch {
            schema.drop()
            throw error
        }
        return PreparedRun(
            body: body,
            tearDown: {
                defer { schema.drop() }
                try close(resource)
            },
            storeChecksum: storeChecksum.map { sql in { try schema.integers(sql) } })
    }

    // MARK: Copying a template

    /// Copies the tables of `template` with their rows, then adds their constraints (primary
    /// keys) and indexes, as a bulk load does, then its functions (the store's `cd_…` SQL
    /// functions), and finally vacuums and analyzes the tables, so that every run reads tables in
    /// the same settled state (visibility map and statistics), as a server's autovacuum leaves them.
    private func copy(_ template: String) throws {
        let tables = try strings("SELECT tablename FROM pg_tables WHERE schemaname = $1 ORDER BY tablename", template)
        for table in tables {
            try administration.execute("CREATE TABLE \(name).\(table) (LIKE \(template).\(table) INCLUDING DEFAULTS)")
            try administration.execute("INSERT INTO \(name).\(table) SELECT * FROM \(template).\(table)")
        }
        let constraints = try administration.query(PostgresQuery(
            unsafeSQL: """
                SELECT c.relname, k.conname, pg_get_constraintdef(k.oid) FROM pg_constraint k
                JOIN pg_class c ON c.oid = k.conrelid WHERE k.connamespace = to_regnamespace($1) ORDER BY k.oid
                """,
            binds: bindings(template)))
        for row in constraints {
            let (table, constraint, definition) = try row.decode((String, String, String).self)
            try administration.execute("ALTER TABLE \(name).\(table) ADD CONSTRAINT \(constraint) \(definition)")
        }
        let indexes = try strings("""
            SELECT indexdef FROM pg_indexes WHERE schemaname = $1
            AND indexname NOT IN (SELECT conname FROM pg_constraint WHERE connamespace = to_regnamespace($1))
            """, template)
        for index in indexes {
            try administration.execute(index.replacingOccurrences(of: " ON \(template).", with: " ON \(name)."))
        }
        // The functions call one another by unqualified names, resolved when they run.
        try administration.execute("SET check_function_bodies = off")
        let functions = try strings("SELECT pg_get_functiondef(oid) FROM pg_proc WHERE pronamespace = to_regnamespace($1) ORDER BY oid", template)
        for function in functions {
            try administration.execute(function.replacingOccurrences(of: "FUNCTION \(template).", with: "FUNCTION \(name)."))
        }
        for table in tables {
            try administration.execute("VACUUM (ANALYZE) \(name).\(table)")
        }
    }

    /// The first column of every row of a query with one text parameter.
    private func strings(_ sql: String, _ parameter: String) throws -> [String] {
        try administration.query(PostgresQuery(unsafeSQL: sql, binds: bindings(parameter))).map { try $0.decode(String.self) }
    }

    private func bindings(_ text: String) -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 1)
        bindings.append(text)
        return bindings
    }
}
