@testable import CoreData
import Foundation
import Testing

/// `RowSnapshot` and `SlotValues`: scalars in words, made into `NSNumber` and `Date` only when
/// read, and every value given back as it was set.
@Suite struct RowSnapshotTests {
    private let layout: EntityLayout

    init() throws {
        layout = try #require(CtxGraphModel.make().entitiesByName["Item"]).layout
    }

    private func slot(_ name: String) -> Int {
        layout.slotIndex(forKey: name)!
    }

    private func roundTrip(_ value: Any?, _ name: String) -> Any? {
        var values = SlotValues(plan: layout.storagePlan)
        values[slot(name)] = value
        return values[slot(name)]
    }

    @Test func aNewRowIsNilEverywhere() {
        let values = SlotValues(plan: layout.storagePlan)
        for slot in values.indices {
            #expect(values[slot] == nil)
        }
        #expect(values.count == layout.slots.count)
    }

    @Test func integersKeepTheirWidthAndValue() {
        #expect(roundTrip(NSNumber(value: Int16(-7)), "int16") as? NSNumber == -7)
        #expect(roundTrip(NSNumber(value: Int32.max), "int32") as? NSNumber == NSNumber(value: Int32.max))
        #expect(roundTrip(NSNumber(value: Int64.min), "int64") as? NSNumber == NSNumber(value: Int64.min))
        #expect((roundTrip(NSNumber(value: 5), "int16") as? NSNumber)?.int16Value == 5)
    }

    @Test func anIntegerTooWideForItsAttributeIsKeptUntilSaved() {
        // As Apple's object storage keeps the number it was given; the store truncates.
        #expect(roundTrip(NSNumber(value: 70_000), "int16") as? NSNumber == 70_000)
        #expect(roundTrip(NSNumber(value: UInt64.max), "int64") as? NSNumber == NSNumber(value: UInt64.max))
    }

    @Test func zeroIsNotNil() {
        #expect(roundTrip(NSNumber(value: 0), "int64") as? NSNumber == 0)
        #expect(roundTrip(NSNumber(value: 0.0), "double") as? NSNumber == 0)
        #expect(roundTrip(NSNumber(value: false), "bool") as? NSNumber == false)
        #expect(roundTrip(Date(timeIntervalSinceReferenceDate: 0), "date") as? Date == Date(timeIntervalSinceReferenceDate: 0))
        #expect(roundTrip(nil, "int64") == nil)
        var values = SlotValues(plan: layout.storagePlan)
        values[slot("int64")] = NSNumber(value: 3)
        values[slot("int64")] = nil
        #expect(values[slot("int64")] == nil)
        #expect(values.word(atSlot: slot("int64")) == nil)
    }

    @Test func floatingPointValuesAndNaN() {
        #expect(roundTrip(NSNumber(value: 0.1), "double") as? NSNumber == NSNumber(value: 0.1))
        #expect(roundTrip(NSNumber(value: Float(0.1)), "float") as? NSNumber == NSNumber(value: Float(0.1)))
        #expect((roundTrip(NSNumber(value: Double.nan), "double") as? NSNumber)?.doubleValue.isNaN == true)
        #expect((roundTrip(NSNumber(value: Float.nan), "float") as? NSNumber)?.floatValue.isNaN == true)
        #expect(roundTrip(NSNumber(value: -Double.infinity), "double") as? NSNumber == NSNumber(value: -Double.infinity))
    }

    @Test func booleans() {
        #expect(roundTrip(NSNumber(value: true), "bool") as? Bool == true)
        #expect(roundTrip(NSNumber(value: false), "bool") as? Bool == false)
        #expect(roundTrip(NSNumber(value: 5), "bool") as? NSNumber == 5)
    }

    @Test func datesKeepEveryBit() {
        let date = Date(timeIntervalSinceReferenceDate: 123_456.789_012_345)
        #expect(roundTrip(date, "date") as? Date == date)
        #expect(roundTrip(Date.distantPast, "date") as? Date == Date.distantPast)
    }

    @Test func aNumberOfAnotherKindIsKeptAsItWasSet() {
        // An integer given to a double attribute, a double to an integer one: kept exactly.
        #expect(String(describing: roundTrip(NSNumber(value: 3), "double")!) == "3")
        #expect(roundTrip(NSNumber(value: 3.7), "int64") as? NSNumber == 3.7)
        #expect(roundTrip(NSDecimalNumber(string: "1.25"), "double") as? NSDecimalNumber == NSDecimalNumber(string: "1.25"))
    }

    @Test func aValueOfTheWrongTypeIsParkedForValidation() {
        var values = SlotValues(plan: layout.storagePlan)
        values[slot("int64")] = "twelve"
        #expect(values[slot("int64")] as? String == "twelve")
        #expect(values.word(atSlot: slot("int64")) == nil)
        values[slot("int64")] = NSNumber(value: 12)
        #expect(values[slot("int64")] as? NSNumber == 12)
        values[slot("date")] = "yesterday"
        values[slot("date")] = nil
        #expect(values[slot("date")] == nil)
    }

    @Test func referenceValues() {
        let decimal = NSDecimalNumber(string: "12345.6789")
        #expect(roundTrip(decimal, "decimal") as? NSDecimalNumber == decimal)
        #expect(roundTrip("héllo", "string") as? String == "héllo")
        #expect(roundTrip(Data([1, 2, 3]), "data") as? Data == Data([1, 2, 3]))
        let uuid = UUID()
        #expect(roundTrip(uuid, "uuid") as? UUID == uuid)
        #expect(roundTrip(URL(string: "https://example.com/a")!, "uri") as? URL == URL(string: "https://example.com/a")!)
    }

    @Test func lazyExternalDataStaysUnloadedInItsCell() throws {
        let entity = NSEntityDescription()
        entity.name = "Blob"
        let blob = NSAttributeDescription()
        blob.name = "blob"
        blob.attributeType = .binaryDataAttributeType
        blob.allowsExternalBinaryDataStorage = true
        entity.properties = [blob]
        final class Pending: LazyAttributeValue {
            func load() -> Any? { Data([9]) }
        }
        var values = SlotValues(plan: entity.layout.storagePlan)
        values[0] = Pending()
        let lazy = try #require(values[0] as? LazyAttributeValue)
        #expect(lazy.load() as? Data == Data([9]))
    }

    @Test func aSharedRowIsCopiedOnTheFirstChangeOnly() {
        let row = RowSnapshot.make(plan: layout.storagePlan, objectID: nil)
        var shared = row.values
        shared[slot("string")] = "a"
        #expect(row.values[slot("string")] == nil)
        #expect(shared.row !== row)
        let copied = shared.row.map(ObjectIdentifier.init)
        shared[slot("int16")] = NSNumber(value: 1)
        #expect(shared.row.map(ObjectIdentifier.init) == copied)
        #expect(shared[slot("string")] as? String == "a")
    }

    @Test func sameValueComparesWordsAndValues() {
        var first = SlotValues(plan: layout.storagePlan)
        var second = SlotValues(plan: layout.storagePlan)
        first[slot("double")] = NSNumber(value: Double.nan)
        second[slot("double")] = NSNumber(value: Double.nan)
        #expect(first.hasSameValue(atSlot: slot("double"), as: second))
        first[slot("int64")] = NSNumber(value: 1)
        #expect(!first.hasSameValue(atSlot: slot("int64"), as: second))
        second[slot("int64")] = NSNumber(value: Int16(1))
        #expect(first.hasSameValue(atSlot: slot("int64"), as: second))
        first[slot("string")] = "x"
        second[slot("string")] = "x"
        #expect(first.hasSameValue(atSlot: slot("string"), as: second))
    }
}
