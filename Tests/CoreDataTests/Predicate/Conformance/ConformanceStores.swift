@testable import CoreData
import Testing

/// The conformance dataset (`ConformanceModel`) saved once per test run in a SQLite store and in
/// an in-memory store, shared by the store suites: building it is the slow part of a case.
enum ConformanceStores {
    private static let sqliteStack = Result { try populated(NSSQLiteStoreType) }
    private static let inMemoryStack = Result { try populated(NSInMemoryStoreType) }

    static func sqlite() throws -> CtxStack { try sqliteStack.get() }
    static func inMemory() throws -> CtxStack { try inMemoryStack.get() }

    private static func populated(_ storeType: String) throws -> CtxStack {
        let stack = try CtxStack(model: ConformanceModel.make(), storeType: storeType)
        try stack.context.performAndWait { () throws in
            ConformanceModel.insertRows(into: stack.context)
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

    /// The error a SQLite fetch with `predicate` throws, nil when it succeeds.
    static func sqliteFetchError(_ predicate: NSPredicate, entity: String = "Item") throws -> NSError? {
        let stack = try sqlite()
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
