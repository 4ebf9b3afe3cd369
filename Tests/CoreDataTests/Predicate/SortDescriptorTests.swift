import Testing
@testable import CoreData

/// `NSSortDescriptor` ordering (nil first, numbers, strings, dates), its comparison selectors and
/// comparator blocks, and its object model.
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
        #expect(descriptor.compare(["s": "e\u{301}"], to: ["s": "\u{e9}"]) == .orderedAscending, "by bytes, as Apple's SQLite store sorts")
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

    // MARK: Selectors

    @Test func selectorsNameFoundationsStringComparisons() {
        func order(_ selector: Selector, _ lhs: String, _ rhs: String) -> ComparisonResult {
            NSSortDescriptor(key: "s", ascending: true, selector: selector).compare(["s": lhs], to: ["s": rhs])
        }
        #expect(order("compare:", "B", "a") == .orderedAscending)
        #expect(order("caseInsensitiveCompare:", "B", "a") == .orderedDescending)
        #expect(order("caseInsensitiveCompare:", "ABC", "abc") == .orderedSame)
        #expect(order("localizedCompare:", "B", "a") == "B".localizedCompare("a"))
        #expect(order("localizedCaseInsensitiveCompare:", "B", "a") == .orderedDescending)
        #expect(order("localizedStandardCompare:", "file10", "file2") == .orderedDescending, "numbers by value")
        #expect(order("compare:", "file10", "file2") == .orderedAscending)
        for selector: Selector in ["compare:", "caseInsensitiveCompare:", "localizedCompare:", "localizedCaseInsensitiveCompare:", "localizedStandardCompare:"] {
            let comparison = SortComparison(selector)
            #expect(comparison?.selector == selector)
            #expect(comparison?.compare("file10", "File2") == NSSortDescriptor(key: nil, ascending: true, selector: selector).compare("file10", to: "File2"))
        }
    }

    /// `compare:` orders strings by their UTF-8 bytes, as Apple's SQLite store sorts them:
    /// Foundation's order wherever no canonically equivalent spelling or character beyond
    /// U+FFFF is involved, and byte order (SQLite's BINARY collation) always.
    @Test func compareOrdersStringsByTheirBytes() {
        let strings = ["", "a", "ab", "abc", "abd", "B", "e", "e\u{301}", "e\u{301}z", "\u{e9}", "f", "ea", "Zoë", "Zoe",
                       "a\u{0}b", "a\u{0}", "\u{1F600}", "\u{FFFD}", "abc\u{301}", "abd\u{301}"]
        for lhs in strings {
            for rhs in strings {
                let order = SortComparison.compare.compare(lhs, rhs)
                #expect(order == SortComparison.compare.order(lhs, rhs))
                let bytes = Array(lhs.utf8).lexicographicallyPrecedes(Array(rhs.utf8)) ? ComparisonResult.orderedAscending
                    : Array(rhs.utf8).lexicographicallyPrecedes(Array(lhs.utf8)) ? .orderedDescending : .orderedSame
                #expect(order == bytes, "\(lhs.debugDescription) vs \(rhs.debugDescription)")
            }
        }
        #expect(SortComparison.compare.compare("B", "a") == .orderedAscending, "case-sensitive, as Foundation")
        #expect(SortComparison.compare.compare("Zoe", "Zoë") == "Zoe".compare("Zoë"), "precomposed accents as Foundation")
        #expect(SortComparison.compare.compare("e\u{301}", "\u{e9}") == .orderedAscending, "a decomposed accent by its bytes")
    }

    /// Sort-key values (what fetched results controllers compare) order as the values themselves
    /// do, whatever form they come in: from objects, or straight from a store's columns.
    @Test func sortKeyValuesOrderAsTheirValues() {
        let date = Date(timeIntervalSinceReferenceDate: 100)
        let values: [Any?] = [nil, NSNull(), NSNumber(value: 1), NSNumber(value: 2.5), NSNumber(value: Double.nan), NSNumber(value: true),
                              NSNumber(value: Int64.max), NSNumber(value: Double(Int64.max)), NSDecimalNumber(string: "2.25"), "b", "B", "e\u{301}", "f",
                              date, date.addingTimeInterval(1), Data([1])]
        for comparison in [SortComparison.compare, .caseInsensitiveCompare] {
            for lhs in values {
                for rhs in values {
                    #expect(SortKeyValue(lhs).order(SortKeyValue(rhs), by: comparison) == comparison.order(lhs, rhs), "\(String(describing: lhs)) vs \(String(describing: rhs))")
                }
            }
        }
        #expect(SortKeyValue.integer(2).order(SortKeyValue(NSNumber(value: 2.5)), by: .compare) == .orderedAscending)
        #expect(SortKeyValue.double(2.5).order(SortKeyValue(NSNumber(value: 2)), by: .compare) == .orderedDescending)
        #expect(SortKeyValue.string("a").order(.null, by: .compare) == .orderedDescending)
    }

    @Test func stringSelectorsOrderOtherValuesAsCompareDoes() {
        let descriptor = NSSortDescriptor(key: "v", ascending: true, selector: Selector("localizedStandardCompare:"))
        #expect(descriptor.compare(["v": 10], to: ["v": 9]) == .orderedDescending)
        #expect(descriptor.compare([String: Any](), to: ["v": "a"]) == .orderedAscending, "nil first")
        #expect(descriptor.compare(["v": Date(timeIntervalSinceReferenceDate: 1)], to: ["v": Date(timeIntervalSinceReferenceDate: 2)]) == .orderedAscending)
    }

    @Test func aNilSelectorMeansCompare() {
        let descriptor = NSSortDescriptor(key: "name", ascending: true, selector: nil)
        #expect(descriptor.selector == Selector("compare:"))
        #expect(descriptor == NSSortDescriptor(key: "name", ascending: true))
    }

    @Test func unknownSelectorsOrderNothingAndMakeSortingThrow() {
        let descriptor = NSSortDescriptor(key: "s", ascending: true, selector: Selector("compareBackwards:"))
        #expect(descriptor.compare(["s": "a"], to: ["s": "b"]) == .orderedSame)
        #expect(descriptor.comparator("a", "b") == .orderedSame)
        let error = ctxError { _ = try SortOrdering.sorted([["s": "b"], ["s": "a"]], by: [descriptor]) }
        #expect(error?.domain == NSCocoaErrorDomain)
        #expect(error?.explanation.contains("compareBackwards:") == true)
    }

    @Test func selectorsAreTheirNames() {
        let selector = Selector("localizedStandardCompare:")
        let literal: Selector = "localizedStandardCompare:"
        #expect(selector == literal)
        #expect(selector.hashValue == literal.hashValue)
        #expect(selector != Selector("compare:"))
        #expect(selector.description == "localizedStandardCompare:")
        #expect("\(selector)" == "localizedStandardCompare:")
    }

    // MARK: Comparators

    @Test func comparatorsOrderNonNilValues() {
        let byLength = NSSortDescriptor(key: "s", ascending: true) { lhs, rhs in
            let lhs = (lhs as? String)?.count ?? 0
            let rhs = (rhs as? String)?.count ?? 0
            return lhs < rhs ? .orderedAscending : lhs > rhs ? .orderedDescending : .orderedSame
        }
        #expect(byLength.compare(["s": "ccc"], to: ["s": "dd"]) == .orderedDescending)
        #expect(byLength.compare([String: Any](), to: ["s": ""]) == .orderedAscending, "nil first, without calling the block")
        #expect(byLength.selector == nil)
        #expect(byLength.comparator("a", "bb") == .orderedAscending)
        let reversed = byLength.reversedSortDescriptor as? NSSortDescriptor
        #expect(reversed?.compare(["s": "ccc"], to: ["s": "dd"]) == .orderedAscending)
        #expect(reversed?.selector == nil)
        #expect(reversed?.key == "s")
        #expect((reversed?.reversedSortDescriptor as? NSSortDescriptor) == byLength, "the reverse of the reverse is the same block")
        #expect(byLength != NSSortDescriptor(key: "s", ascending: true) { _, _ in .orderedSame }, "blocks cannot be compared")
        #expect(byLength != NSSortDescriptor(key: "s", ascending: true))
        #expect(byLength.description == "(s, ascending, (null))")
        let sorted = try? SortOrdering.sorted([["s": "ccc"], ["s": "a"], [:], ["s": "bb"]], by: [byLength])
        #expect(sorted?.map { $0["s"] ?? "nil" } == ["nil", "a", "bb", "ccc"])
    }

    @Test func selectorDescriptorsHaveAValueComparator() {
        let descriptor = NSSortDescriptor(key: "s", ascending: false, selector: Selector("caseInsensitiveCompare:"))
        #expect(descriptor.comparator("B", "a") == .orderedDescending, "values in ascending order, whatever the direction")
    }

    // MARK: Object model with selectors

    @Test func selectorsArePartOfTheObjectModel() throws {
        let standard = NSSortDescriptor(key: "name", ascending: true, selector: Selector("localizedStandardCompare:"))
        #expect(standard.description == "(name, ascending, localizedStandardCompare:)")
        #expect(standard.selector == Selector("localizedStandardCompare:"))
        #expect(standard.keyPath == nil)
        #expect(standard == NSSortDescriptor(key: "name", ascending: true, selector: "localizedStandardCompare:"))
        #expect(standard.hash == NSSortDescriptor(key: "name", ascending: true, selector: "localizedStandardCompare:").hash)
        #expect(standard != NSSortDescriptor(key: "name", ascending: true))
        #expect(standard.hash != NSSortDescriptor(key: "name", ascending: true).hash)
        let reversed = try #require(standard.reversedSortDescriptor as? NSSortDescriptor)
        #expect(reversed.selector == Selector("localizedStandardCompare:"))
        #expect(reversed.description == "(name, descending, localizedStandardCompare:)")
        #expect(reversed.compare(["name": "file2"], to: ["name": "file10"]) == .orderedDescending)
        #expect(reversed.reversedSortDescriptor as? NSSortDescriptor == standard)
        standard.allowEvaluation()
        #expect(standard.compare(["name": "file2"], to: ["name": "file10"]) == .orderedAscending)
        #expect(NSSortDescriptor(key: nil, ascending: true).description == "((null), ascending, compare:)")
    }
}
