@testable import CoreData
import Foundation
import Testing

/// `scalarValue(atPropertyIndex:named:)` and `setScalarValue(_:atPropertyIndex:named:)`, which
/// generated scalar accessors call: the same results as the boxed path, without its `NSNumber`.
@Suite struct ScalarAccessorTests {
    private let stack: CtxStack

    init() throws {
        stack = try CtxStack(model: CtxGraphModel.make())
    }

    private func slot(_ name: String, of object: NSManagedObject) -> Int {
        object.layout.slotIndex(forKey: name)!
    }

    @Test func everyScalarTypeReadsWhatItWrote() {
        stack.context.performAndWait {
            let item = ctxInsert("Item", into: stack.context)
            item.setScalarValue(Int16(-2), atPropertyIndex: slot("int16", of: item), named: "int16")
            item.setScalarValue(Int32(70_000), atPropertyIndex: slot("int32", of: item), named: "int32")
            item.setScalarValue(Int64.min, atPropertyIndex: slot("int64", of: item), named: "int64")
            item.setScalarValue(2.25, atPropertyIndex: slot("double", of: item), named: "double")
            item.setScalarValue(Float(0.1), atPropertyIndex: slot("float", of: item), named: "float")
            item.setScalarValue(true, atPropertyIndex: slot("bool", of: item), named: "bool")
            #expect(item.scalarValue(atPropertyIndex: slot("int16", of: item), named: "int16") == Int16(-2))
            #expect(item.scalarValue(atPropertyIndex: slot("int32", of: item), named: "int32") == Int32(70_000))
            #expect(item.scalarValue(atPropertyIndex: slot("int64", of: item), named: "int64") == Int64.min)
            #expect(item.scalarValue(atPropertyIndex: slot("double", of: item), named: "double") == 2.25)
            #expect(item.scalarValue(atPropertyIndex: slot("float", of: item), named: "float") == Float(0.1))
            #expect(item.scalarValue(atPropertyIndex: slot("bool", of: item), named: "bool") == true)
            #expect(item.value(forKey: "int32") as? NSNumber == 70_000)
            #expect(item.value(forKey: "float") as? NSNumber == NSNumber(value: Float(0.1)))
            #expect(Set(item.changedValues().keys) == ["int16", "int32", "int64", "double", "float", "bool"])
        }
    }

    @Test func nilReadsAsZeroAndAValueOfAnotherTypeAsItsNumber() {
        stack.context.performAndWait {
            let item = ctxInsert("Item", into: stack.context)
            #expect(item.scalarValue(atPropertyIndex: slot("int64", of: item), named: "int64") == Int64(0))
            #expect(item.scalarValue(atPropertyIndex: slot("bool", of: item), named: "bool") == false)
            item.setValue(3.9, forKey: "int64")
            #expect(item.scalarValue(atPropertyIndex: slot("int64", of: item), named: "int64") == Int64(3))
            item.setValue("many", forKey: "int64")
            #expect(item.scalarValue(atPropertyIndex: slot("int64", of: item), named: "int64") == Int64(0))
            item.setScalarValue(Int64(5), atPropertyIndex: slot("int64", of: item), named: "int64")
            #expect(item.value(forKey: "int64") as? NSNumber == 5)
            #expect(item.invalidSlots.isEmpty)
            // A Double for an integer attribute is stored as the number it is, as setValue does.
            item.setScalarValue(2.5, atPropertyIndex: slot("int64", of: item), named: "int64")
            #expect(item.value(forKey: "int64") as? NSNumber == 2.5)
        }
    }

    @Test(arguments: [-1, 0, 99])
    func anIndexThatDoesNotMatchTheNameFallsBackToTheName(index: Int) {
        stack.context.performAndWait {
            let item = ctxInsert("Item", into: stack.context)
            item.setScalarValue(Int32(9), atPropertyIndex: index, named: "int32")
            #expect(item.value(forKey: "int32") as? NSNumber == 9)
            #expect(item.scalarValue(atPropertyIndex: index, named: "int32") == Int32(9))
            #expect(item.value(forKey: "int16") == nil)
        }
    }

    @Test func readingAFaultFiresItAndWritingItRecordsTheChange() throws {
        try stack.context.performAndWait {
            _ = ctxInsert("Item", into: stack.context, ["int64": 41, "double": 0.5])
            try stack.context.save()
            stack.context.reset()
            let request = NSFetchRequest<NSManagedObject>(entityName: "Item")
            request.returnsObjectsAsFaults = true
            let item = try #require(try stack.context.fetch(request).first)
            #expect(item.scalarValue(atPropertyIndex: slot("int64", of: item), named: "int64") == Int64(41))
            #expect(!item.isFault)
            item.setScalarValue(Int64(42), atPropertyIndex: slot("int64", of: item), named: "int64")
            #expect(item.isUpdated)
            #expect(item.changedValues()["int64"] as? NSNumber == 42)
            #expect(item.committedValues(forKeys: ["int64"])["int64"] as? NSNumber == 41)
            try stack.context.save()
            stack.context.reset()
            let saved = try #require(try stack.context.fetch(request).first)
            #expect(saved.value(forKey: "int64") as? NSNumber == 42)
            #expect(saved.scalarValue(atPropertyIndex: slot("double", of: saved), named: "double") == 0.5)
        }
    }

    @Test func anUndoManagerRestoresTheValueAWordReplaced() throws {
        try stack.context.performAndWait {
            stack.context.undoManager = UndoManager()
            let item = ctxInsert("Item", into: stack.context, ["int16": 1])
            try stack.context.save()
            stack.context.processPendingChanges()
            item.setScalarValue(Int16(2), atPropertyIndex: slot("int16", of: item), named: "int16")
            stack.context.processPendingChanges()
            stack.context.undo()
            #expect(item.value(forKey: "int16") as? NSNumber == 1)
            #expect(!item.hasChanges)
        }
    }
}
