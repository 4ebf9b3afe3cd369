@testable import CoreData
import Foundation
import Testing

/// The SQLite store reads scalar columns straight into a row's words and writes them from the
/// words, with the same conversions as the values they stand for.
@Suite struct SQLiteScalarWordTests {
    private static let scalarNames = ["int16", "int32", "int64", "double", "float", "bool", "date"]

    /// Saves one Item with `values`, then fetches it into a reset context.
    private func savedAndRefetched(_ values: [String: Any], _ body: (NSManagedObject) throws -> Void) throws {
        let stack = try CtxStack(model: CtxGraphModel.make())
        try stack.context.performAndWait {
            _ = ctxInsert("Item", into: stack.context, values)
            try stack.context.save()
            stack.context.reset()
            let item = try #require(try stack.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Item")).first)
            try body(item)
        }
    }

    @Test func fetchedScalarsAreWords() throws {
        let date = Date(timeIntervalSinceReferenceDate: 1234.5)
        let values: [String: Any] = ["int16": -3, "int32": 70_000, "int64": Int64.max, "double": 2.5, "float": Float(0.1), "bool": true, "date": date]
        try savedAndRefetched(values) { item in
            #expect(item.value(forKey: "int16") as? NSNumber == -3)
            for name in Self.scalarNames {
                #expect(item.values.word(atSlot: item.layout.slotIndex(forKey: name)!) != nil, "\(name)")
            }
            #expect(item.value(forKey: "int32") as? NSNumber == 70_000)
            #expect(item.value(forKey: "int64") as? NSNumber == NSNumber(value: Int64.max))
            #expect(item.value(forKey: "double") as? NSNumber == 2.5)
            #expect(item.value(forKey: "float") as? NSNumber == NSNumber(value: Float(0.1)))
            #expect(item.value(forKey: "bool") as? Bool == true)
            #expect(item.value(forKey: "date") as? Date == date)
        }
    }

    @Test func nilScalarsStayNil() throws {
        try savedAndRefetched([:]) { item in
            for name in Self.scalarNames {
                #expect(item.value(forKey: name) == nil, "\(name)")
            }
        }
    }

    @Test func valuesTheWordsCannotHoldAreWrittenAsBefore() throws {
        // Truncated to the attribute's width when read back; a double in an integer attribute
        // is written as its integer part; any non-zero Boolean as 1.
        try savedAndRefetched(["int16": 70_000, "int64": 3.7, "bool": 5, "double": 4]) { item in
            #expect(item.value(forKey: "int16") as? NSNumber == NSNumber(value: Int16(truncatingIfNeeded: 70_000)))
            #expect(item.value(forKey: "int64") as? NSNumber == 3)
            #expect(item.value(forKey: "bool") as? NSNumber == true)
            #expect(item.value(forKey: "double") as? NSNumber == 4.0)
        }
    }

    @Test func anUpdateWritesTheChangedWord() throws {
        let stack = try CtxStack(model: CtxGraphModel.make())
        try stack.context.performAndWait {
            let item = ctxInsert("Item", into: stack.context, ["int32": 1, "double": 1.5])
            try stack.context.save()
            item.setValue(NSNumber(value: Int32(2)), forKey: "int32")
            try stack.context.save()
            stack.context.reset()
            let fetched = try #require(try stack.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Item")).first)
            #expect(fetched.value(forKey: "int32") as? NSNumber == 2)
            #expect(fetched.value(forKey: "double") as? NSNumber == 1.5)
        }
    }
}
