@testable import CoreData
import Testing

/// Composite attributes as Apple's Core Data stores them in SQLite: no column for the composite,
/// a column per leaf attribute named after the leaf alone (`ZRICHTER`, with a number when the
/// name is taken), the value a dictionary keyed by element names, nested composites nested
/// dictionaries; predicates and sorts reach the leaves by `composite.element` key paths.
@Suite("Composite attributes")
struct CompositeAttributeTests {
    /// `Quake`: `code`, and `magnitude` holding `richter`, `depth` and `origin` (`latitude`,
    /// `longitude`), and `depth` of its own, which takes `ZDEPTH` before the element's.
    static func model() -> NSManagedObjectModel {
        let origin = NSCompositeAttributeDescription()
        origin.name = "origin"
        origin.elements = [ModelFixtureKit.attribute("latitude", .doubleAttributeType), ModelFixtureKit.attribute("longitude", .doubleAttributeType)]
        let magnitude = NSCompositeAttributeDescription()
        magnitude.name = "magnitude"
        magnitude.elements = [ModelFixtureKit.attribute("richter", .doubleAttributeType), ModelFixtureKit.attribute("depth", .integer64AttributeType), origin]
        return ModelFixtureKit.model([ModelFixtureKit.entity("Quake", [
            ModelFixtureKit.attribute("code", .stringAttributeType),
            ModelFixtureKit.attribute("depth", .stringAttributeType),
            magnitude,
        ])])
    }

    static var quakes: [(code: String, magnitude: [String: Any]?)] { [
        ("ak1", ["richter": 4.6, "depth": Int64(10), "origin": ["latitude": 61.2, "longitude": -149.9]]),
        ("ca2", ["richter": 3.1, "origin": ["latitude": 34.0]]),
        ("nv3", ["richter": 5.2, "depth": Int64(3)]),
        ("hi4", nil),
    ] }

    private static func saveQuakes(in context: NSManagedObjectContext) throws {
        try context.performAndWait {
            for quake in quakes {
                let object = NSEntityDescription.insertNewObject(forEntityName: "Quake", into: context)
                object.setValue(quake.code, forKey: "code")
                object.setValue(quake.magnitude, forKey: "magnitude")
            }
            try context.save()
        }
    }

    private func withSavedQuakes(_ body: (URL, NSManagedObjectModel) throws -> Void) throws {
        let directory = try SQLiteScratchDirectory("composite")
        defer { directory.remove() }
        let url = directory.file("Quakes.sqlite")
        let model = Self.model()
        let stack = try SQLiteTestStack(model: model, url: url)
        try Self.saveQuakes(in: stack.context)
        stack.close()
        try body(url, model)
    }

    @Test func eachLeafHasAColumnNamedAfterItself() throws {
        try withSavedQuakes { url, _ in
            let columns = try RawStoreSQL.columns(url, "ZQUAKE").map(\.name)
            #expect(columns == ["Z_PK", "Z_ENT", "Z_OPT", "ZCODE", "ZDEPTH", "ZRICHTER", "ZDEPTH1", "ZLATITUDE", "ZLONGITUDE"])
            let row = try RawStoreSQL.rows(url, "SELECT ZRICHTER, ZDEPTH1, ZLATITUDE, ZLONGITUDE FROM ZQUAKE WHERE ZCODE = 'ak1'")
            #expect(row == [[.real(4.6), .integer(10), .real(61.2), .real(-149.9)]])
        }
    }

    @Test func aNewCoordinatorReadsTheDictionariesBack() throws {
        try withSavedQuakes { url, model in
            let stack = try SQLiteTestStack(model: model, url: url)
            defer { stack.close() }
            try stack.context.performAndWait {
                let request = NSFetchRequest<NSManagedObject>(entityName: "Quake")
                request.sortDescriptors = [NSSortDescriptor(key: "code", ascending: true)]
                let read = try stack.context.fetch(request).map { ($0.value(forKey: "code") as? String, $0.value(forKey: "magnitude") as? [String: Any]) }
                #expect(read.map(\.0) == ["ak1", "ca2", "hi4", "nv3"])
                let ak1 = try #require(read[0].1)
                #expect(ak1["richter"] as? Double == 4.6)
                #expect((ak1["depth"] as? NSNumber)?.int64Value == 10)
                #expect((ak1["origin"] as? [String: Any])?["longitude"] as? Double == -149.9)
                let ca2 = try #require(read[1].1)
                #expect(ca2["depth"] == nil)
                #expect((ca2["origin"] as? [String: Any])?.keys.sorted() == ["latitude"])
                #expect(read[2].1 == nil)
            }
        }
    }

    @Test func aChangedCompositeIsSavedAgain() throws {
        try withSavedQuakes { url, model in
            let stack = try SQLiteTestStack(model: model, url: url)
            try stack.context.performAndWait {
                let request = NSFetchRequest<NSManagedObject>(entityName: "Quake")
                request.predicate = NSPredicate(format: "code == 'nv3'")
                let quake = try #require(try stack.context.fetch(request).first)
                quake.setValue(["richter": 5.9], forKey: "magnitude")
                try stack.context.save()
            }
            stack.close()
            let row = try RawStoreSQL.rows(url, "SELECT ZRICHTER, ZDEPTH1 FROM ZQUAKE WHERE ZCODE = 'nv3'")
            #expect(row == [[.real(5.9), .null]])
        }
    }

    @Test func predicatesAndSortsReachTheLeaves() throws {
        try withSavedQuakes { url, model in
            let stack = try SQLiteTestStack(model: model, url: url)
            defer { stack.close() }
            try stack.context.performAndWait {
                func codes(_ format: String, sortedBy key: String = "code", ascending: Bool = true) throws -> [String] {
                    let request = NSFetchRequest<NSManagedObject>(entityName: "Quake")
                    request.predicate = NSPredicate(format: format)
                    request.sortDescriptors = [NSSortDescriptor(key: key, ascending: ascending)]
                    return try stack.context.fetch(request).compactMap { $0.value(forKey: "code") as? String }
                }
                #expect(try codes("magnitude.richter > 4.5") == ["ak1", "nv3"])
                let unsaved = NSEntityDescription.insertNewObject(forEntityName: "Quake", into: stack.context)
                unsaved.setValue("zz9", forKey: "code")
                unsaved.setValue(["richter": 7.0], forKey: "magnitude")
                #expect(try codes("magnitude.richter > 4.5", sortedBy: "magnitude.richter") == ["ak1", "nv3", "zz9"])
                stack.context.delete(unsaved)
                #expect(try codes("magnitude.origin.latitude < 50") == ["ca2"])
                #expect(try codes("magnitude.depth == nil") == ["ca2", "hi4"])
                #expect(try codes("magnitude.richter > 0", sortedBy: "magnitude.richter", ascending: false) == ["nv3", "ak1", "ca2"])
                let count = try stack.context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Quake"))
                #expect(count == 4)
                #expect(throws: NSError.self) { try codes("magnitude.richter > 0", sortedBy: "magnitude") }
            }
        }
    }

    @Test func dictionaryResultsHoldElementsAndRefuseTheCompositeItself() throws {
        try withSavedQuakes { url, model in
            let stack = try SQLiteTestStack(model: model, url: url)
            defer { stack.close() }
            try stack.context.performAndWait {
                let request = NSFetchRequest<NSDictionary>(entityName: "Quake")
                request.resultType = .dictionaryResultType
                request.predicate = NSPredicate(format: "code == 'ak1'")
                request.propertiesToFetch = ["code", "magnitude.richter", "magnitude.origin.latitude"]
                let row = try #require(try stack.context.fetch(request).first)
                #expect(row["magnitude.richter"] as? Double == 4.6)
                #expect(row["magnitude.origin.latitude"] as? Double == 61.2)
                request.propertiesToFetch = ["code", "magnitude"]
                let error = #expect(throws: NSError.self) { try stack.context.fetch(request) }
                #expect(error?.domain == NSCocoaErrorDomain)
            }
        }
    }

    @Test func anInMemoryStoreKeepsAndQueriesCompositesToo() throws {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: Self.model())
        try coordinator.addPersistentStore(ofType: NSInMemoryStoreType, configurationName: nil, at: nil, options: nil)
        let writer = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        writer.persistentStoreCoordinator = coordinator
        try Self.saveQuakes(in: writer)
        let reader = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        reader.persistentStoreCoordinator = coordinator
        try reader.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Quake")
            request.predicate = NSPredicate(format: "magnitude.origin.latitude > 50")
            let codes = try reader.fetch(request).map { $0.value(forKey: "code") as? String }
            #expect(codes == ["ak1"])
        }
    }

    @Test func theVersionHashIsTheHashOfTheLeavesByName() throws {
        let magnitude = try #require(Self.model().entitiesByName["Quake"]?.attributesByName["magnitude"] as? NSCompositeAttributeDescription)
        let leaves = ["depth", "latitude", "longitude", "richter"].compactMap { name in magnitude.leaves.first { $0.attribute.name == name }?.attribute }
        #expect(leaves.count == 4)
        let expected = SHA256.hash(leaves.flatMap { Array($0.versionHash) })
        #expect(magnitude.versionHash == Data(expected))
        let renamed = magnitude.copy() as! NSCompositeAttributeDescription
        renamed.name = "size"
        #expect(renamed.versionHash == magnitude.versionHash)
    }

    /// `Shop`: `name`, and a mandatory composite `hours` of two optional integers.
    static func shopModel() -> NSManagedObjectModel {
        let hours = NSCompositeAttributeDescription()
        hours.name = "hours"
        hours.isOptional = false
        hours.elements = [ModelFixtureKit.attribute("opens", .integer64AttributeType), ModelFixtureKit.attribute("closes", .integer64AttributeType)]
        return ModelFixtureKit.model([ModelFixtureKit.entity("Shop", [ModelFixtureKit.attribute("name", .stringAttributeType), hours])])
    }

    @Test func anEqualCompositeIsNoChange() throws {
        let directory = try SQLiteScratchDirectory("composite-equal")
        defer { directory.remove() }
        let stack = try SQLiteTestStack(model: Self.shopModel(), url: directory.file("Shops.sqlite"))
        defer { stack.close() }
        try stack.context.performAndWait {
            let shop = NSEntityDescription.insertNewObject(forEntityName: "Shop", into: stack.context)
            shop.setValue("a", forKey: "name")
            shop.setValue(["opens": Int64(9), "closes": Int64(17)], forKey: "hours")
            try stack.context.save()
            shop.setValue(["closes": Int64(17), "opens": Int64(9)], forKey: "hours")
            shop.setValue("b", forKey: "name")
            #expect(shop.changedValues().keys.sorted() == ["name"])
        }
    }

    @Test func anEmptyMandatoryCompositeReadsEmptyAndSavesAgain() throws {
        let directory = try SQLiteScratchDirectory("composite-empty")
        defer { directory.remove() }
        let url = directory.file("Shops.sqlite")
        let model = Self.shopModel()
        let writer = try SQLiteTestStack(model: model, url: url)
        try writer.context.performAndWait {
            let shop = NSEntityDescription.insertNewObject(forEntityName: "Shop", into: writer.context)
            shop.setValue("a", forKey: "name")
            shop.setValue([String: Any](), forKey: "hours")
            try writer.context.save()
        }
        writer.close()
        let stack = try SQLiteTestStack(model: model, url: url)
        defer { stack.close() }
        try stack.context.performAndWait {
            let shop = try #require(try stack.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Shop")).first)
            #expect((shop.value(forKey: "hours") as? [String: Any])?.isEmpty == true)
            shop.setValue("b", forKey: "name")
            try stack.context.save()
        }
    }

    @Test(arguments: [NSXMLStoreType, NSBinaryStoreType])
    func atomicStoresRefuseACompositeWithAnError(storeType: String) throws {
        let directory = try SQLiteScratchDirectory("composite-atomic")
        defer { directory.remove() }
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: Self.model())
        let error = #expect(throws: NSError.self) {
            try coordinator.addPersistentStore(ofType: storeType, configurationName: nil, at: directory.file("Quakes.store"), options: nil)
        }
        #expect(error?.code == NSPersistentStoreIncompatibleSchemaError)
    }

    @Test func aBatchUpdateOfACompositeIsRefusedWithAnError() throws {
        try withSavedQuakes { url, model in
            let stack = try SQLiteTestStack(model: model, url: url)
            defer { stack.close() }
            let request = NSBatchUpdateRequest(entityName: "Quake")
            request.propertiesToUpdate = ["magnitude": ["richter": 1.0]]
            let error = stack.context.performAndWait { () -> NSError? in
                do {
                    _ = try stack.context.execute(request)
                    return nil
                } catch {
                    return error as NSError
                }
            }
            #expect(error?.domain == NSCocoaErrorDomain)
            #expect(try RawStoreSQL.rows(url, "SELECT ZRICHTER FROM ZQUAKE WHERE ZCODE = 'ak1'") == [[.real(4.6)]])
        }
    }

    @Test func aCompositeWithoutElementsIsRefusedWithAnError() throws {
        let empty = NSCompositeAttributeDescription()
        empty.name = "magnitude"
        let model = ModelFixtureKit.model([ModelFixtureKit.entity("Quake", [empty])])
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        #expect(throws: NSError.self) {
            try coordinator.addPersistentStore(ofType: NSInMemoryStoreType, configurationName: nil, at: nil, options: nil)
        }
    }
}
