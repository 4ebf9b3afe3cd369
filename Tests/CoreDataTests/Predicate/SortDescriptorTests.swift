import Testing
@testable import CoreData

/// `NSSortDescriptor` ordering (nil first, numbers, strings, dates) and its object model.
@Suite("Sort descriptors")
struct SortDescriptorTests {
    private func sorted(_ objects: [[String: Any]], by descriptor: NSSortDescriptor) -> [[String: Any]] {
        objects.sorted { descriptor.compare($0, to: $1) == .orderedAscending }
    }

    @Test func numbersSortNumericallyAcrossTypes() {
        let objects: [[String: Any]] = [["n": 10], ["n": 2.5], ["n": NSNumber(value: 3)], ["n": true]]
        let ascending = sorted(objects, by: NSSortDescriptor(key: "n", ascending: true))
        #expect(ascending.compactMap { ($0["n"] as? NSNumber)?.doubleValue } == [1, 2.5, 3, 10])
        let descending = sorted(objects, by: NSSortDescriptor(key: "n", ascending: false))
        #expect(descending.compactMap { ($0["n"] as? NSNumber)?.doubleValue } == [10, 3, 2.5, 1])
    }

    @Test func nilSortsBeforeEverything() {
        let descriptor = NSSortDescriptor(key: "n", ascending: true)
        #expect(descriptor.compare(["n": NSNull()], to: ["n": 1]) == .orderedAscending)
        #expect(descriptor.compare([String: Any](), to: ["n": "a"]) == .orderedAscending)
        #expect(descriptor.compare(["n": 1], to: [String: Any]()) == .orderedDescending)
        #expect(descriptor.compare([String: Any](), to: ["n": NSNull()]) == .orderedSame)
        #expect(NSSortDescriptor(key: "n", ascending: false).compare([String: Any](), to: ["n": 1]) == .orderedDescending)
    }

    @Test func stringsUseCompareWhichIsCaseSensitive() {
        let descriptor = NSSortDescriptor(key: "s", ascending: true)
        #expect(descriptor.compare(["s": "Bob"], to: ["s": "alice"]) == .orderedAscending, "upper case sorts first")
        #expect(descriptor.compare(["s": "alice"], to: ["s": "bob"]) == .orderedAscending)
        #expect(descriptor.compare(["s": "e\u{301}"], to: ["s": "\u{e9}"]) == .orderedSame, "compare: is not literal")
        #expect(descriptor.compare(["s": "a"], to: ["s": "a"]) == .orderedSame)
    }

    @Test func datesSortChronologically() {
        let descriptor = NSSortDescriptor(key: "d", ascending: true)
        let early = ["d": Date(timeIntervalSinceReferenceDate: 0)]
        let late = ["d": Date(timeIntervalSinceReferenceDate: 10)]
        #expect(descriptor.compare(early, to: late) == .orderedAscending)
        #expect(descriptor.compare(late, to: early) == .orderedDescending)
    }

    @Test func keyPathsAndNilKeys() {
        let descriptor = NSSortDescriptor(key: "address.city", ascending: true)
        #expect(descriptor.compare(["address": ["city": "Bern"]], to: ["address": ["city": "Zug"]]) == .orderedAscending)
        #expect(descriptor.keyPathComponents == ["address", "city"])
        let selfDescriptor = NSSortDescriptor(key: nil, ascending: true)
        #expect(selfDescriptor.compare(1, to: 2) == .orderedAscending)
        #expect(selfDescriptor.keyPathComponents == nil)
    }

    @Test func incomparableAndUnreadableValuesTie() {
        let descriptor = NSSortDescriptor(key: "v", ascending: true)
        #expect(descriptor.compare(["v": "a"], to: ["v": 1]) == .orderedSame)
        #expect(descriptor.compare(1, to: 2) == .orderedSame, "a key numbers do not have reads as nil")
    }

    @Test func objectModel() throws {
        let descriptor = NSSortDescriptor(key: "name", ascending: true)
        #expect(descriptor.key == "name")
        #expect(descriptor.ascending)
        let reversed = try #require(descriptor.reversedSortDescriptor as? NSSortDescriptor)
        #expect(reversed.key == "name")
        #expect(!reversed.ascending)
        #expect(descriptor == NSSortDescriptor(key: "name", ascending: true))
        #expect(descriptor != reversed)
        #expect(descriptor.hash == NSSortDescriptor(key: "name", ascending: true).hash)
        #expect(descriptor.copy() as? NSSortDescriptor == descriptor)
        #expect(descriptor.description == "(name, ascending, compare:)")
        #expect(reversed.description == "(name, descending, compare:)")
    }
}
