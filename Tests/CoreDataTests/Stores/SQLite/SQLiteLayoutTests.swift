@testable import CoreData
import Testing

/// Apple's on-disk layout (spec/store-format.md §2), read back from the file the library writes.
@Suite("SQLite layout (spec §2)")
struct SQLiteLayoutTests {
    /// Creates a Garage store, runs `body`, and removes the files.
    private func withGarageStore(_ body: (SQLiteTestStack, URL) throws -> Void) throws {
        let directory = try SQLiteScratchDirectory("layout")
        defer { directory.remove() }
        let url = directory.file("Garage.sqlite")
        let stack = try SQLiteTestStack(model: SQLiteGarageModel.make(), url: url)
        defer { stack.close() }
        try body(stack, url)
    }

    private func primaryKey(_ object: NSManagedObject) -> Int64 {
        object.objectID.primaryKey ?? -1
    }

    // MARK: Bookkeeping tables (§2.2)

    @Test("Z_PRIMARYKEY, Z_METADATA and Z_MODELCACHE have Apple's exact columns")
    func bookkeepingTables() throws {
        try withGarageStore { _, url in
            let primaryKey = try RawStoreSQL.columns(url, "Z_PRIMARYKEY")
            #expect(primaryKey.map(\.name) == ["Z_ENT", "Z_NAME", "Z_SUPER", "Z_MAX"])
            #expect(primaryKey.map(\.type) == ["INTEGER", "VARCHAR", "INTEGER", "INTEGER"])
            #expect(primaryKey.map(\.pk) == [1, 0, 0, 0])

            let metadata = try RawStoreSQL.columns(url, "Z_METADATA")
            #expect(metadata.map(\.name) == ["Z_VERSION", "Z_UUID", "Z_PLIST"])
            #expect(metadata.map(\.type) == ["INTEGER", "VARCHAR(255)", "BLOB"])
            #expect(metadata.map(\.pk) == [1, 0, 0])

            let cache = try RawStoreSQL.columns(url, "Z_MODELCACHE")
            #expect(cache.map(\.name) == ["Z_CONTENT"])
            #expect(cache.map(\.type) == ["BLOB"])
        }
    }

    @Test("one table per inheritance root, named Z + UPPERCASE root name; join table for the many-to-many")
    func tableNames() throws {
        try withGarageStore { _, url in
            let tables = try RawStoreSQL.tables(url)
            #expect(tables == [
                "ZACCOUNT", "ZPERSON", "ZVEHICLE", "Z_1MEMBERS", "Z_METADATA", "Z_MODELCACHE", "Z_PRIMARYKEY",
            ].sorted())
        }
    }

    // MARK: Entity numbers (§2.3)

    @Test("Z_PRIMARYKEY numbers entities in pre-order, case-insensitive name order, with Z_SUPER")
    func entityNumbering() throws {
        try withGarageStore { _, url in
            let rows = try RawStoreSQL.rows(url, "SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT")
            let entries = rows.map { ($0[0].integer ?? -1, $0[1].text ?? "", $0[2].integer ?? -1, $0[3].integer ?? -1) }
            #expect(entries.map(\.0) == [1, 2, 3, 4, 5, 6])
            #expect(entries.map(\.1) == ["account", "Person", "Vehicle", "car", "SportsCar", "Truck"])
            #expect(entries.map(\.2) == [0, 0, 0, 3, 4, 3])
            #expect(entries.map(\.3) == [0, 0, 0, 0, 0, 0])
        }
    }

    @Test("SyncableSettingsMetadata is 1 and SyncFeatureEntity 2 (case-insensitive order)")
    func caseInsensitiveNumbering() throws {
        let directory = try SQLiteScratchDirectory("numbering")
        defer { directory.remove() }
        let url = directory.file("Sync.sqlite")
        let model = ModelFixtureKit.model([
            ModelFixtureKit.entity("SyncFeatureEntity", [ModelFixtureKit.attribute("name", .stringAttributeType)]),
            ModelFixtureKit.entity("SyncableSettingsMetadata", [ModelFixtureKit.attribute("name", .stringAttributeType)]),
        ])
        let stack = try SQLiteTestStack(model: model, url: url)
        defer { stack.close() }
        let rows = try RawStoreSQL.rows(url, "SELECT Z_ENT, Z_NAME FROM Z_PRIMARYKEY ORDER BY Z_ENT")
        #expect(rows.map { $0[1].text ?? "" } == ["SyncableSettingsMetadata", "SyncFeatureEntity"])
        #expect(rows.map { $0[0].integer ?? -1 } == [1, 2])
    }

    // MARK: Entity tables (§2.4, §2.6)

    @Test("entity tables start with Z_PK, Z_ENT, Z_OPT, then Z<PROPERTY> columns")
    func entityColumns() throws {
        try withGarageStore { _, url in
            for table in ["ZACCOUNT", "ZPERSON", "ZVEHICLE"] {
                let columns = try RawStoreSQL.columns(url, table)
                #expect(columns.prefix(3).map(\.name) == ["Z_PK", "Z_ENT", "Z_OPT"], "\(table)")
                #expect(columns.prefix(3).map(\.type) == ["INTEGER", "INTEGER", "INTEGER"], "\(table)")
                #expect(columns.first?.pk == 1, "\(table)")
            }
            #expect(Set(try RawStoreSQL.columns(url, "ZACCOUNT").map(\.name)) == ["Z_PK", "Z_ENT", "Z_OPT", "ZTITLE"])
            // favoriteVehicle's destination has sub-entities: a typed column Z<n>_NAME, n = Vehicle's Z_ENT (3).
            #expect(Set(try RawStoreSQL.columns(url, "ZPERSON").map(\.name))
                    == ["Z_PK", "Z_ENT", "Z_OPT", "ZNAME", "ZFAVORITEVEHICLE", "Z3_FAVORITEVEHICLE"])
            // The columns of every entity of the hierarchy share the root's table; the ordered
            // one-to-many Person.vehicles adds Z_FOK_<INVERSE> to the destination table.
            #expect(Set(try RawStoreSQL.columns(url, "ZVEHICLE").map(\.name))
                    == ["Z_PK", "Z_ENT", "Z_OPT", "ZPLATE", "ZOWNER", "ZSEATS", "ZTOPSPEED", "ZLOAD", "Z_FOK_OWNER"])
        }
    }

    @Test("declared column types follow §2.5", arguments: [
        ("ZINT16VALUE", "INTEGER"), ("ZINT32VALUE", "INTEGER"), ("ZINT64VALUE", "INTEGER"),
        ("ZDECIMALVALUE", "DECIMAL"), ("ZDOUBLEVALUE", "FLOAT"), ("ZFLOATVALUE", "FLOAT"),
        ("ZSTRINGVALUE", "VARCHAR"), ("ZBOOLVALUE", "INTEGER"), ("ZDATEVALUE", "TIMESTAMP"),
        ("ZBINARYVALUE", "BLOB"), ("ZUUIDVALUE", "BLOB"), ("ZURIVALUE", "VARCHAR"), ("ZTRANSFORMABLEVALUE", "BLOB"),
    ])
    func columnTypes(column: String, type: String) throws {
        let directory = try SQLiteScratchDirectory("types")
        defer { directory.remove() }
        let url = directory.file("Types.sqlite")
        let stack = try SQLiteTestStack(model: SQLiteAllTypesModel.make(), url: url)
        defer { stack.close() }
        let columns = try RawStoreSQL.columns(url, "ZSAMPLE")
        #expect(columns.first { $0.name == column }?.type == type)
    }

    @Test("to-one foreign keys get <TABLE>_<COL>_INDEX, hierarchies <TABLE>_Z_ENT_INDEX; typed columns no index")
    func indexes() throws {
        try withGarageStore { _, url in
            let indexes = try RawStoreSQL.indexes(url)
            #expect(Set(indexes) == [
                "ZPERSON_ZFAVORITEVEHICLE_INDEX",
                "ZVEHICLE_ZOWNER_INDEX",
                "ZVEHICLE_Z_ENT_INDEX",
                "Z_1MEMBERS_Z_2MEMBERS_INDEX",
            ])
            #expect(try RawStoreSQL.indexTable(url, "ZVEHICLE_ZOWNER_INDEX") == "ZVEHICLE")
            #expect(try RawStoreSQL.indexColumns(url, "ZVEHICLE_ZOWNER_INDEX") == ["ZOWNER"])
            #expect(try RawStoreSQL.indexColumns(url, "ZPERSON_ZFAVORITEVEHICLE_INDEX") == ["ZFAVORITEVEHICLE"])
            #expect(try RawStoreSQL.indexColumns(url, "ZVEHICLE_Z_ENT_INDEX") == ["Z_ENT"])
        }
    }

    @Test("many-to-many join table Z_<n><REL> with columns Z_<m><R>, its primary key and index")
    func joinTable() throws {
        try withGarageStore { _, url in
            // account (1).members ↔ Person (2).accounts: the lower entity number names the table.
            // Z_1ACCOUNTS holds account PKs (Person.accounts' destination is account = 1),
            // Z_2MEMBERS holds Person PKs; accounts is ordered, so Z_FOK_1ACCOUNTS orders it.
            let columns = try RawStoreSQL.columns(url, "Z_1MEMBERS")
            #expect(Set(columns.map(\.name)) == ["Z_1ACCOUNTS", "Z_2MEMBERS", "Z_FOK_1ACCOUNTS"])
            #expect(columns.prefix(2).map(\.name) == ["Z_1ACCOUNTS", "Z_2MEMBERS"])
            #expect(columns.first { $0.name == "Z_1ACCOUNTS" }?.pk == 1)
            #expect(columns.first { $0.name == "Z_2MEMBERS" }?.pk == 2)
            #expect(columns.allSatisfy { $0.type == "INTEGER" })
            #expect(!columns.contains { ["Z_PK", "Z_ENT", "Z_OPT"].contains($0.name) })
            #expect(try RawStoreSQL.indexTable(url, "Z_1MEMBERS_Z_2MEMBERS_INDEX") == "Z_1MEMBERS")
            #expect(try RawStoreSQL.indexColumns(url, "Z_1MEMBERS_Z_2MEMBERS_INDEX") == ["Z_2MEMBERS", "Z_1ACCOUNTS"])
        }
    }

    @Test("model indexes: isIndexed → Z_<Entity>_<prop>, fetch index → Z_<Entity>_<name>, uniqueness → Z_<Entity>_UNIQUE_<p1>_<p2>")
    func modelIndexes() throws {
        let directory = try SQLiteScratchDirectory("model-indexes")
        defer { directory.remove() }
        let url = directory.file("Members.sqlite")
        let email = ModelFixtureKit.attribute("email", .stringAttributeType)
        email.isIndexed = true
        let member = ModelFixtureKit.entity("Member", [
            ModelFixtureKit.attribute("firstName", .stringAttributeType),
            ModelFixtureKit.attribute("lastName", .stringAttributeType),
            email,
        ])
        let element = NSFetchIndexElementDescription(property: email, collationType: .binary)
        element.isAscending = false
        member.indexes = [NSFetchIndexDescription(name: "byEmail", elements: [element])]
        member.uniquenessConstraints = [["firstName", "lastName"]]
        let stack = try SQLiteTestStack(model: ModelFixtureKit.model([member]), url: url)
        defer { stack.close() }

        func sql(_ index: String) throws -> String? {
            try RawStoreSQL.value(url, "SELECT sql FROM sqlite_master WHERE type = 'index' AND name = '\(index)'")?.text
        }
        func normalized(_ text: String?) -> String? {
            text?.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ").uppercased()
                .replacingOccurrences(of: "( ", with: "(").replacingOccurrences(of: " )", with: ")")
        }
        #expect(Set(try RawStoreSQL.indexes(url)) == ["Z_Member_email", "Z_Member_byEmail", "Z_Member_UNIQUE_firstName_lastName"])
        #expect(normalized(try sql("Z_Member_email"))?.hasSuffix("ON ZMEMBER (ZEMAIL COLLATE BINARY ASC)") == true)
        #expect(normalized(try sql("Z_Member_byEmail"))?.hasSuffix("ON ZMEMBER (ZEMAIL COLLATE BINARY DESC)") == true)
        let unique = normalized(try sql("Z_Member_UNIQUE_firstName_lastName"))
        #expect(unique?.hasPrefix("CREATE UNIQUE INDEX") == true)
        #expect(unique?.hasSuffix("ON ZMEMBER (ZFIRSTNAME COLLATE BINARY ASC, ZLASTNAME COLLATE BINARY ASC)") == true)
    }

    // MARK: Rows

    /// Inserts Ann with vehicles [truck, sports car, car], favourite = sports car, accounts [a2, a1].
    private func insertGarage(_ context: NSManagedObjectContext) -> (person: NSManagedObject, truck: NSManagedObject, sports: NSManagedObject, car: NSManagedObject, a1: NSManagedObject, a2: NSManagedObject) {
        let person = NSEntityDescription.insertNewObject(forEntityName: "Person", into: context)
        person.setValue("Ann", forKey: "name")
        let truck = NSEntityDescription.insertNewObject(forEntityName: "Truck", into: context)
        truck.setValue("T-1", forKey: "plate")
        let sports = NSEntityDescription.insertNewObject(forEntityName: "SportsCar", into: context)
        sports.setValue("S-1", forKey: "plate")
        let car = NSEntityDescription.insertNewObject(forEntityName: "car", into: context)
        car.setValue("C-1", forKey: "plate")
        let a1 = NSEntityDescription.insertNewObject(forEntityName: "account", into: context)
        a1.setValue("first", forKey: "title")
        let a2 = NSEntityDescription.insertNewObject(forEntityName: "account", into: context)
        a2.setValue("second", forKey: "title")
        person.setValue(NSOrderedSet(array: [truck, sports, car]), forKey: "vehicles")
        person.setValue(sports, forKey: "favoriteVehicle")
        person.setValue(NSOrderedSet(array: [a2, a1]), forKey: "accounts")
        return (person, truck, sports, car, a1, a2)
    }

    @Test("rows carry Z_ENT of their concrete entity; only the root's Z_MAX advances")
    func primaryKeysAndZMax() throws {
        try withGarageStore { stack, url in
            let pks = try stack.context.performAndWait {
                let garage = insertGarage(stack.context)
                try stack.context.save()
                return (truck: primaryKey(garage.truck), sports: primaryKey(garage.sports), car: primaryKey(garage.car))
            }
            #expect(Set([pks.truck, pks.sports, pks.car]) == [1, 2, 3])
            let rows = try RawStoreSQL.rows(url, "SELECT Z_PK, Z_ENT, Z_OPT FROM ZVEHICLE ORDER BY Z_PK")
            let entityByKey = Dictionary(uniqueKeysWithValues: rows.map { ($0[0].integer ?? -1, $0[1].integer ?? -1) })
            #expect(entityByKey[pks.truck] == 6)
            #expect(entityByKey[pks.sports] == 5)
            #expect(entityByKey[pks.car] == 4)
            #expect(rows.allSatisfy { $0[2].integer == 1 }, "Z_OPT is 1 after insert")

            var zmax = try RawStoreSQL.rows(url, "SELECT Z_NAME, Z_MAX FROM Z_PRIMARYKEY")
            var byName = Dictionary(uniqueKeysWithValues: zmax.map { ($0[0].text ?? "", $0[1].integer ?? -1) })
            #expect(byName == ["account": 2, "Person": 1, "Vehicle": 3, "car": 0, "SportsCar": 0, "Truck": 0])

            let newTruck = try stack.context.performAndWait {
                let truck = NSEntityDescription.insertNewObject(forEntityName: "Truck", into: stack.context)
                truck.setValue("T-2", forKey: "plate")
                try stack.context.save()
                return primaryKey(truck)
            }
            #expect(newTruck == 4)
            zmax = try RawStoreSQL.rows(url, "SELECT Z_NAME, Z_MAX FROM Z_PRIMARYKEY")
            byName = Dictionary(uniqueKeysWithValues: zmax.map { ($0[0].text ?? "", $0[1].integer ?? -1) })
            #expect(byName["Vehicle"] == 4)
            #expect(byName["Truck"] == 0)
        }
    }

    @Test("a save inserting entities of several roots in turn hands out each root's keys in order")
    func interleavedRootsKeepTheirKeys() throws {
        try withGarageStore { stack, url in
            let names = ["Truck", "account", "car", "account", "SportsCar", "Person", "Truck", "account"]
            let keys = try stack.context.performAndWait {
                let objects = names.map { NSEntityDescription.insertNewObject(forEntityName: $0, into: stack.context) }
                try stack.context.save()
                return objects.map(primaryKey)
            }
            let vehicleKeys = zip(names, keys).filter { ["Truck", "car", "SportsCar"].contains($0.0) }.map(\.1)
            #expect(Set(vehicleKeys) == [1, 2, 3, 4])
            #expect(Set(zip(names, keys).filter { $0.0 == "account" }.map(\.1)) == [1, 2, 3])
            #expect(zip(names, keys).first { $0.0 == "Person" }?.1 == 1)
            let zmax = try RawStoreSQL.rows(url, "SELECT Z_NAME, Z_MAX FROM Z_PRIMARYKEY")
            let byName = Dictionary(uniqueKeysWithValues: zmax.map { ($0[0].text ?? "", $0[1].integer ?? -1) })
            #expect(byName == ["account": 3, "Person": 1, "Vehicle": 4, "car": 0, "SportsCar": 0, "Truck": 0])
        }
    }

    @Test("Z_OPT is 1 after insert and grows by one with each saved update")
    func optimisticLockingVersion() throws {
        try withGarageStore { stack, url in
            let (sports, sportsKey, truckKey) = try stack.context.performAndWait {
                let garage = insertGarage(stack.context)
                try stack.context.save()
                return (garage.sports, primaryKey(garage.sports), primaryKey(garage.truck))
            }
            func version(_ key: Int64) throws -> Int64? {
                try RawStoreSQL.value(url, "SELECT Z_OPT FROM ZVEHICLE WHERE Z_PK = \(key)")?.integer
            }
            #expect(try version(sportsKey) == 1)
            try stack.context.performAndWait {
                sports.setValue("S-2", forKey: "plate")
                try stack.context.save()
            }
            #expect(try version(sportsKey) == 2)
            try stack.context.performAndWait {
                sports.setValue(300.5, forKey: "topSpeed")
                try stack.context.save()
            }
            #expect(try version(sportsKey) == 3)
            #expect(try version(truckKey) == 1)
            #expect(try RawStoreSQL.value(url, "SELECT ZPLATE FROM ZVEHICLE WHERE Z_PK = \(sportsKey)")?.text == "S-2")
        }
    }

    @Test("to-one values: foreign key to the destination's Z_PK, typed column holds its Z_ENT")
    func toOneValues() throws {
        try withGarageStore { stack, url in
            let (person, truck, personKey, sportsKey, truckKey) = try stack.context.performAndWait {
                let garage = insertGarage(stack.context)
                try stack.context.save()
                return (garage.person, garage.truck, primaryKey(garage.person), primaryKey(garage.sports), primaryKey(garage.truck))
            }
            let row = try #require(try RawStoreSQL.rows(url, "SELECT ZFAVORITEVEHICLE, Z3_FAVORITEVEHICLE FROM ZPERSON WHERE Z_PK = \(personKey)").first)
            #expect(row[0].integer == sportsKey)
            #expect(row[1].integer == 5, "SportsCar's Z_ENT")
            #expect(try RawStoreSQL.value(url, "SELECT ZOWNER FROM ZVEHICLE WHERE Z_PK = \(truckKey)")?.integer == personKey)

            // Pointing at a Truck changes the typed column to 6.
            try stack.context.performAndWait {
                person.setValue(truck, forKey: "favoriteVehicle")
                try stack.context.save()
            }
            let updated = try #require(try RawStoreSQL.rows(url, "SELECT ZFAVORITEVEHICLE, Z3_FAVORITEVEHICLE FROM ZPERSON WHERE Z_PK = \(personKey)").first)
            #expect(updated[0].integer == truckKey)
            #expect(updated[1].integer == 6)
        }
    }

    @Test("ordered one-to-many: Z_FOK_<INVERSE> holds 2048, 3072, 4096 in order")
    func orderedOneToMany() throws {
        try withGarageStore { stack, url in
            let keys = try stack.context.performAndWait {
                let garage = insertGarage(stack.context)
                try stack.context.save()
                return [primaryKey(garage.truck), primaryKey(garage.sports), primaryKey(garage.car)]
            }
            var positions: [Int64?] = []
            for key in keys {
                positions.append(try RawStoreSQL.value(url, "SELECT Z_FOK_OWNER FROM ZVEHICLE WHERE Z_PK = \(key)")?.integer)
            }
            #expect(positions == [2048, 3072, 4096])
        }
    }

    @Test("many-to-many rows: Z_1ACCOUNTS/Z_2MEMBERS pairs with ordering positions")
    func manyToManyRows() throws {
        try withGarageStore { stack, url in
            let (a1, a2, person) = try stack.context.performAndWait {
                let garage = insertGarage(stack.context)
                try stack.context.save()
                return (primaryKey(garage.a1), primaryKey(garage.a2), primaryKey(garage.person))
            }
            let rows = try RawStoreSQL.rows(url, "SELECT Z_1ACCOUNTS, Z_2MEMBERS, Z_FOK_1ACCOUNTS FROM Z_1MEMBERS ORDER BY Z_FOK_1ACCOUNTS")
            #expect(rows.count == 2)
            #expect(rows.map { $0[0].integer } == [a2, a1])
            #expect(rows.allSatisfy { $0[1].integer == person })
            #expect(rows.map { $0[2].integer } == [2048, 3072])
        }
    }

    @Test("deleting removes the row and its join-table rows; primary keys are not reused")
    func deleteRows() throws {
        try withGarageStore { stack, url in
            let (a2Key, carKey) = try stack.context.performAndWait {
                let garage = insertGarage(stack.context)
                try stack.context.save()
                let keys = (primaryKey(garage.a2), primaryKey(garage.car))
                stack.context.delete(garage.a2)
                stack.context.delete(garage.car)
                try stack.context.save()
                return keys
            }
            #expect(try RawStoreSQL.value(url, "SELECT COUNT(Z_PK) FROM ZACCOUNT WHERE Z_PK = \(a2Key)")?.integer == 0)
            #expect(try RawStoreSQL.value(url, "SELECT COUNT(Z_PK) FROM ZVEHICLE WHERE Z_PK = \(carKey)")?.integer == 0)
            #expect(try RawStoreSQL.value(url, "SELECT COUNT(Z_1ACCOUNTS) FROM Z_1MEMBERS WHERE Z_1ACCOUNTS = \(a2Key)")?.integer == 0)
            #expect(try RawStoreSQL.value(url, "SELECT COUNT(Z_1ACCOUNTS) FROM Z_1MEMBERS")?.integer == 1)
            #expect(try RawStoreSQL.value(url, "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Vehicle'")?.integer == 3)
            let newKey = try stack.context.performAndWait {
                let car = NSEntityDescription.insertNewObject(forEntityName: "car", into: stack.context)
                car.setValue("C-2", forKey: "plate")
                try stack.context.save()
                return primaryKey(car)
            }
            #expect(newKey == 4, "Z_MAX only grows: no key of a deleted row (\(carKey)) is handed out again")
        }
    }

    @Test("the layout reads back: relationships and order survive a reopen")
    func reopen() throws {
        let directory = try SQLiteScratchDirectory("layout-reopen")
        defer { directory.remove() }
        let url = directory.file("Garage.sqlite")
        let model = SQLiteGarageModel.make()
        do {
            let stack = try SQLiteTestStack(model: model, url: url)
            try stack.context.performAndWait {
                _ = insertGarage(stack.context)
                try stack.context.save()
            }
            stack.close()
        }
        let stack = try SQLiteTestStack(model: model, url: url)
        defer { stack.close() }
        try stack.context.performAndWait {
            let people = try stack.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Person"))
            let person = try #require(people.first)
            let vehicles = try #require(person.value(forKey: "vehicles") as? NSOrderedSet)
            #expect(vehicles.array.compactMap { ($0 as? NSManagedObject)?.value(forKey: "plate") as? String } == ["T-1", "S-1", "C-1"])
            #expect(vehicles.array.compactMap { ($0 as? NSManagedObject)?.entity.name } == ["Truck", "SportsCar", "car"])
            let favorite = person.value(forKey: "favoriteVehicle") as? NSManagedObject
            #expect(favorite?.entity.name == "SportsCar")
            let accounts = try #require(person.value(forKey: "accounts") as? NSOrderedSet)
            #expect(accounts.array.compactMap { ($0 as? NSManagedObject)?.value(forKey: "title") as? String } == ["second", "first"])
            let vehiclesFetched = try stack.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "car"))
            #expect(Set(vehiclesFetched.compactMap { $0.entity.name }) == ["car", "SportsCar"])
        }
    }

    // MARK: File settings (§2.1) and value encodings (§2.5)

    @Test("journal mode WAL, auto_vacuum INCREMENTAL, page size 4096, header bytes 18/19 = 2")
    func fileSettings() throws {
        try withGarageStore { _, url in
            #expect(try RawStoreSQL.value(url, "PRAGMA journal_mode")?.text?.lowercased() == "wal")
            #expect(try RawStoreSQL.value(url, "PRAGMA auto_vacuum")?.integer == 2)
            #expect(try RawStoreSQL.value(url, "PRAGMA page_size")?.integer == 4096)
            let header = try #require(StoreFileProbe.bytes(url)).prefix(100)
            #expect(header.count == 100)
            #expect(header.starts(with: Array("SQLite format 3\u{0}".utf8)))
            #expect(Array(header)[18] == 2)
            #expect(Array(header)[19] == 2)
        }
    }

    @Test("values are stored as Apple stores them: dates since 2001, 16-byte UUIDs, 0/1 booleans")
    func valueEncodings() throws {
        let directory = try SQLiteScratchDirectory("encodings")
        defer { directory.remove() }
        let url = directory.file("Types.sqlite")
        let stack = try SQLiteTestStack(model: SQLiteAllTypesModel.make(), url: url)
        defer { stack.close() }
        let uuid = try #require(UUID(uuidString: "C4637490-BD7F-4428-B093-63A1720E17D2"))
        try stack.context.performAndWait {
            let yes = NSEntityDescription.insertNewObject(forEntityName: "Sample", into: stack.context)
            yes.setValue("yes", forKey: "key")
            yes.setValue(true, forKey: "boolValue")
            yes.setValue(Date(timeIntervalSinceReferenceDate: 737057646.843063), forKey: "dateValue")
            yes.setValue(uuid, forKey: "uuidValue")
            yes.setValue(NSDecimalNumber(string: "10.11"), forKey: "decimalValue")
            yes.setValue(URL(string: "https://example.com/a?b=c"), forKey: "uriValue")
            yes.setValue(Int64(-5), forKey: "int64Value")
            yes.setValue(Data([0xff, 0xd8, 0xff, 0xe0]), forKey: "binaryValue")
            yes.setValue(["a": 1] as NSDictionary, forKey: "transformableValue")
            let no = NSEntityDescription.insertNewObject(forEntityName: "Sample", into: stack.context)
            no.setValue("no", forKey: "key")
            no.setValue(false, forKey: "boolValue")
            try stack.context.save()
        }
        let row = try #require(try RawStoreSQL.rows(url, "SELECT ZBOOLVALUE, ZDATEVALUE, ZUUIDVALUE, ZDECIMALVALUE, ZURIVALUE, ZINT64VALUE, ZBINARYVALUE, ZTRANSFORMABLEVALUE, typeof(ZBOOLVALUE), typeof(ZDATEVALUE), typeof(ZDECIMALVALUE) FROM ZSAMPLE WHERE ZKEY = 'yes'").first)
        #expect(row[0] == .integer(1))
        #expect(row[1] == .real(737057646.843063))
        #expect(row[2] == .blob(Data([0xc4, 0x63, 0x74, 0x90, 0xbd, 0x7f, 0x44, 0x28, 0xb0, 0x93, 0x63, 0xa1, 0x72, 0x0e, 0x17, 0xd2])))
        #expect(row[3] == .real(10.11))
        #expect(row[4] == .text("https://example.com/a?b=c"))
        #expect(row[5] == .integer(-5))
        #expect(row[6] == .blob(Data([0xff, 0xd8, 0xff, 0xe0])), "plain Binary is stored raw, without a prefix")
        #expect(row[7].blob?.starts(with: Array("bplist00".utf8)) == true, "secure-unarchiving transformable stores a keyed archive")
        #expect(row[8] == .text("integer"))
        #expect(row[9] == .text("real"))
        #expect(row[10] == .text("real"))
        #expect(try RawStoreSQL.value(url, "SELECT ZBOOLVALUE FROM ZSAMPLE WHERE ZKEY = 'no'") == .integer(0))
        #expect(try RawStoreSQL.value(url, "SELECT ZSTRINGVALUE FROM ZSAMPLE WHERE ZKEY = 'no'") == .null, "nil is NULL")
    }
}
