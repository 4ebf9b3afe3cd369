import Foundation
import SwiftData
import Testing

/// The store orders a fetch as Foundation's `sorted(using:)` orders the same models.
@Suite struct SortDescriptorTests {
    let fixture: InventoryFixture

    init() throws {
        fixture = try InventoryFixture()
    }

    /// The store's order and Foundation's for descriptors made in each order; the serial number
    /// breaks ties, so that both orders are total. (The descriptors are made in each order
    /// rather than changed: Linux Foundation's `sorted(using:)` ignores a changed `order`.)
    private func expectTheStoreSorts(sourceLocation: SourceLocation = #_sourceLocation, _ descriptors: (SortOrder) -> [SortDescriptor<Gadget>]) throws {
        for order in [SortOrder.forward, .reverse] {
            let complete = descriptors(order) + [SortDescriptor(\Gadget.serial)]
            let expected = fixture.gadgets.sorted(using: complete).map(\.serial)
            let fetched = try fixture.context.fetch(FetchDescriptor(sortBy: complete)).map(\.serial)
            #expect(fetched == expected, "\(order)", sourceLocation: sourceLocation)
        }
    }

    @Test func integers() throws {
        try expectTheStoreSorts { [SortDescriptor(\.score, order: $0)] }
        try expectTheStoreSorts { [SortDescriptor(\.size, order: $0.opposite)] }
    }

    @Test func doubles() throws {
        try expectTheStoreSorts { [SortDescriptor(\.weight, order: $0)] }
    }

    @Test func stringsByEachComparator() throws {
        try expectTheStoreSorts { [SortDescriptor(\.name, comparator: .lexical, order: $0)] }
        try expectTheStoreSorts { [SortDescriptor(\.name, order: $0)] }
    }

    @Test func optionalStringsWithNilFirst() throws {
        try expectTheStoreSorts { [SortDescriptor(\.nickname, comparator: .lexical, order: $0)] }
        try expectTheStoreSorts { [SortDescriptor(\.nickname, order: $0)] }
    }

    @Test func dates() throws {
        try expectTheStoreSorts { [SortDescriptor(\.madeOn, order: $0)] }
    }

    @Test func severalKeys() throws {
        try expectTheStoreSorts { [SortDescriptor(\.size, order: $0), SortDescriptor(\.weight, order: $0.opposite), SortDescriptor(\.name, comparator: .lexical, order: $0)] }
        try expectTheStoreSorts { [SortDescriptor(\.nickname, comparator: .lexical, order: $0.opposite), SortDescriptor(\.score, order: $0)] }
    }

    @Test func aPropertyOfTheToOneRelationship() throws {
        try expectTheStoreSorts { [SortDescriptor(\.owner?.name, comparator: .lexical, order: $0)] }
        try expectTheStoreSorts { [SortDescriptor(\.owner?.age, order: $0), SortDescriptor(\.owner?.nickname, order: $0)] }
    }

    @Test func aKeyPathThatIsNotPersistedThrows() {
        #expect(throws: SwiftDataError.unsupportedSortDescriptor) {
            try fixture.context.fetch(FetchDescriptor<Gadget>(sortBy: [SortDescriptor(\.partCount)]))
        }
        #expect(throws: SwiftDataError.unsupportedSortDescriptor) {
            try fixture.context.fetch(FetchDescriptor<Gadget>(sortBy: [SortDescriptor(\.name.count)]))
        }
    }
}

extension Gadget {
    /// A computed property: not in the store.
    var partCount: Int { parts.count }
}

extension SortOrder {
    /// The other order.
    fileprivate var opposite: SortOrder { self == .forward ? .reverse : .forward }
}
