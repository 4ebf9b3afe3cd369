@testable import CoreData
import CoreDataPostgreSQL
import Testing

/// The conformance dataset (`ConformanceModel`) saved once per test run in a SQLite store and in
/// an in-memory store, shared by the store suites: building it is the slow part of a case.
enum ConformanceStores {
    private static let sqliteStack = Result { try populated(NSSQLiteStoreType, with: ConformanceModel.insertRows) }
    private static let inMemoryStack = Result { try populated(NSInMemoryStoreType, with: ConformanceModel.insertRows) }
    private static let postgreSQLStack = CtxPostgreSQLServer.url.map { _ in Result { try populated(NSPostgreSQLStoreType, with: ConformanceModel.insertRows) } }

    static func sqlite() throws -> CtxStack { try sqliteStack.get() }
    static func inMemory() throws -> CtxStack { try inMemoryStack.get() }
    /// The dataset in a PostgreSQL store; nil without a server.
    static func postgreSQL() throws -> CtxStack? { try postgreSQLStack?.get() }
    /// The dataset in each store that answers fetches in SQL: SQLite, and PostgreSQL when there is a server.
    static func relational() throws -> [CtxStack] { try [sqlite()] + (postgreSQL().map { [$0] } ?? []) }

    /// A store of `ConformanceModel` holding the rows `insert` makes.
    static func populated(_ storeType: String, with insert: (NSManagedObjectContext) -> Void) throws -> CtxStack {
        let stack = try CtxStack(model: ConformanceModel.make(), storeType: storeType)
        try stack.context.performAndWait { () throws in
            insert(stack.context)
            try stack.context.save()
        }
        // A fresh coordinator reads what the file holds, not what the saving one cached.
        return storeType == NSInMemoryStoreType ? stack : try stack.reopened()
    }

    /// The sorted labels of the items a fetch with `predicate` returns.
    static func fetchedLabels(in stack: CtxStack, _ predicate: NSPredicate) throws -> String {
        try stack.context.performAndWait { () throws in
            let request = NSFetchRequest<NSManagedObject>(entityName: "Item")
            request.predicate = predicate
            return labels(try stack.context.fetch(request))
        }
    }

    /// The sorted labels of the items of the store for which `evaluate(with:)` is true.
    static func evaluatedLabels(in stack: CtxStack, _ predicate: NSPredicate) throws -> String {
        try stack.context.performAndWait { () throws in
            labels(try ctxFetch("Item", in: stack.context).filter { predicate.evaluate(with: $0) })
        }
    }

    /// Checks a case against the rows of an in-memory and a SQLite store: `evaluate(with:)` on
    /// the objects of both, and a fetch from each; and a fetch from the PostgreSQL store, which
    /// answers what the SQLite store answers, when there is a server.
    static func expectAgreement(_ testCase: StoreCase, memory: CtxStack, sqlite: CtxStack, postgreSQL: CtxStack? = nil) throws {
        let inMemoryPredicate = try testCase.predicate(in: memory)
        let sqlitePredicate = try testCase.predicate(in: sqlite)
        #expect(try evaluatedLabels(in: memory, inMemoryPredicate) == testCase.expected, "evaluate(with:), in-memory objects")
        #expect(try evaluatedLabels(in: sqlite, sqlitePredicate) == testCase.expected, "evaluate(with:), SQLite objects")
        #expect(try fetchedLabels(in: memory, inMemoryPredicate) == testCase.expected, "in-memory store fetch")
        for stack in [sqlite] + (postgreSQL.map { [$0] } ?? []) {
            let predicate = try testCase.predicate(in: stack)
            let store = stack.storeType
            switch testCase.sqlite {
            case .agrees:
                #expect(try fetchedLabels(in: stack, predicate) == testCase.expected, "\(store) fetch")
            case .differs(let expected):
                #expect(try fetchedLabels(in: stack, predicate) == expected, "\(store) fetch")
            case .refuses(let text):
                let error = try #require(try fetchError(predicate, in: stack), "\(store) fetch must throw")
                #expect(error.domain == NSCocoaErrorDomain)
                #expect(error.explanation.contains(text.replacingOccurrences(of: "SQLite", with: store)), "\(error.explanation)")
            }
        }
    }

    /// The error a fetch with `predicate` from a stack (the SQLite one by default) throws, nil when it succeeds.
    static func fetchError(_ predicate: NSPredicate, entity: String = "Item", in stack: CtxStack? = nil) throws -> NSError? {
        let stack = try stack ?? sqlite()
        return stack.context.performAndWait {
            ctxError {
                let request = NSFetchRequest<NSManagedObject>(entityName: entity)
                request.predicate = predicate
                _ = try stack.context.fetch(request)
            }
        }
    }

    /// The owner named `name` in the stack's context, for arguments that are managed objects.
    static func owner(_ name: String, in stack: CtxStack) throws -> NSManagedObject {
        try stack.context.performAndWait { () throws in
            try #require(try ctxFetch("Owner", in: stack.context, "name == %@", [name]).first)
        }
    }

    private static func labels(_ items: [NSManagedObject]) -> String {
        items.compactMap { $0.value(forKey: "label") as? String }.sorted().joined()
    }
}
