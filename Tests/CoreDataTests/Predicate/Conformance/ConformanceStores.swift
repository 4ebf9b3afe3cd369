@testable import CoreData
import Testing

/// The conformance dataset (`ConformanceModel`) saved once per test run in a SQLite store and in
/// an in-memory store, shared by the store suites: building it is the slow part of a case.
enum ConformanceStores {
    private static let sqliteStack = Result { try populated(NSSQLiteStoreType, with: ConformanceModel.insertRows) }
    private static let inMemoryStack = Result { try populated(NSInMemoryStoreType, with: ConformanceModel.insertRows) }

    static func sqlite() throws -> CtxStack { try sqliteStack.get() }
    static func inMemory() throws -> CtxStack { try inMemoryStack.get() }

    /// A store of `ConformanceModel` holding the rows `insert` makes.
    static func populated(_ storeType: String, with insert: (NSManagedObjectContext) -> Void) throws -> CtxStack {
        let stack = try CtxStack(model: ConformanceModel.make(), storeType: storeType)
        try stack.context.performAndWait { () throws in
            insert(stack.context)
            try stack.context.save()
        }
        // A fresh coordinator reads what the file holds, not what the saving one cached.
        return storeType == NSSQLiteStoreType ? try stack.reopened() : stack
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
    /// the objects of both, and a fetch from each.
    static func expectAgreement(_ testCase: StoreCase, memory: CtxStack, sqlite: CtxStack) throws {
        let inMemoryPredicate = try testCase.predicate(in: memory)
        let sqlitePredicate = try testCase.predicate(in: sqlite)
        #expect(try evaluatedLabels(in: memory, inMemoryPredicate) == testCase.expected, "evaluate(with:), in-memory objects")
        #expect(try evaluatedLabels(in: sqlite, sqlitePredicate) == testCase.expected, "evaluate(with:), SQLite objects")
        #expect(try fetchedLabels(in: memory, inMemoryPredicate) == testCase.expected, "in-memory store fetch")
        switch testCase.sqlite {
        case .agrees:
            #expect(try fetchedLabels(in: sqlite, sqlitePredicate) == testCase.expected, "SQLite fetch")
        case .differs(let expected):
            #expect(try fetchedLabels(in: sqlite, sqlitePredicate) == expected, "SQLite fetch")
        case .refuses(let text):
            let error = try #require(try sqliteFetchError(sqlitePredicate, in: sqlite), "SQLite fetch must throw")
            #expect(error.domain == NSCocoaErrorDomain)
            #expect(error.explanation.contains(text), "\(error.explanation)")
        }
    }

    /// The error a SQLite fetch with `predicate` throws, nil when it succeeds.
    static func sqliteFetchError(_ predicate: NSPredicate, entity: String = "Item", in stack: CtxStack? = nil) throws -> NSError? {
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
