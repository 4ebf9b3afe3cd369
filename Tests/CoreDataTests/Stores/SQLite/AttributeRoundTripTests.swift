@testable import CoreData
import CoreDataPostgreSQL
import Testing

/// Every attribute type written to a relational store (SQLite, and PostgreSQL when there is a
/// server) and read back by a new coordinator and context, with the value classes Apple's KVC
/// hands out (NSNumber, NSDecimalNumber, String, Date, Data, UUID, URL).
@Suite("Attribute round trip through a relational store")
struct AttributeRoundTripTests {
    static let uuid = UUID(uuidString: "C4637490-BD7F-4428-B093-63A1720E17D2")!
    static let date = Date(timeIntervalSinceReferenceDate: 737057646.843063)
    static let url = URL(string: "https://example.com/a%20b/c?q=1&r=%C3%A9#frag")!

    /// Writes objects (key → values) with one stack, then reads them back with a new one.
    private func roundTrip(_ storeType: String, _ objects: [String: [String: Any]]) throws -> [String: [String: Any?]] {
        let writer = try CtxStack(model: SQLiteAllTypesModel.make(), storeType: storeType)
        try writer.context.performAndWait {
            for (key, values) in objects {
                let object = NSEntityDescription.insertNewObject(forEntityName: "Sample", into: writer.context)
                object.setValue(key, forKey: "key")
                for (name, value) in values {
                    object.setValue(value, forKey: name)
                }
            }
            try writer.context.save()
        }
        let stack = try writer.reopened()
        return try stack.context.performAndWait {
            var result: [String: [String: Any?]] = [:]
            for object in try stack.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Sample")) {
                guard let key = object.value(forKey: "key") as? String else { continue }
                var values: [String: Any?] = [:]
                for attribute in SQLiteAllTypesModel.attributes {
                    values[attribute.name] = object.value(forKey: attribute.name)
                }
                result[key] = values
            }
            return result
        }
    }

    @Test("integers keep their boundary values and come back as NSNumber", arguments: MigrationScenario.relationalStoreTypes)
    func integers(storeType: String) throws {
        let read = try roundTrip(storeType, [
            "max": ["int16Value": Int16.max, "int32Value": Int32.max, "int64Value": Int64.max],
            "min": ["int16Value": Int16.min, "int32Value": Int32.min, "int64Value": Int64.min],
            "zero": ["int16Value": 0, "int32Value": 0, "int64Value": 0],
        ])
        let max = try #require(read["max"])
        let min = try #require(read["min"])
        for name in ["int16Value", "int32Value", "int64Value"] {
            #expect(valueIsInstance(max[name] ?? nil, of: NSNumber.self), "\(name) is an NSNumber")
            #expect(valueIsInstance(min[name] ?? nil, of: NSNumber.self), "\(name) is an NSNumber")
        }
        #expect((max["int16Value"] as? NSNumber)?.int16Value == Int16.max)
        #expect((min["int16Value"] as? NSNumber)?.int16Value == Int16.min)
        #expect((max["int32Value"] as? NSNumber)?.int32Value == Int32.max)
        #expect((min["int32Value"] as? NSNumber)?.int32Value == Int32.min)
        #expect((max["int64Value"] as? NSNumber)?.int64Value == Int64.max)
        #expect((min["int64Value"] as? NSNumber)?.int64Value == Int64.min)
        #expect((read["zero"]?["int64Value"] as? NSNumber)?.int64Value == 0)
    }

    @Test("decimals stay exact NSDecimalNumbers", arguments: MigrationScenario.relationalStoreTypes)
    func decimals(storeType: String) throws {
        let values = ["10.11", "3.14159265358979", "0.1", "-2.5", "12345.6789", "-98765.4321", "0.3"]
        var objects: [String: [String: Any]] = [:]
        for value in values { objects[value] = ["decimalValue": NSDecimalNumber(string: value)] }
        let read = try roundTrip(storeType, objects)
        for value in values {
            let decimal = read[value]?["decimalValue"] ?? nil
            #expect(valueIsInstance(decimal, of: NSDecimalNumber.self), "\(value) comes back as NSDecimalNumber")
            #expect((decimal as? NSDecimalNumber)?.compare(NSDecimalNumber(string: value)) == .orderedSame, "\(value)")
            #expect((decimal as? NSDecimalNumber)?.stringValue == value)
        }
    }

    @Test("infinite numbers given to a decimal attribute become not-a-number instead of trapping", arguments: MigrationScenario.relationalStoreTypes)
    func infiniteDecimals(storeType: String) throws {
        let read = try roundTrip(storeType, [
            "infinity": ["decimalValue": Double.infinity],
            "nan": ["decimalValue": NSNumber(value: Double.nan)],
            "finite": ["decimalValue": 2.5],
        ])
        #expect((read["finite"]?["decimalValue"] as? NSDecimalNumber)?.stringValue == "2.5")
        #expect((read["infinity"]?["decimalValue"] ?? nil) == nil, "NaN is stored as NULL")
        #expect((read["nan"]?["decimalValue"] ?? nil) == nil)
        #expect(NSDecimalNumber(shortestDigitsOf: -.infinity).decimalValue.isNaN)
        #expect(NSPredicate(format: "decimalValue <= 1e999").evaluate(with: ["decimalValue": NSDecimalNumber(string: "2.5")]))
    }

    @Test("Double and Float keep their values", arguments: MigrationScenario.relationalStoreTypes)
    func floatingPoint(storeType: String) throws {
        let read = try roundTrip(storeType, [
            "a": ["doubleValue": Double.pi, "floatValue": Float(1.1)],
            "b": ["doubleValue": -Double.greatestFiniteMagnitude, "floatValue": Float.leastNormalMagnitude],
            "c": ["doubleValue": 1.0 / 3.0, "floatValue": Float(-0.5)],
        ])
        #expect((read["a"]?["doubleValue"] as? NSNumber)?.doubleValue == Double.pi)
        #expect((read["a"]?["floatValue"] as? NSNumber)?.floatValue == Float(1.1))
        #expect((read["b"]?["doubleValue"] as? NSNumber)?.doubleValue == -Double.greatestFiniteMagnitude)
        #expect((read["b"]?["floatValue"] as? NSNumber)?.floatValue == Float.leastNormalMagnitude)
        #expect((read["c"]?["doubleValue"] as? NSNumber)?.doubleValue == 1.0 / 3.0)
        #expect((read["c"]?["floatValue"] as? NSNumber)?.floatValue == -0.5)
        #expect(valueIsInstance(read["a"]?["doubleValue"] ?? nil, of: NSNumber.self))
        #expect(valueIsInstance(read["a"]?["floatValue"] ?? nil, of: NSNumber.self))
    }

    @Test("strings: Unicode and the empty string", arguments: MigrationScenario.relationalStoreTypes)
    func strings(storeType: String) throws {
        let unicode = "Zoë — 日本語 — 😀👩‍👩‍👧 — e\u{301}"
        let read = try roundTrip(storeType, [
            "unicode": ["stringValue": unicode],
            "empty": ["stringValue": ""],
            "quotes": ["stringValue": "it's \"quoted\"; DROP TABLE ZSAMPLE; --"],
        ])
        #expect(read["unicode"]?["stringValue"] as? String == unicode)
        #expect((read["unicode"]?["stringValue"] as? String)?.unicodeScalars.elementsEqual(unicode.unicodeScalars) == true)
        #expect(read["empty"]?["stringValue"] as? String == "", "an empty string is not nil")
        #expect(read["quotes"]?["stringValue"] as? String == "it's \"quoted\"; DROP TABLE ZSAMPLE; --")
    }

    @Test("a string with an embedded NUL character survives; PostgreSQL's text refuses it at save (README)",
          arguments: MigrationScenario.relationalStoreTypes)
    func stringWithNul(storeType: String) throws {
        let value = "before\u{0}after"
        if storeType == NSPostgreSQLStoreType {
            let error = #expect(throws: NSError.self) { try roundTrip(storeType, ["nul": ["stringValue": value]]) }
            #expect(error?.domain == NSCocoaErrorDomain)
            #expect(error?.code == NSPersistentStoreSaveError)
        } else {
            let read = try roundTrip(storeType, ["nul": ["stringValue": value]])
            #expect(read["nul"]?["stringValue"] as? String == value)
        }
    }

    @Test("booleans come back as NSNumber true/false", arguments: MigrationScenario.relationalStoreTypes)
    func booleans(storeType: String) throws {
        let read = try roundTrip(storeType, ["yes": ["boolValue": true], "no": ["boolValue": false]])
        #expect((read["yes"]?["boolValue"] as? NSNumber)?.boolValue == true)
        #expect((read["no"]?["boolValue"] as? NSNumber)?.boolValue == false)
        #expect(valueIsInstance(read["yes"]?["boolValue"] ?? nil, of: NSNumber.self))
    }

    @Test("dates keep sub-second precision", arguments: MigrationScenario.relationalStoreTypes)
    func dates(storeType: String) throws {
        let early = Date(timeIntervalSinceReferenceDate: -978307200.25) // 1970-01-01 minus a quarter second
        let read = try roundTrip(storeType, ["a": ["dateValue": Self.date], "b": ["dateValue": early]])
        #expect(read["a"]?["dateValue"] as? Date == Self.date)
        #expect((read["a"]?["dateValue"] as? Date)?.timeIntervalSinceReferenceDate == 737057646.843063)
        #expect(read["b"]?["dateValue"] as? Date == early)
    }

    @Test("binary data, UUID and URI", arguments: MigrationScenario.relationalStoreTypes)
    func binaryUUIDAndURI(storeType: String) throws {
        let bytes = Data((0..<300).map { UInt8($0 % 256) })
        let read = try roundTrip(storeType, [
            "a": ["binaryValue": bytes, "uuidValue": Self.uuid, "uriValue": Self.url],
            "empty": ["binaryValue": Data()],
        ])
        #expect(read["a"]?["binaryValue"] as? Data == bytes)
        #expect(read["a"]?["uuidValue"] as? UUID == Self.uuid)
        #expect(read["a"]?["uriValue"] as? URL == Self.url)
        #expect((read["a"]?["uriValue"] as? URL)?.absoluteString == Self.url.absoluteString)
        #expect(read["empty"]?["binaryValue"] as? Data == Data(), "empty data is not nil")
    }

    @Test("transformable values (NSSecureUnarchiveFromDataTransformer): dictionaries and arrays of strings and numbers", arguments: MigrationScenario.relationalStoreTypes)
    func transformables(storeType: String) throws {
        let dictionary: NSDictionary = ["name": "Ripley", "count": 3, "ratio": 0.5, "nested": ["a", "b"] as NSArray]
        let array: NSArray = ["a", 1, 2.5, "ü"]
        let read = try roundTrip(storeType, ["t": ["transformableValue": dictionary, "defaultTransformableValue": array]])
        let readDictionary = read["t"]?["transformableValue"] as? NSDictionary
        #expect(readDictionary == dictionary)
        #expect(readDictionary?["name"] as? String == "Ripley")
        #expect((readDictionary?["count"] as? NSNumber)?.intValue == 3)
        #expect((readDictionary?["nested"] as? NSArray) == (["a", "b"] as NSArray))
        let readArray = read["t"]?["defaultTransformableValue"] as? NSArray
        #expect(readArray == array)
    }

    @Test("every optional attribute can be nil", arguments: MigrationScenario.relationalStoreTypes)
    func nils(storeType: String) throws {
        let read = try roundTrip(storeType, ["nil": [:]])
        let values = try #require(read["nil"])
        for attribute in SQLiteAllTypesModel.attributes where attribute.name != "key" {
            let value = values[attribute.name] ?? nil
            #expect(value == nil, "\(attribute.name) should be nil, got \(String(describing: value))")
        }
    }

    @Test("changing values and setting them to nil is saved too", arguments: MigrationScenario.relationalStoreTypes)
    func updatesAndNil(storeType: String) throws {
        let writer = try CtxStack(model: SQLiteAllTypesModel.make(), storeType: storeType)
        try writer.context.performAndWait {
            let object = NSEntityDescription.insertNewObject(forEntityName: "Sample", into: writer.context)
            object.setValue("k", forKey: "key")
            object.setValue("first", forKey: "stringValue")
            object.setValue(Self.uuid, forKey: "uuidValue")
            object.setValue(7, forKey: "int32Value")
            try writer.context.save()
            object.setValue("second", forKey: "stringValue")
            object.setValue(nil, forKey: "uuidValue")
            object.setValue(8, forKey: "int32Value")
            try writer.context.save()
        }
        let stack = try writer.reopened()
        try stack.context.performAndWait {
            let object = try #require(try stack.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Sample")).first)
            #expect(object.value(forKey: "stringValue") as? String == "second")
            #expect(object.value(forKey: "uuidValue") == nil)
            #expect((object.value(forKey: "int32Value") as? NSNumber)?.intValue == 8)
        }
    }

    @Test("KVC value classes: String, Date, Data, UUID, URL", arguments: MigrationScenario.relationalStoreTypes)
    func valueClasses(storeType: String) throws {
        let read = try roundTrip(storeType, ["a": [
            "stringValue": "s", "dateValue": Self.date, "binaryValue": Data([1]), "uuidValue": Self.uuid, "uriValue": Self.url,
        ]])
        let values = try #require(read["a"])
        #expect((values["stringValue"] ?? nil) is String)
        #expect((values["dateValue"] ?? nil) is Date)
        #expect((values["binaryValue"] ?? nil) is Data)
        #expect((values["uuidValue"] ?? nil) is UUID)
        #expect((values["uriValue"] ?? nil) is URL)
    }
}
