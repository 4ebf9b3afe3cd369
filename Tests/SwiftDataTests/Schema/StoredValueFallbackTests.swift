import Foundation
import SwiftData
import Testing

// One entity, `Ticket`, written with an integer and read with an enumeration over integers:
// the same store schema, whose rows may hold raw values the enumeration does not have.
enum TicketsAsIntegers {
    @Model final class Ticket {
        var level: Int
        init(level: Int) { self.level = level }
    }
}

enum TicketsAsLevels {
    enum Level: Int, Codable, CaseIterable {
        case low = 1
        case high = 2
    }

    @Model final class Ticket {
        var level: Level
        init(level: Level) { self.level = level }
    }
}

// One entity, `Label`, written with bytes and read with an array and a dictionary: the same
// store schema (both binary data), whose rows may hold bytes that are no property list.
enum LabelsAsBytes {
    @Model final class Label {
        var tags: Data
        var counts: Data
        init(bytes: Data) {
            tags = bytes
            counts = bytes
        }
    }
}

enum LabelsAsCollections {
    @Model final class Label {
        var tags: [String]
        var counts: [String: Int]
        init(tags: [String], counts: [String: Int]) {
            self.tags = tags
            self.counts = counts
        }
    }
}

@Suite struct StoredValueFallbackTests {
    let store = TemporaryStore()

    @Test func aRawValueTheEnumerationLacksReadsAsItsFirstCase() throws {
        do {
            let context = ModelContext(try ModelContainer(for: TicketsAsIntegers.Ticket.self, configurations: ModelConfiguration(url: store.url)))
            context.insert(TicketsAsIntegers.Ticket(level: 7))
            context.insert(TicketsAsIntegers.Ticket(level: 2))
            try context.save()
        }
        let context = ModelContext(try ModelContainer(for: TicketsAsLevels.Ticket.self, configurations: ModelConfiguration(url: store.url)))
        let levels = try context.fetch(FetchDescriptor<TicketsAsLevels.Ticket>()).map(\.level)
        #expect(levels.sorted { $0.rawValue < $1.rawValue } == [.low, .high])
    }

    @Test func bytesThatAreNoPropertyListReadAsAnEmptyCollection() throws {
        do {
            let context = ModelContext(try ModelContainer(for: LabelsAsBytes.Label.self, configurations: ModelConfiguration(url: store.url)))
            context.insert(LabelsAsBytes.Label(bytes: Data("not a property list".utf8)))
            try context.save()
        }
        let context = ModelContext(try ModelContainer(for: LabelsAsCollections.Label.self, configurations: ModelConfiguration(url: store.url)))
        let label = try #require(try context.fetch(FetchDescriptor<LabelsAsCollections.Label>()).first)
        #expect(label.tags == [])
        #expect(label.counts == [:])
    }
}
