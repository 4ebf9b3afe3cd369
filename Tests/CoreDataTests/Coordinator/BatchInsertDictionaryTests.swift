@testable import CoreData
import Foundation
import Testing

/// The dictionary a batch insert hands its dictionary handler behaves as the
/// `NSMutableDictionary` it is, whichever of Foundation's methods the handler uses.
@Suite struct BatchInsertDictionaryTests {
    @Test func itReadsAndWritesAsAMutableDictionary() throws {
        let dictionary = BatchInsertDictionary(keys: .init(["name", "count"]))
        #expect(dictionary.count == 0)
        dictionary["count"] = NSNumber(value: 3)
        dictionary.setObject("a", forKey: NSString(string: "name"))
        dictionary["colour"] = "red"
        #expect(dictionary.count == 3)
        #expect(dictionary["name"] as? String == "a")
        #expect(dictionary.object(forKey: "count") as? NSNumber == 3)
        #expect(dictionary["colour"] as? String == "red")
        #expect(Set(dictionary.allKeys.compactMap { $0 as? String }) == ["name", "count", "colour"])
        var entries: [String: String] = [:]
        for (key, value) in dictionary { entries["\(key)"] = "\(value)" }
        #expect(entries == ["name": "a", "count": "3", "colour": "red"])
        #expect(dictionary.values.compactMap { $0 as? String } == ["a"])
        #expect(dictionary.otherEntries.count == 1)

        dictionary["name"] = nil
        dictionary.removeObject(forKey: "colour")
        dictionary.removeObject(forKey: "missing")
        #expect(dictionary.count == 1)
        #expect(dictionary["name"] == nil)
        #expect(dictionary.otherEntries.isEmpty)
        let copy = try #require(dictionary.copy() as? NSDictionary)
        #expect(copy["count"] as? NSNumber == 3 && copy.count == 1)
    }

    @Test(arguments: MigrationScenario.relationalStoreTypes)
    func aHandlerFillingItWithForeignKeysOrWrongTypesFails(storeType: String) throws {
        let store = try BatchTestStore(storeType)
        defer { store.close() }
        var calls = 0
        let unknown = NSBatchInsertRequest(entityName: "Item", dictionaryHandler: { dictionary in
            calls += 1
            guard calls == 1 else { return true }
            dictionary.addEntries(from: ["name": "a", "colour": "red"])
            return false
        })
        #expect(throws: NSError.self) { try store.execute(unknown) }
        let wrongType = NSBatchInsertRequest(entityName: "Item", dictionaryHandler: { dictionary in
            dictionary.setDictionary(["name": "b", "count": "many"])
            return dictionary.count > 2
        })
        #expect(throws: NSError.self) { try store.execute(wrongType) }
        #expect(try store.rowCount(of: "ZITEM") == 0)
    }
}
