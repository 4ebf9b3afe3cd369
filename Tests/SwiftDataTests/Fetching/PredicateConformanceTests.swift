import Foundation
import SwiftData
import Testing

/// The store's answer to each generated predicate (`GeneratedPredicates.swift`, written by
/// `generate_predicates.py`) is Foundation's: the models the fetch returns are those for
/// which `Predicate.evaluate` is true.
@Suite struct PredicateConformanceTests {
    @Test func theStoreAnswersEachPredicateAsFoundationDoes() throws {
        let fixture = try InventoryFixture()
        let predicates = generatedPredicates(capturing: fixture.captures)
        #expect(predicates.count > 450)
        var mismatches = 0
        for (source, predicate) in predicates {
            let expected = try fixture.gadgets.filter { try predicate.evaluate($0) }.map(\.serial)
            do {
                let fetched = try fixture.context.fetch(FetchDescriptor(predicate: predicate, sortBy: [SortDescriptor(\.serial)])).map(\.serial)
                if fetched != expected {
                    mismatches += 1
                    let missing = Set(expected).subtracting(fetched).sorted().prefix(8)
                    let extra = Set(fetched).subtracting(expected).sorted().prefix(8)
                    Issue.record("\(source): the store returns \(fetched.count) gadgets, Swift \(expected.count); missing \(Array(missing)), extra \(Array(extra))")
                }
            } catch {
                mismatches += 1
                Issue.record("\(source): \(error)")
            }
        }
        print("PredicateConformanceTests: \(predicates.count - mismatches) of \(predicates.count) predicates answered as Foundation does")
    }

    @Test func theFixtureHoldsEveryKindOfRow() throws {
        let fixture = try InventoryFixture()
        let gadgets = fixture.gadgets
        #expect(gadgets.count == InventoryFixture.gadgetCount)
        #expect(gadgets.contains { $0.owner == nil } && gadgets.contains { $0.owner != nil })
        #expect(gadgets.contains { $0.nickname == nil } && gadgets.contains { $0.nickname == "" })
        #expect(gadgets.contains { $0.parts.isEmpty } && gadgets.contains { $0.parts.count > 3 })
        #expect(Set(gadgets.map(\.kind)) == Set(GadgetKind.allCases))
        #expect(gadgets.contains { $0.score < 0 } && gadgets.contains { $0.weight < 0 })
    }
}
