import Foundation
import SwiftData
import Testing

/// A store of a few hundred gadgets, their owners and parts, made from a fixed seed so that
/// every run holds the same rows, and the values the generated predicates capture.
final class InventoryFixture {
    static let gadgetCount = 300

    let store = TemporaryStore()
    let context: ModelContext
    /// Every gadget, read back from the store, by serial number.
    let gadgets: [Gadget]
    let captures: PredicateCaptures

    init() throws {
        let container = try ModelContainer(for: Gadget.self, configurations: ModelConfiguration(url: store.url))
        var random = SeededRandom(seed: 22)
        let writer = ModelContext(container)
        let owners = Self.makeOwners()
        for index in 1...Self.gadgetCount {
            let gadget = Self.makeGadget(serial: index, &random)
            writer.insert(gadget)
            if random.next(4) != 0 { gadget.owner = owners[random.next(owners.count)] }
            gadget.parts = (0..<random.next(5)).map { _ in Self.makePart(&random) }
        }
        try writer.save()
        context = ModelContext(container)
        gadgets = try context.fetch(FetchDescriptor<Gadget>(sortBy: [SortDescriptor(\.serial)]))
        let owner = try #require(gadgets.lazy.compactMap(\.owner).first)
        captures = PredicateCaptures(
            gadget: gadgets[10], owner: owner, date: gadgets[20].madeOn, tag: gadgets[30].tag, tags: [gadgets[1].tag, gadgets[2].tag, UUID()])
    }

    private static let names = ["lamp", "Lamp", "clock", "radio", "", "a", "zeta", "M", "mid", "lamp2", "Ångström", "émile", "Zed"]
    private static let nicknames = ["Bo", "bob", "Ace", "", "Zed", "o"]
    private static let labels = ["gear", "spring", "lamp", "bolt", ""]
    /// 2021-01-01, a round number of seconds after Foundation's reference date.
    private static let firstDay = Date(timeIntervalSinceReferenceDate: 631_152_000)

    private static func makeOwners() -> [Owner] {
        let names = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kim", "Lu"]
        return names.enumerated().map { index, name in
            Owner(name: name, age: 20 + (index * 7) % 50, nickname: index % 3 == 0 ? nil : ["Bo", "Ace", "Red", "Zed"][index % 4])
        }
    }

    private static func makeGadget(serial: Int, _ random: inout SeededRandom) -> Gadget {
        let tag = UUID(uuid: (
            UInt8(random.next(256)), UInt8(random.next(256)), UInt8(random.next(256)), UInt8(random.next(256)), UInt8(random.next(256)),
            UInt8(random.next(256)), 0x40, 0x80, 0, 0, 0, 0, 0, 0, 0, UInt8(serial % 256)))
        return Gadget(
            serial: serial, score: random.next(41) - 20, size: Int16(random.next(9)), weight: Double(random.next(81) - 20) * 0.25,
            isWorking: random.next(2) == 0, name: names[random.next(names.count)],
            nickname: random.next(3) == 0 ? nil : nicknames[random.next(nicknames.count)],
            madeOn: firstDay.addingTimeInterval(Double(random.next(1000)) * 86_400), tag: tag,
            kind: GadgetKind.allCases[random.next(GadgetKind.allCases.count)])
    }

    private static func makePart(_ random: inout SeededRandom) -> Part {
        Part(label: labels[random.next(labels.count)], price: Double(random.next(41)) * 0.5, quantity: random.next(6))
    }
}

/// The values the generated predicates capture: models and identifiers from the store, and
/// values some rows hold.
struct PredicateCaptures {
    let gadget: Gadget
    let owner: Owner
    let date: Date
    let tag: UUID
    let tags: [UUID]
}

/// A linear congruential generator: the same numbers from the same seed on every platform.
struct SeededRandom {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    /// A number in `0..<bound`.
    mutating func next(_ bound: Int) -> Int {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int((state >> 33) % UInt64(bound))
    }
}
