@testable import CoreData
import Testing

/// Lightweight migration of relationships and inheritance on real stores: join tables and typed
/// foreign keys across entity renumbering, a one-to-one becoming one-to-many, entities leaving
/// or dropping out of a hierarchy, and a failure part-way through a migration.
@Suite struct RelationshipMigrationTests {
    typealias Kit = ModelFixtureKit
    typealias Models = MigrationModels

    /// Students and courses, many-to-many; `extra` adds an entity that sorts first, which
    /// renumbers every other entity and renames the join table.
    private func school(extra: Bool) -> NSManagedObjectModel {
        let student = Kit.entity("Student", [Models.attribute("name", .stringAttributeType)])
        let course = Kit.entity("Course", [Models.attribute("code", .stringAttributeType)])
        let courses = Kit.relationship("courses", to: course, maxCount: 0)
        let students = Kit.relationship("students", to: student, maxCount: 0)
        Kit.inverse(courses, students)
        student.properties += [courses]
        course.properties += [students]
        return Kit.model((extra ? [Kit.entity("Advisor", [Models.attribute("name", .stringAttributeType)])] : []) + [student, course])
    }

    @Test func manyToManyPairsSurviveRenumbering() throws {
        let scenario = try MigrationScenario("many-to-many")
        defer { scenario.remove() }
        try scenario.write(school(extra: false)) { context in
            let math = ctxInsert("Course", into: context, ["code": "MATH"])
            let art = ctxInsert("Course", into: context, ["code": "ART"])
            ctxInsert("Student", into: context, ["name": "Ann", "courses": NSSet(array: [math, art])])
            ctxInsert("Student", into: context, ["name": "Bob", "courses": NSSet(array: [math])])
        }
        let tablesBefore = try RawStoreSQL.tables(scenario.url)
        try scenario.migrate(from: school(extra: false), to: school(extra: true))
        let tablesAfter = try RawStoreSQL.tables(scenario.url)
        let joinTables = { (tables: [String]) in tables.filter { $0.hasPrefix("Z_") && $0.dropFirst(2).first?.isNumber == true } }
        #expect(joinTables(tablesBefore).count == 1)
        #expect(joinTables(tablesBefore) != joinTables(tablesAfter))
        let enrolment = try scenario.read(school(extra: true)) { context in
            try ctxFetch("Student", in: context, sortedBy: "name").map { student in
                ((student.value(forKey: "courses") as? NSSet)?.allObjects as? [NSManagedObject] ?? []).compactMap { $0.value(forKey: "code") as? String }.sorted()
            }
        }
        #expect(enrolment == [["ART", "MATH"], ["MATH"]])
    }

    @Test func aOneToOneBecomesOneToMany() throws {
        func model(_ toMany: Bool) -> NSManagedObjectModel {
            let person = Kit.entity("Person", [Models.attribute("name", .stringAttributeType)])
            let passport = Kit.entity("Passport", [Models.attribute("number", .stringAttributeType)])
            let passports = Kit.relationship(toMany ? "passports" : "passport", to: passport, maxCount: toMany ? 0 : 1)
            passports.renamingIdentifier = toMany ? "passport" : nil
            let owner = Kit.relationship("owner", to: person, maxCount: 1)
            Kit.inverse(passports, owner)
            person.properties += [passports]
            passport.properties += [owner]
            return Kit.model([person, passport])
        }
        let scenario = try MigrationScenario("one-to-many")
        defer { scenario.remove() }
        try scenario.write(model(false)) { context in
            let ann = ctxInsert("Person", into: context, ["name": "Ann"])
            ctxInsert("Passport", into: context, ["number": "X1", "owner": ann])
            ctxInsert("Person", into: context, ["name": "Bob"])
        }
        try scenario.migrate(from: model(false), to: model(true))
        let numbers = try scenario.read(model(true)) { context in
            try ctxFetch("Person", in: context, sortedBy: "name").map { person in
                ((person.value(forKey: "passports") as? NSSet)?.allObjects as? [NSManagedObject] ?? []).compactMap { $0.value(forKey: "number") as? String }
            }
        }
        #expect(numbers == [["X1"], []])
    }

    /// Vehicles with Car and Bike sub-entities, and owners whose to-one points at a vehicle
    /// (a typed foreign key, as the destination has sub-entities).
    private func garage(carLeaves: Bool = false, bikeRemoved: Bool = false, extra: Bool = false) -> NSManagedObjectModel {
        let vehicle = Kit.entity("Vehicle", [Models.attribute("plate", .stringAttributeType)])
        let car = Kit.entity("Car", [Models.attribute("doors", .integer16AttributeType)] + (carLeaves ? [Models.attribute("plate", .stringAttributeType)] : []))
        let bike = Kit.entity("Bike", [Models.attribute("gears", .integer16AttributeType)])
        vehicle.subentities = (carLeaves ? [] : [car]) + (bikeRemoved ? [] : [bike])
        let owner = Kit.entity("Owner", [Models.attribute("name", .stringAttributeType), Kit.relationship("ride", to: vehicle, maxCount: 1)])
        return Kit.model([vehicle, car] + (bikeRemoved ? [] : [bike]) + [owner] + (extra ? [Kit.entity("Aardvark")] : []))
    }

    private func writeGarage(_ scenario: MigrationScenario) throws {
        try scenario.write(garage()) { context in
            let bike = ctxInsert("Bike", into: context, ["plate": "B-1", "gears": 21])
            ctxInsert("Car", into: context, ["plate": "C-1", "doors": 5])
            ctxInsert("Owner", into: context, ["name": "Ann", "ride": bike])
        }
    }

    @Test func typedForeignKeysFollowRenumberedEntities() throws {
        let scenario = try MigrationScenario("typed")
        defer { scenario.remove() }
        try writeGarage(scenario)
        try scenario.migrate(from: garage(), to: garage(extra: true))
        let ride = try scenario.read(garage(extra: true)) { context in
            let owner = try #require(try ctxFetch("Owner", in: context).first)
            let ride = try #require(owner.value(forKey: "ride") as? NSManagedObject)
            return "\(ride.entity.name ?? "?") \(ride.value(forKey: "plate") as? String ?? "?")"
        }
        #expect(ride == "Bike B-1")
    }

    @Test func anEntityLeavesItsHierarchyWithItsRows() throws {
        let scenario = try MigrationScenario("leave")
        defer { scenario.remove() }
        try writeGarage(scenario)
        try scenario.migrate(from: garage(), to: garage(carLeaves: true))
        let (plates, newKey) = try scenario.read(garage(carLeaves: true)) { context in
            let cars = try ctxFetch("Car", in: context)
            let plates = cars.map { "\($0.value(forKey: "plate") as? String ?? "?") \($0.value(forKey: "doors") as? Int ?? 0)" }
            let added = ctxInsert("Car", into: context, ["plate": "C-2"])
            try context.save()
            return (plates, added.objectID.uriRepresentation().lastPathComponent)
        }
        #expect(plates == ["C-1 5"])
        #expect(newKey == "p3", "the new hierarchy continues after the keys of the old one")
        #expect(try RawStoreSQL.value(scenario.url, "SELECT COUNT(*) FROM ZVEHICLE") == .integer(1))
    }

    @Test func rowsOfARemovedSubEntityAreDropped() throws {
        let scenario = try MigrationScenario("drop-sub")
        defer { scenario.remove() }
        try writeGarage(scenario)
        try scenario.migrate(from: garage(), to: garage(bikeRemoved: true))
        let (plates, ride) = try scenario.read(garage(bikeRemoved: true)) { context in
            let plates = try ctxFetch("Vehicle", in: context).map { $0.value(forKey: "plate") as? String }
            return (plates, try ctxFetch("Owner", in: context).first?.value(forKey: "ride"))
        }
        #expect(plates == ["C-1"])
        #expect(ride == nil, "the owner's ride was a removed Bike")
        #expect(try RawStoreSQL.value(scenario.url, "SELECT COUNT(*) FROM ZVEHICLE") == .integer(1))
    }

    @Test func aFailureMidwayLeavesTheOldStoreIntactAndOpenable() throws {
        func model(unique: Bool) -> NSManagedObjectModel {
            let entity = Kit.entity("Badge", [Models.attribute("code", .stringAttributeType), Models.attribute("owner", .stringAttributeType, renamedFrom: unique ? "holder" : nil)])
            if !unique { entity.properties[1].name = "holder" }
            if unique { entity.uniquenessConstraints = [["code"]] }
            return Kit.model([entity])
        }
        let scenario = try MigrationScenario("failure")
        defer { scenario.remove() }
        try scenario.write(model(unique: false)) { context in
            ctxInsert("Badge", into: context, ["code": "A", "holder": "Ann"])
            ctxInsert("Badge", into: context, ["code": "A", "holder": "Bob"])
        }
        let before = StoreFileProbe.bytes(scenario.url)
        #expect(throws: (any Error).self) { try scenario.migrate(from: model(unique: false), to: model(unique: true)) }
        #expect(StoreFileProbe.bytes(scenario.url) == before)
        let holders = try scenario.read(model(unique: false), options: [:]) { context in
            try ctxFetch("Badge", in: context, sortedBy: "holder").map { $0.value(forKey: "holder") as? String }
        }
        #expect(holders == ["Ann", "Bob"])
        #expect(try RawStoreSQL.columns(scenario.url, "ZBADGE").map(\.name).contains("ZHOLDER"), "the column rename was rolled back")
    }

    @Test func anInverseAddedToAToManyIsFilledFromItsPairs() throws {
        func model(inverse: Bool) -> NSManagedObjectModel {
            let book = Kit.entity("Book", [Models.attribute("title", .stringAttributeType)])
            let page = Kit.entity("Page", [Models.attribute("number", .integer16AttributeType)])
            let pages = Kit.relationship("pages", to: page, maxCount: 0)
            book.properties += [pages]
            if inverse {
                let owner = Kit.relationship("book", to: book, maxCount: 1)
                Kit.inverse(pages, owner)
                page.properties += [owner]
            }
            return Kit.model([book, page])
        }
        let scenario = try MigrationScenario("inverse")
        defer { scenario.remove() }
        try scenario.write(model(inverse: false)) { context in
            let pages = (1...3).map { ctxInsert("Page", into: context, ["number": $0]) }
            ctxInsert("Book", into: context, ["title": "A", "pages": NSSet(array: Array(pages[0...1]))])
            ctxInsert("Book", into: context, ["title": "B", "pages": NSSet(array: [pages[2]])])
        }
        try scenario.migrate(from: model(inverse: false), to: model(inverse: true))
        let owners = try scenario.read(model(inverse: true)) { context in
            try ctxFetch("Page", in: context, sortedBy: "number").map { ($0.value(forKey: "book") as? NSManagedObject)?.value(forKey: "title") as? String }
        }
        #expect(owners == ["A", "A", "B"])
    }

    @Test func anEntityWithObjectsCannotBecomeAbstract() throws {
        func model(abstract: Bool) -> NSManagedObjectModel {
            let item = Kit.entity("Item", abstract: abstract, [Models.attribute("name", .stringAttributeType)])
            let tool = Kit.entity("Tool", [Models.attribute("weight", .doubleAttributeType)])
            item.subentities = [tool]
            return Kit.model([item, tool])
        }
        let scenario = try MigrationScenario("abstract")
        defer { scenario.remove() }
        try scenario.write(model(abstract: false)) { context in
            ctxInsert("Item", into: context, ["name": "thing"])
        }
        let error = #expect(throws: NSError.self) { try scenario.migrate(from: model(abstract: false), to: model(abstract: true)) }
        #expect(error?.code == NSMigrationError)
        let names = try scenario.read(model(abstract: false), options: [:]) { try ctxFetch("Item", in: $0).map { $0.value(forKey: "name") as? String } }
        #expect(names == ["thing"])
    }

    @Test func aStoreOfOneConfigurationMigratesAlone() throws {
        func model(isbn: Bool) -> NSManagedObjectModel {
            let book = Kit.entity("Book", [Models.attribute("title", .stringAttributeType)] + (isbn ? [Models.attribute("isbn", .stringAttributeType)] : []))
            let log = Kit.entity("Log", [Models.attribute("line", .stringAttributeType)])
            let model = Kit.model([book, log])
            model.setEntities([book], forConfigurationName: "Library")
            model.setEntities([log], forConfigurationName: "Journal")
            return model
        }
        let scenario = try MigrationScenario("configuration")
        defer { scenario.remove() }
        let stack = try SQLiteTestStack(model: model(isbn: false), url: scenario.url, configuration: "Library")
        try stack.context.performAndWait {
            ctxInsert("Book", into: stack.context, ["title": "A"])
            try stack.context.save()
        }
        stack.close()
        try scenario.migrate(from: model(isbn: false), to: model(isbn: true), configuration: "Library")
        let reopened = try SQLiteTestStack(model: model(isbn: true), url: scenario.url, configuration: "Library")
        defer { reopened.close() }
        let titles = try reopened.context.performAndWait { try ctxFetch("Book", in: reopened.context).map { $0.value(forKey: "title") as? String } }
        #expect(titles == ["A"])
    }
}
