@testable import CoreData
import Foundation
import Testing

/// A managed object's values are the storage of the row it was fetched as until its first
/// change, and a new object reads its entity's defaults without a row of its own.
@Suite struct ObjectStorageTests {
    @Test func aFetchedObjectReadsTheRowItWasFetchedAsUntilItChanges() throws {
        let stack = try CtxStack(model: CtxGraphModel.make())
        try stack.context.performAndWait {
            _ = ctxInsert("Item", into: stack.context, ["int64": 7, "string": "seven"])
            try stack.context.save()
            stack.context.reset()
            let item = try #require(try stack.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Item")).first)
            #expect(item.value(forKey: "int64") as? NSNumber == 7)
            let row = try #require(item.snapshot)
            #expect(item.values.row === row)

            item.setValue(8, forKey: "int64")
            #expect(item.values.row !== row)
            #expect(row.values[item.layout.slotIndex(forKey: "int64")!] as? NSNumber == 7)
            #expect(item.committedValues(forKeys: ["int64"])["int64"] as? NSNumber == 7)
            #expect(item.changedValues().keys.sorted() == ["int64"])
            #expect(item.value(forKey: "string") as? String == "seven")
        }
    }

    @Test(arguments: [NSSQLiteStoreType, NSInMemoryStoreType])
    func aSavedObjectSharesItsValuesWithItsSnapshot(storeType: String) throws {
        let stack = try CtxStack(model: CtxGraphModel.make(), storeType: storeType)
        try stack.context.performAndWait {
            let item = ctxInsert("Item", into: stack.context, ["int64": 1])
            try stack.context.save()
            let snapshot = try #require(item.snapshot)
            // The in-memory store keeps the object's storage as its own row; the object's
            // snapshot is then a copy.
            if storeType == NSSQLiteStoreType { #expect(item.values.row === snapshot) }
            #expect(snapshot.objectID == item.objectID)
            item.setValue(2, forKey: "int64")
            #expect(snapshot.values[item.layout.slotIndex(forKey: "int64")!] as? NSNumber == 1)
            #expect(item.changedValues()["int64"] as? NSNumber == 2)
            try stack.context.save()
            #expect(item.snapshot?.values[item.layout.slotIndex(forKey: "int64")!] as? NSNumber == 2)
            #expect(snapshot.values[item.layout.slotIndex(forKey: "int64")!] as? NSNumber == 1)
        }
    }

    @Test func aNewObjectReadsItsDefaultsWithoutARow() {
        let entity = NSEntityDescription()
        entity.name = "Counter"
        let count = NSAttributeDescription()
        count.name = "count"
        count.attributeType = .integer32AttributeType
        count.defaultValue = 3
        let label = NSAttributeDescription()
        label.name = "label"
        label.attributeType = .stringAttributeType
        label.defaultValue = "none"
        entity.properties = [count, label]
        let object = NSManagedObject(entity: entity, insertInto: nil)
        #expect(object.values.row == nil)
        #expect(object.value(forKey: "count") as? NSNumber == 3)
        #expect(object.values.word(atSlot: 0) == 3)
        object.setValue(4, forKey: "count")
        #expect(object.value(forKey: "count") as? NSNumber == 4)
        #expect(object.value(forKey: "label") as? String == "none")
        #expect(NSManagedObject(entity: entity, insertInto: nil).value(forKey: "count") as? NSNumber == 3)
    }

    /// The setter puts a number or date that a scalar slot's word holds exactly straight into the
    /// word; it must store what the boxed path (normalize the value, then set the slot) stores.
    @Test func aScalarSetterStoresWhatTheBoxedPathStores() throws {
        let stack = try CtxStack(model: CtxGraphModel.make())
        let cases: [(key: String, value: Any)] = [
            ("int16", NSNumber(value: Int16(-7))), ("int16", 70_000), ("int32", Int32(5)), ("int64", NSNumber(value: Int64.min)),
            ("int64", UInt64.max), ("int64", 2.5), ("int64", NSDecimalNumber(string: "3")), ("int64", "many"),
            ("bool", true), ("bool", NSNumber(value: 2)), ("double", 1.25), ("double", Float(1.5)), ("double", 3),
            ("double", NSDecimalNumber(string: "0.1")), ("float", Float(0.1)), ("float", 0.1), ("double", NSNull()),
            ("date", Date(timeIntervalSinceReferenceDate: 1234.5)), ("date", NSDate(timeIntervalSinceReferenceDate: 9)), ("date", 9),
        ]
        try stack.context.performAndWait {
            for (key, value) in cases {
                let set = ctxInsert("Item", into: stack.context)
                let boxed = ctxInsert("Item", into: stack.context)
                let slot = try #require(set.layout.slotIndex(forKey: key))
                set.setValue(value, forKey: key)
                let normalized = AttributeValue.normalized(value, type: boxed.layout.attributeTypes[slot])
                boxed.values[slot] = normalized.value
                let read = set.value(forKey: key), expected = boxed.value(forKey: key)
                #expect(set.values.word(atSlot: slot) == boxed.values.word(atSlot: slot), "\(key) = \(value)")
                #expect(read.map { "\(type(of: $0)) \($0)" } == expected.map { "\(type(of: $0)) \($0)" }, "\(key) = \(value)")
                #expect(set.invalidSlots.contains(slot) == !normalized.isValid, "\(key) = \(value)")
                stack.context.delete(set)
                stack.context.delete(boxed)
            }
        }
    }

    @Test func aValueOfTheWrongTypeInAScalarAttributeIsReportedAtSave() throws {
        let stack = try CtxStack(model: CtxGraphModel.make())
        try stack.context.performAndWait {
            let item = ctxInsert("Item", into: stack.context)
            item.setValue("many", forKey: "int32")
            #expect(item.value(forKey: "int32") as? String == "many")
            #expect(throws: (any Error).self) { try stack.context.save() }
            item.setValue(12, forKey: "int32")
            try stack.context.save()
            stack.context.refresh(item, mergeChanges: false)
            #expect(item.value(forKey: "int32") as? NSNumber == 12)
        }
    }
}
