@testable import CoreData
import Testing

/// Turns text into UTF-8 data and back, counting its calls, as a program's own transformer
/// registered under a name the model gives.
final class CountingTextTransformer: ValueTransformer, @unchecked Sendable {
    // @unchecked Sendable: the counters are only touched while holding `lock`.
    private let lock = NSLock()
    private var forward = 0
    private var reverse = 0

    /// How many times each transformation ran.
    var calls: (forward: Int, reverse: Int) {
        lock.withLock { (forward, reverse) }
    }

    override class func transformedValueClass() -> AnyClass { NSData.self }

    override func transformedValue(_ value: Any?) -> Any? {
        lock.withLock { forward += 1 }
        return (value as? String).map { Data(("text:" + $0).utf8) }
    }

    override func reverseTransformedValue(_ value: Any?) -> Any? {
        lock.withLock { reverse += 1 }
        return (value as? Data).flatMap { String(data: $0, encoding: .utf8) }.map { String($0.dropFirst("text:".count)) }
    }
}

/// Transformable attributes as Apple's Core Data stores them: without a transformer name the
/// program's own `NSCoding` classes are archived with `NSKeyedUnarchiveFromData`, alone and in
/// collections; `NSSecureUnarchiveFromData` keeps its allowed classes; a registered transformer
/// is used both ways; default values and nil behave. Each case runs on SQLite (read back by a new
/// coordinator) and in memory (read back by a new context).
@Suite("Transformable attributes")
struct TransformableAttributeTests {
    static let storeTypes = [NSSQLiteStoreType, NSInMemoryStoreType]

    static var swatch: ArchivedSwatch {
        ArchivedSwatch(name: "Ochre", count: 3, weight: 0.25, isPinned: true, bytes: Data([1, 2]), tags: ["warm"], note: "mixed")
    }

    static var point: ArchivedPoint {
        ArchivedPoint(x: 1.5, label: "a", child: ArchivedPoint(x: -2, label: nil))
    }

    static var preset: ArchivedPoint {
        ArchivedPoint(x: 9, label: "preset")
    }

    /// A model with one entity, `Palette`, whose transformable attributes cover each case; the
    /// counting transformer is registered under `countingName`.
    static func model(countingName: NSValueTransformerName) -> NSManagedObjectModel {
        func transformable(_ name: String, transformer: String? = nil) -> NSAttributeDescription {
            let attribute = ModelFixtureKit.attribute(name, .transformableAttributeType)
            attribute.valueTransformerName = transformer
            return attribute
        }
        let preset = transformable("preset")
        preset.defaultValue = Self.preset
        return ModelFixtureKit.model([ModelFixtureKit.entity("Palette", [
            ModelFixtureKit.attribute("key", .stringAttributeType),
            transformable("swatch"),
            transformable("point"),
            transformable("swatches"),
            transformable("swatchesByName"),
            transformable("settings", transformer: NSValueTransformerName.secureUnarchiveFromDataTransformerName.rawValue),
            transformable("xcodeSettings", transformer: "NSSecureUnarchiveFromDataTransformer"),
            transformable("counted", transformer: countingName.rawValue),
            preset,
        ])])
    }

    /// A store of `storeType` that outlives the coordinators reading it: a SQLite file, or an
    /// in-memory store whose coordinator each reader shares.
    final class Store {
        let storeType: String
        let model: NSManagedObjectModel
        let directory: SQLiteScratchDirectory
        private let memoryCoordinator: NSPersistentStoreCoordinator?

        init(_ storeType: String, model: NSManagedObjectModel) throws {
            self.storeType = storeType
            self.model = model
            directory = try SQLiteScratchDirectory("transformable")
            memoryCoordinator = storeType == NSInMemoryStoreType ? try Self.coordinator(storeType, model: model, url: nil) : nil
        }

        var url: URL { directory.file("Palette.sqlite") }

        private static func coordinator(_ storeType: String, model: NSManagedObjectModel, url: URL?) throws -> NSPersistentStoreCoordinator {
            let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
            try coordinator.addPersistentStore(ofType: storeType, configurationName: nil, at: url, options: nil)
            return coordinator
        }

        /// A new context on a new coordinator (SQLite) or on the in-memory store's coordinator.
        func newContext() throws -> NSManagedObjectContext {
            let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
            context.persistentStoreCoordinator = try memoryCoordinator ?? Self.coordinator(storeType, model: model, url: url)
            return context
        }

        /// Inserts a palette, sets `values` on it and saves.
        func save(_ values: [String: Any?]) throws {
            let context = try newContext()
            try context.performAndWait {
                let palette = NSEntityDescription.insertNewObject(forEntityName: "Palette", into: context)
                palette.setValue("p", forKey: "key")
                for (key, value) in values {
                    palette.setValue(value, forKey: key)
                }
                try context.save()
            }
        }

        /// The values of the saved palette's attributes, read by a new context.
        func read(_ keys: [String]) throws -> [String: Any?] {
            let context = try newContext()
            return try context.performAndWait {
                let palette = try #require(try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Palette")).first)
                return Dictionary(uniqueKeysWithValues: keys.map { ($0, palette.value(forKey: $0)) })
            }
        }

        deinit {
            directory.remove()
        }
    }

    /// Registers a new counting transformer under a name no other test uses.
    static func registerCountingTransformer() -> (name: NSValueTransformerName, transformer: CountingTextTransformer) {
        let name = NSValueTransformerName("CoreDataTests.CountingText.\(UUID().uuidString)")
        let transformer = CountingTextTransformer()
        ValueTransformer.setValueTransformer(transformer, forName: name)
        return (name, transformer)
    }

    static func store(_ storeType: String) throws -> (store: Store, counting: CountingTextTransformer, name: NSValueTransformerName) {
        let (name, counting) = registerCountingTransformer()
        return (try Store(storeType, model: model(countingName: name)), counting, name)
    }

    @Test("a program's NSCoding and NSSecureCoding classes round-trip without a transformer name", arguments: storeTypes)
    func appClassesWithoutATransformerName(storeType: String) throws {
        let (store, _, name) = try Self.store(storeType)
        defer { ValueTransformer.setValueTransformer(nil, forName: name) }
        let swatches = [Self.swatch, ArchivedSwatch(name: "Blank")]
        let byName = ["ochre": Self.swatch, "teal": ArchivedSwatch(name: "Teal", tags: ["cool"])]
        try store.save(["swatch": Self.swatch, "point": Self.point, "swatches": swatches, "swatchesByName": byName])
        let read = try store.read(["swatch", "point", "swatches", "swatchesByName"])
        #expect(read["swatch"] as? ArchivedSwatch == Self.swatch)
        #expect(read["point"] as? ArchivedPoint == Self.point)
        #expect(read["swatches"] as? [ArchivedSwatch] == swatches)
        #expect(read["swatchesByName"] as? [String: ArchivedSwatch] == byName)
    }

    @Test("without a transformer name, SQLite holds the keyed archive Foundation's unarchiver reads")
    func storedArchiveIsFoundations() throws {
        let (store, _, name) = try Self.store(NSSQLiteStoreType)
        defer { ValueTransformer.setValueTransformer(nil, forName: name) }
        try store.save(["swatches": [Self.swatch]])
        let blob = try #require(try RawStoreSQL.value(store.url, "SELECT ZSWATCHES FROM ZPALETTE")?.blob)
        let unarchiver = try NSKeyedUnarchiver(forReadingFrom: blob)
        unarchiver.requiresSecureCoding = false
        #expect(unarchiver.decodeObject(forKey: NSKeyedArchiveRootObjectKey) as? [ArchivedSwatch] == [Self.swatch])
    }

    @Test("NSSecureUnarchiveFromData, by its name or its class name, round-trips property lists", arguments: storeTypes)
    func secureTransformerRoundTripsPropertyLists(storeType: String) throws {
        let (store, _, name) = try Self.store(storeType)
        defer { ValueTransformer.setValueTransformer(nil, forName: name) }
        let settings: NSDictionary = ["zoom": 1.5, "tags": ["a", "b"], "opened": NSDate(timeIntervalSinceReferenceDate: 60)]
        let list: NSArray = ["x", 1, true]
        try store.save(["settings": settings, "xcodeSettings": list])
        let read = try store.read(["settings", "xcodeSettings"])
        #expect(read["settings"] as? NSDictionary == settings)
        #expect(read["xcodeSettings"] as? NSArray == list)
    }

    @Test("NSSecureUnarchiveFromData refuses a program's class at the top with an error, and inside a collection when reading")
    func secureTransformerRefusesAppClasses() throws {
        let (store, _, name) = try Self.store(NSSQLiteStoreType)
        defer { ValueTransformer.setValueTransformer(nil, forName: name) }
        // Apple's transformer raises for a top-level class outside allowedTopLevelClasses.
        #expect {
            try store.save(["settings": Self.point])
        } throws: { error in
            (error as NSError).userInfo[NSValidationKeyErrorKey] as? String == "settings"
        }
        // Inside an array it archives (the class supports secure coding), but unarchiving admits
        // only the allowed classes, so the value reads back as nil, as on Apple platforms.
        try store.save(["settings": [Self.point]])
        #expect(try RawStoreSQL.value(store.url, "SELECT ZSETTINGS FROM ZPALETTE")?.blob != nil)
        #expect(try store.read(["settings"])["settings"]! == nil)
    }

    @Test("a transformer registered under the attribute's valueTransformerName is used for saving and fetching", arguments: storeTypes)
    func registeredTransformerIsUsedBothWays(storeType: String) throws {
        let (store, counting, name) = try Self.store(storeType)
        defer { ValueTransformer.setValueTransformer(nil, forName: name) }
        try store.save(["counted": "hello"])
        let read = try store.read(["counted"])
        #expect(read["counted"] as? String == "hello")
        if storeType == NSSQLiteStoreType {
            #expect(counting.calls == (forward: 1, reverse: 1))
            let blob = try RawStoreSQL.value(store.url, "SELECT ZCOUNTED FROM ZPALETTE")?.blob
            #expect(blob == Data("text:hello".utf8))
        }
    }

    @Test("a default value is saved and read back; explicit nil stays nil", arguments: storeTypes)
    func defaultValuesAndNil(storeType: String) throws {
        let (store, counting, name) = try Self.store(storeType)
        defer { ValueTransformer.setValueTransformer(nil, forName: name) }
        try store.save(["swatch": nil, "counted": nil])
        let read = try store.read(["preset", "swatch", "counted", "settings"])
        #expect(read["preset"] as? ArchivedPoint == Self.preset)
        #expect(read["swatch"]! == nil)
        #expect(read["counted"]! == nil)
        #expect(read["settings"]! == nil)
        #expect(counting.calls.forward == 0, "nil is stored as NULL without the transformer")
    }

    @Test("explicit nil replaces a default value and a stored value")
    func nilReplacesValues() throws {
        let (store, _, name) = try Self.store(NSSQLiteStoreType)
        defer { ValueTransformer.setValueTransformer(nil, forName: name) }
        try store.save(["preset": nil, "swatch": Self.swatch])
        let context = try store.newContext()
        try context.performAndWait {
            let palette = try #require(try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Palette")).first)
            #expect(palette.value(forKey: "preset") == nil)
            palette.setValue(nil, forKey: "swatch")
            try context.save()
        }
        #expect(try store.read(["swatch"])["swatch"]! == nil)
        #expect(try RawStoreSQL.value(store.url, "SELECT ZSWATCH FROM ZPALETTE")?.isNull == true)
    }
}
