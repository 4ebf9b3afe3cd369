import Foundation
import SwiftData
import Synchronization
import Testing

@Model final class SensorReading {
    var sensor: String
    var value: Int

    init(sensor: String, value: Int) {
        self.sensor = sensor
        self.value = value
    }
}

/// Imports readings off the main actor, in its own context.
@ModelActor actor Importer {
    func importReadings(from sensor: String, count: Int) throws -> [PersistentIdentifier] {
        let readings = (0..<count).map { SensorReading(sensor: sensor, value: $0) }
        readings.forEach(modelContext.insert)
        try modelContext.save()
        return readings.map(\.persistentModelID)
    }

    func value(of id: PersistentIdentifier) -> Int? {
        self[id, as: SensorReading.self]?.value
    }

    func setValue(_ value: Int, of id: PersistentIdentifier) throws {
        self[id, as: SensorReading.self]?.value = value
        try modelContext.save()
    }

    func insertLeavingItToAutosave(sensor: String, value: Int) {
        modelContext.autosaveEnabled = true
        modelContext.insert(SensorReading(sensor: sensor, value: value))
    }

    func count(from sensor: String? = nil) throws -> Int {
        let descriptor = FetchDescriptor<SensorReading>(predicate: sensor.map { name in #Predicate { $0.sensor == name } })
        return try modelContext.fetchCount(descriptor)
    }
}

@Suite struct ModelActorTests {
    let store = TemporaryStore()

    private func makeContainer() throws -> ModelContainer {
        try ModelContainer(for: SensorReading.self, configurations: ModelConfiguration(url: store.url))
    }

    @Test func anImporterUsedFromSeveralTasksSavesEveryReading() async throws {
        let container = try makeContainer()
        let importer = Importer(modelContainer: container)
        let sensors = (0..<6).map { "sensor-\($0)" }
        let identifiers = try await withThrowingTaskGroup(of: [PersistentIdentifier].self) { group in
            for sensor in sensors {
                group.addTask { try await importer.importReadings(from: sensor, count: 40) }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(identifiers.count == 240)
        #expect(Set(identifiers).count == 240)
        #expect(try await importer.count() == 240)
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<SensorReading>()) == 240)
        for sensor in sensors {
            #expect(try await importer.count(from: sensor) == 40)
        }
    }

    @Test func theActorsJobsRunOnItsContextsExecutor() async throws {
        let importer = Importer(modelContainer: try makeContainer())
        #expect(importer.modelExecutor is DefaultSerialModelExecutor)
        let id = try await importer.importReadings(from: "a", count: 1)[0]
        #expect(await importer.value(of: id) == 0)
    }

    @MainActor @Test func identifiersFromTheActorResolveOnTheMainContext() async throws {
        let container = try makeContainer()
        let importer = Importer(modelContainer: container)
        let identifiers = try await importer.importReadings(from: "thermometer", count: 5)
        for (expected, id) in identifiers.enumerated() {
            let reading = try #require(container.mainContext.model(for: id) as? SensorReading)
            #expect(reading.value == expected)
            #expect(reading.sensor == "thermometer")
            #expect(await importer.value(of: id) == expected)
        }
    }

    @MainActor @Test func theMainContextFetchesWhatTheActorSaved() async throws {
        let container = try makeContainer()
        let mainContext = container.mainContext
        #expect(try mainContext.fetch(FetchDescriptor<SensorReading>()).isEmpty)
        let importer = Importer(modelContainer: container)
        let identifiers = try await importer.importReadings(from: "barometer", count: 3)
        let fetched = try mainContext.fetch(FetchDescriptor<SensorReading>(sortBy: [SortDescriptor(\.value)]))
        #expect(fetched.map(\.persistentModelID) == identifiers)
        #expect(fetched.map(\.value) == [0, 1, 2])
    }

    @MainActor @Test func aModelOfTheMainContextTakesTheActorsSavedChange() async throws {
        let container = try makeContainer()
        let mainContext = container.mainContext
        let reading = SensorReading(sensor: "hygrometer", value: 1)
        mainContext.insert(reading)
        try mainContext.save()
        let importer = Importer(modelContainer: container)
        try await importer.setValue(42, of: reading.persistentModelID)
        // The save is merged into the main context on the main queue, which runs while the
        // main actor waits.
        await yieldToTheMainQueue(until: { reading.value == 42 })
        #expect(reading.value == 42)
        #expect(!mainContext.hasChanges)
    }

    @MainActor @Test func theMainContextSavesByItselfAfterAnInsert() async throws {
        let container = try makeContainer()
        let mainContext = container.mainContext
        #expect(mainContext.autosaveEnabled)
        mainContext.insert(SensorReading(sensor: "anemometer", value: 3))
        #expect(mainContext.hasChanges)
        await yieldToTheMainQueue(until: { !mainContext.hasChanges })
        #expect(!mainContext.hasChanges)
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<SensorReading>()) == 1)
    }

    @MainActor @Test func theMainContextSavesByItselfAfterAModelChanges() async throws {
        let container = try makeContainer()
        let mainContext = container.mainContext
        // Saved elsewhere and fetched, so that no insert of the main context's schedules a save.
        let writer = ModelContext(container)
        writer.insert(SensorReading(sensor: "thermometer", value: 20))
        try writer.save()
        let reading = try #require(try mainContext.fetch(FetchDescriptor<SensorReading>()).first)
        reading.value = 21
        #expect(mainContext.hasChanges)
        await yieldToTheMainQueue(until: { !mainContext.hasChanges })
        #expect(!mainContext.hasChanges)
        #expect(try ModelContext(container).fetch(FetchDescriptor<SensorReading>()).map(\.value) == [21])
    }

    @Test func aModelActorsContextWithAutosaveSavesOnItsQueueAfterAnInsert() async throws {
        let container = try makeContainer()
        let importer = Importer(modelContainer: container)
        await importer.insertLeavingItToAutosave(sensor: "rain gauge", value: 9)
        var waits = 0
        while try ModelContext(container).fetchCount(FetchDescriptor<SensorReading>()) == 0, waits < 10_000 {
            try await Task.sleep(nanoseconds: 100_000)
            waits += 1
        }
        #expect(try ModelContext(container).fetch(FetchDescriptor<SensorReading>()).map(\.value) == [9])
    }

    @Test func aContextMadeOutsideAnActorSavesOnlyWhenTold() throws {
        let container = try makeContainer()
        let context = ModelContext(container)
        context.autosaveEnabled = true
        context.insert(SensorReading(sensor: "rain gauge", value: 9))
        // Its queue is not the thread that uses it, so nothing saves behind this thread's back.
        #expect(context.hasChanges)
        try context.save()
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<SensorReading>()) == 1)
    }

    @Test func savingPostsWillSaveThenDidSaveWithTheChangedIdentifiers() async throws {
        let container = try makeContainer()
        let context = ModelContext(container)
        let kept = SensorReading(sensor: "kept", value: 1)
        let removed = SensorReading(sensor: "removed", value: 2)
        context.insert(kept)
        context.insert(removed)
        let inserted = try await savedIdentifiers(of: context) { try context.save() }
        #expect(Set(inserted[ModelContext.NotificationKey.insertedIdentifiers.rawValue] ?? []) == [kept.persistentModelID, removed.persistentModelID])
        #expect(inserted[ModelContext.NotificationKey.updatedIdentifiers.rawValue] == [])
        #expect(inserted[ModelContext.NotificationKey.deletedIdentifiers.rawValue] == [])

        kept.value = 10
        let removedID = removed.persistentModelID
        context.delete(removed)
        let changed = try await savedIdentifiers(of: context) { try context.save() }
        #expect(changed[ModelContext.NotificationKey.insertedIdentifiers.rawValue] == [])
        #expect(changed[ModelContext.NotificationKey.updatedIdentifiers.rawValue] == [kept.persistentModelID])
        #expect(changed[ModelContext.NotificationKey.deletedIdentifiers.rawValue] == [removedID])
    }

    @Test func theNotificationKeysAreNamedAfterTheirCases() {
        let keys: [ModelContext.NotificationKey] = [.insertedIdentifiers, .updatedIdentifiers, .deletedIdentifiers, .invalidatedAllIdentifiers, .queryGeneration]
        #expect(keys.map(\.rawValue) == ["insertedIdentifiers", "updatedIdentifiers", "deletedIdentifiers", "invalidatedAllIdentifiers", "queryGeneration"])
        #expect(keys.allSatisfy { ModelContext.NotificationKey(rawValue: $0.rawValue) == $0 })
    }

    /// Runs `change`, waits for the context's did-save notification, and returns its user info;
    /// fails unless a will-save notification without user info came first.
    private func savedIdentifiers(of context: ModelContext, after change: () throws -> Void) async throws -> [String: [PersistentIdentifier]] {
        let events = Mutex<[String]>([])
        let center = NotificationCenter.default
        let (saves, continuation) = AsyncStream.makeStream(of: [String: [PersistentIdentifier]].self)
        let willSave = center.addObserver(forName: ModelContext.willSave, object: context, queue: nil) { notification in
            events.withLock { $0.append(notification.userInfo == nil ? "willSave" : "willSave with user info") }
        }
        let didSave = center.addObserver(forName: ModelContext.didSave, object: context, queue: nil) { notification in
            events.withLock { $0.append("didSave") }
            var identifiers: [String: [PersistentIdentifier]] = [:]
            for (key, value) in notification.userInfo ?? [:] {
                if let key = key as? String, let value = value as? [PersistentIdentifier] { identifiers[key] = value }
            }
            continuation.yield(identifiers)
        }
        defer {
            center.removeObserver(willSave)
            center.removeObserver(didSave)
        }
        try change()
        var iterator = saves.makeAsyncIterator()
        let saved = try #require(await iterator.next())
        #expect(events.withLock { $0 } == ["willSave", "didSave"])
        return saved
    }
}

/// Many model actors importing into one store at once while the main context reads; run under
/// ThreadSanitizer by the README's `--filter ConcurrencyStressTests`.
@Suite struct SwiftDataConcurrencyStressTests {
    let store = TemporaryStore()

    @MainActor @Test func manyImportersSaveAtOnceWhileTheMainContextFetches() async throws {
        let container = try ModelContainer(for: SensorReading.self, configurations: ModelConfiguration(url: store.url))
        let importers = (0..<4).map { _ in Importer(modelContainer: container) }
        let batches = 5, batchSize = 25
        let identifiers = try await withThrowingTaskGroup(of: [PersistentIdentifier].self) { group in
            for (index, importer) in importers.enumerated() {
                for batch in 0..<batches {
                    group.addTask { try await importer.importReadings(from: "importer-\(index)-\(batch)", count: batchSize) }
                }
            }
            var all: [PersistentIdentifier] = []
            var seenCounts: [Int] = []
            for try await batchIdentifiers in group {
                all += batchIdentifiers
                seenCounts.append(try container.mainContext.fetchCount(FetchDescriptor<SensorReading>()))
            }
            // Each count is read after at least as many batches as there are counts before it.
            for (index, count) in seenCounts.enumerated() {
                #expect(count >= (index + 1) * batchSize)
            }
            return all
        }
        let total = importers.count * batches * batchSize
        #expect(Set(identifiers).count == total)
        let readings = try container.mainContext.fetch(FetchDescriptor<SensorReading>())
        #expect(readings.count == total)
        #expect(Set(readings.map(\.persistentModelID)) == Set(identifiers))
        for importer in importers {
            #expect(try await importer.count() == total)
        }
    }
}

/// Lets the main queue run (a main context's autosaves and merges) until a condition holds, or
/// for 10,000 turns, after which the test's expectations report what did not happen.
@MainActor
private func yieldToTheMainQueue(until condition: () -> Bool) async {
    var turns = 0
    while !condition(), turns < 10_000 {
        await Task.yield()
        turns += 1
    }
}
