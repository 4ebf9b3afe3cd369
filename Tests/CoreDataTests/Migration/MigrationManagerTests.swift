@testable import CoreData
import CoreDataPostgreSQL
import Testing

/// Heavy migration through `NSMigrationManager` on real stores: mapping models built in code, value
/// expressions with `$source`, `$manager` and `$entityPolicy`, policy subclasses and their callback
/// order, cancellation, failures that leave nothing behind, progress, and the SQL route for
/// mappings that need no objects.
@Suite struct MigrationManagerTests {
    typealias Kit = ModelFixtureKit
    typealias Models = MigrationModels

    // MARK: Fixtures

    /// v1: employees in departments; `withBudget` adds an attribute to departments.
    static func company(withBudget: Bool = false) -> NSManagedObjectModel {
        let employee = Kit.entity("Employee", [Models.attribute("name", .stringAttributeType), Models.attribute("salary", .integer64AttributeType)])
        let department = Kit.entity("Department", [Models.attribute("title", .stringAttributeType)] + (withBudget ? [Models.attribute("budget", .integer64AttributeType)] : []))
        let employees = Kit.relationship("employees", to: employee, maxCount: 0)
        let departmentOfEmployee = Kit.relationship("department", to: department, maxCount: 1)
        Kit.inverse(employees, departmentOfEmployee)
        department.properties += [employees]
        employee.properties += [departmentOfEmployee]
        return Kit.model([department, employee])
    }

    /// v2: people in teams, with a pay and a grade; `withBadges` adds a badge entity.
    static func teams(withBadges: Bool = false) -> NSManagedObjectModel {
        let person = Kit.entity("Person", [
            Models.attribute("fullName", .stringAttributeType, optional: false),
            Models.attribute("pay", .doubleAttributeType),
            Models.attribute("grade", .stringAttributeType),
        ])
        let team = Kit.entity("Team", [Models.attribute("name", .stringAttributeType)])
        let members = Kit.relationship("members", to: person, maxCount: 0)
        let teamOfPerson = Kit.relationship("team", to: team, maxCount: 1)
        Kit.inverse(members, teamOfPerson)
        team.properties += [members]
        person.properties += [teamOfPerson]
        return Kit.model([team, person] + (withBadges ? [Kit.entity("Badge", [Models.attribute("label", .stringAttributeType)])] : []))
    }

    static func propertyMapping(_ name: String, _ format: String) -> NSPropertyMapping {
        let mapping = NSPropertyMapping()
        mapping.name = name
        mapping.valueExpression = NSExpression(format: format)
        return mapping
    }

    static func entityMapping(
        _ name: String, from source: String?, to destination: String?, type: NSEntityMappingType = .customEntityMappingType,
        attributes: [NSPropertyMapping] = [], relationships: [NSPropertyMapping] = [], policy: AnyClass? = nil
    ) -> NSEntityMapping {
        let mapping = NSEntityMapping()
        mapping.name = name
        mapping.mappingType = type
        mapping.sourceEntityName = source
        mapping.destinationEntityName = destination
        mapping.attributeMappings = attributes
        mapping.relationshipMappings = relationships
        mapping.entityMigrationPolicyClassName = policy.map { String(reflecting: $0) }
        return mapping
    }

    /// Departments become teams and employees people; a policy grades each person.
    static func companyToTeams(employeePolicy: AnyClass = GradingPolicy.self, departmentPolicy: AnyClass? = nil) -> NSMappingModel {
        let mapping = NSMappingModel()
        mapping.entityMappings = [
            entityMapping(
                "DepartmentToTeam", from: "Department", to: "Team",
                attributes: [propertyMapping("name", "$source.title")],
                relationships: [propertyMapping("members", #"FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "EmployeeToPerson", $source.employees)"#)],
                policy: departmentPolicy
            ),
            entityMapping(
                "EmployeeToPerson", from: "Employee", to: "Person",
                attributes: [
                    propertyMapping("fullName", "$source.name"),
                    propertyMapping("pay", "$source.salary * 1.5"),
                    propertyMapping("grade", #"FUNCTION($entityPolicy, "gradeForSalary:", $source.salary)"#),
                ],
                relationships: [propertyMapping("team", #"FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "DepartmentToTeam", $source.department)"#)],
                policy: employeePolicy
            ),
        ]
        return mapping
    }

    /// A v1 store with two departments and three employees.
    static func companyStore(_ label: String) throws -> MigrationScenario {
        let scenario = try MigrationScenario(label)
        try scenario.write(company()) { context in
            let sales = ctxInsert("Department", into: context, ["title": "Sales"])
            let labs = ctxInsert("Department", into: context, ["title": "Labs"])
            ctxInsert("Employee", into: context, ["name": "Ann", "salary": 3000, "department": sales])
            ctxInsert("Employee", into: context, ["name": "Bob", "salary": 1000, "department": sales])
            ctxInsert("Employee", into: context, ["name": "Cy", "salary": 5000, "department": labs])
        }
        return scenario
    }

    /// Migrates the scenario's store into `Teams.sqlite` beside it.
    @discardableResult
    static func migrate(_ scenario: MigrationScenario, with mapping: NSMappingModel?, manager: NSMigrationManager? = nil) throws -> URL {
        let destination = scenario.directory.file("Teams.sqlite")
        let manager = manager ?? NSMigrationManager(sourceModel: company(), destinationModel: teams())
        try manager.migrateStore(
            from: scenario.url, sourceType: NSSQLiteStoreType, options: nil, with: mapping,
            toDestinationURL: destination, destinationType: NSSQLiteStoreType, destinationOptions: nil
        )
        return destination
    }

    /// The people of a v2 store: name, pay, grade and team.
    static func people(at url: URL) throws -> [[String]] {
        let stack = try SQLiteTestStack(model: teams(), url: url)
        defer { stack.close() }
        return try stack.context.performAndWait {
            try ctxFetch("Person", in: stack.context, sortedBy: "fullName").map { person in
                let team = person.value(forKey: "team") as? NSManagedObject
                return [
                    person.value(forKey: "fullName") as? String ?? "nil",
                    (person.value(forKey: "pay") as? NSNumber).map { String(format: "%g", $0.doubleValue) } ?? "nil",
                    person.value(forKey: "grade") as? String ?? "nil",
                    team?.value(forKey: "name") as? String ?? "nil",
                ]
            }
        }
    }

    /// The v1 store's employees, to show it is unchanged.
    static func employees(_ scenario: MigrationScenario) throws -> [String] {
        try scenario.read(company(), options: [:]) { context in
            try ctxFetch("Employee", in: context, sortedBy: "name").map { "\($0.value(forKey: "name") ?? "nil") \($0.value(forKey: "salary") ?? "nil")" }
        }
    }

    static let originalEmployees = ["Ann 3000", "Bob 1000", "Cy 5000"]

    // MARK: Migration on objects

    @Test func aCustomMappingRunsWithPoliciesAndRelationships() throws {
        let scenario = try Self.companyStore("heavy")
        defer { scenario.remove() }
        let sourceBytes = try Data(contentsOf: scenario.url)
        let destination = try Self.migrate(scenario, with: Self.companyToTeams())
        #expect(try Data(contentsOf: scenario.url) == sourceBytes)
        #expect(try Self.people(at: destination) == [
            ["Ann", "4500", "senior", "Sales"],
            ["Bob", "1500", "junior", "Sales"],
            ["Cy", "7500", "senior", "Labs"],
        ])
        let stack = try SQLiteTestStack(model: Self.teams(), url: destination)
        defer { stack.close() }
        let memberCounts = try stack.context.performAndWait {
            try ctxFetch("Team", in: stack.context, sortedBy: "name").map { ($0.value(forKey: "members") as? NSSet)?.count ?? -1 }
        }
        #expect(memberCounts == [1, 2])
        #expect(try Self.employees(scenario) == Self.originalEmployees)
    }

    @Test(.enabled(if: CtxPostgreSQLServer.url != nil, "needs \(CtxPostgreSQLServer.environmentVariable)"))
    func aCustomMappingMigratesBetweenPostgreSQLSchemas() throws {
        let scenario = try MigrationScenario("heavy-postgresql", storeType: NSPostgreSQLStoreType)
        defer { scenario.remove() }
        try scenario.write(Self.company()) { context in
            let sales = ctxInsert("Department", into: context, ["title": "Sales"])
            ctxInsert("Employee", into: context, ["name": "Ann", "salary": 3000, "department": sales])
            ctxInsert("Employee", into: context, ["name": "Bob", "salary": 1000, "department": sales])
        }
        let destinationOptions = [NSPostgreSQLSchemaOption: "test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()]
        let manager = NSMigrationManager(sourceModel: Self.company(), destinationModel: Self.teams())
        try manager.migrateStore(
            from: scenario.url, type: .postgreSQL, options: scenario.storeOptions, mapping: Self.companyToTeams(),
            to: scenario.url, type: .postgreSQL, options: destinationOptions
        )
        let stack = try SQLiteTestStack(model: Self.teams(), url: scenario.url, options: destinationOptions, storeType: NSPostgreSQLStoreType)
        defer { stack.close() }
        let people = try stack.context.performAndWait {
            try ctxFetch("Person", in: stack.context, sortedBy: "fullName").map { person in
                "\(person.value(forKey: "fullName") ?? "nil") \(person.value(forKey: "grade") ?? "nil") \((person.value(forKey: "team") as? NSManagedObject)?.value(forKey: "name") ?? "nil")"
            }
        }
        #expect(people == ["Ann senior Sales", "Bob junior Sales"])
        #expect(try Self.employees(scenario) == ["Ann 3000", "Bob 1000"])

        // The migrated schema then takes the original's place, as Apple's recipe for a manual
        // migration replaces the original store with the migrated one.
        stack.close()
        try NSPersistentStoreCoordinator(managedObjectModel: Self.teams()).replacePersistentStore(
            at: scenario.url, destinationOptions: scenario.storeOptions, withPersistentStoreFrom: scenario.url, sourceOptions: destinationOptions, type: .postgreSQL
        )
        let replaced = try SQLiteTestStack(model: Self.teams(), url: scenario.url, options: scenario.storeOptions, storeType: NSPostgreSQLStoreType)
        defer { replaced.close() }
        #expect(try replaced.context.performAndWait { try ctxFetch("Person", in: replaced.context, sortedBy: "fullName").count } == 2)
    }

    @Test func callbacksComeInApplesOrder() throws {
        let scenario = try Self.companyStore("callback-order")
        defer { scenario.remove() }
        let manager = NSMigrationManager(sourceModel: Self.company(), destinationModel: Self.teams())
        let log = MigrationEventLog()
        manager.userInfo = ["log": log]
        try Self.migrate(scenario, with: Self.companyToTeams(employeePolicy: RecordingPolicy.self, departmentPolicy: RecordingPolicy.self), manager: manager)
        #expect(log.events == [
            "begin DepartmentToTeam", "create DepartmentToTeam", "create DepartmentToTeam", "endInstanceCreation DepartmentToTeam",
            "begin EmployeeToPerson", "create EmployeeToPerson", "create EmployeeToPerson", "create EmployeeToPerson", "endInstanceCreation EmployeeToPerson",
            "relationships DepartmentToTeam", "relationships DepartmentToTeam", "endRelationshipCreation DepartmentToTeam",
            "relationships EmployeeToPerson", "relationships EmployeeToPerson", "relationships EmployeeToPerson", "endRelationshipCreation EmployeeToPerson",
            "validate DepartmentToTeam", "end DepartmentToTeam",
            "validate EmployeeToPerson", "end EmployeeToPerson",
        ])
        #expect(try Self.people(at: scenario.directory.file("Teams.sqlite")).map(\.[3]) == ["Sales", "Sales", "Labs"])
    }

    @Test func aPolicyCanSkipInstancesAndMakeSeveralFromOne() throws {
        let scenario = try Self.companyStore("split")
        defer { scenario.remove() }
        let manager = NSMigrationManager(sourceModel: Self.company(), destinationModel: Self.teams())
        let destination = try Self.migrate(scenario, with: Self.companyToTeams(employeePolicy: SplittingPolicy.self), manager: manager)
        // Bob (1000) is skipped; Ann and Cy each become a person and a shadow.
        #expect(try Self.people(at: destination).map(\.[0]) == ["Ann", "Ann (shadow)", "Cy", "Cy (shadow)"])
        #expect(try Self.people(at: destination).map(\.[3]) == ["Sales", "Sales", "Labs", "Labs"])
        let destinations = manager.destinationInstances(forEntityMappingName: "EmployeeToPerson", sourceInstances: nil)
        #expect(destinations.count == 4)
        let sources = manager.sourceInstances(forEntityMappingName: "EmployeeToPerson", destinationInstances: Array(destinations.prefix(2)))
        #expect(sources.compactMap { $0.value(forKey: "name") as? String } == ["Ann", "Ann"] || sources.compactMap { $0.value(forKey: "name") as? String } == ["Cy", "Cy"])
        manager.reset()
        #expect(manager.destinationInstances(forEntityMappingName: "EmployeeToPerson", sourceInstances: nil).isEmpty)
    }

    @Test func aSourceExpressionSelectsTheSourceInstances() throws {
        let scenario = try Self.companyStore("source-expression")
        defer { scenario.remove() }
        let mapping = Self.companyToTeams()
        mapping.entityMappingsByName["EmployeeToPerson"]?.sourceExpression = NSExpression(
            format: #"FUNCTION($manager, "fetchRequestForSourceEntityNamed:predicateString:", "Employee", "salary >= 3000")"#
        )
        let destination = try Self.migrate(scenario, with: mapping)
        #expect(try Self.people(at: destination).map(\.[0]) == ["Ann", "Cy"])
    }

    @Test func aMigrationAddsToAnExistingDestination() throws {
        let scenario = try Self.companyStore("append")
        defer { scenario.remove() }
        let destination = scenario.directory.file("Teams.sqlite")
        let stack = try SQLiteTestStack(model: Self.teams(), url: destination)
        try stack.context.performAndWait {
            ctxInsert("Person", into: stack.context, ["fullName": "Zed"])
            try stack.context.save()
        }
        stack.close()
        try Self.migrate(scenario, with: Self.companyToTeams())
        #expect(try Self.people(at: destination).map(\.[0]) == ["Ann", "Bob", "Cy", "Zed"])
    }

    @Test func theStoreTypeSignatureMigratesToo() throws {
        let scenario = try Self.companyStore("store-type")
        defer { scenario.remove() }
        let destination = scenario.directory.file("Teams.sqlite")
        let manager = NSMigrationManager(sourceModel: Self.company(), destinationModel: Self.teams())
        try manager.migrateStore(from: scenario.url, type: .sqlite, mapping: Self.companyToTeams(), to: destination, type: .sqlite)
        #expect(try Self.people(at: destination).count == 3)
    }

    @Test func relationshipsAreReadWithAQueryPerRelationshipNotPerObject() throws {
        let scenario = try MigrationScenario("prefetch")
        defer { scenario.remove() }
        try scenario.write(Self.company()) { context in
            for number in 0..<30 {
                let department = ctxInsert("Department", into: context, ["title": "D\(number)"])
                for person in 0..<3 {
                    ctxInsert("Employee", into: context, ["name": "E\(number)-\(person)", "salary": 100 * person, "department": department])
                }
            }
        }
        let manager = NSMigrationManager(sourceModel: Self.company(), destinationModel: Self.teams())
        let counter = StatementCounter()
        manager.userInfo = ["counter": counter]
        let destination = try Self.migrate(scenario, with: Self.companyToTeams(departmentPolicy: CountingPolicy.self), manager: manager)
        #expect(try Self.people(at: destination).count == 90)
        #expect(counter.count > 0)
        #expect(counter.count < 30)
    }

    @Test func aManagerRunsAgainFromScratchAfterAFailureOrASuccess() throws {
        let scenario = try Self.companyStore("reuse")
        defer { scenario.remove() }
        let manager = NSMigrationManager(sourceModel: Self.company(), destinationModel: Self.teams())
        #expect(throws: PolicyFailure.self) {
            try Self.migrate(scenario, with: Self.companyToTeams(employeePolicy: FailingPolicy.self), manager: manager)
        }
        let first = try Self.migrate(scenario, with: Self.companyToTeams(), manager: manager)
        #expect(try Self.people(at: first).count == 3)
        let second = scenario.directory.file("Again.sqlite")
        try manager.migrateStore(from: scenario.url, sourceType: NSSQLiteStoreType, with: Self.companyToTeams(), toDestinationURL: second, destinationType: NSSQLiteStoreType)
        #expect(try Self.people(at: second).count == 3)
        #expect(manager.destinationInstances(forEntityMappingName: "EmployeeToPerson", sourceInstances: nil).count == 3)
    }

    @Test func aMappingModelWithoutMappingsCompletesItsProgress() throws {
        let scenario = try Self.companyStore("empty-mapping")
        defer { scenario.remove() }
        let manager = NSMigrationManager(sourceModel: Self.company(), destinationModel: Self.teams())
        manager.usesStoreSpecificMigrationManager = false
        let parent = Progress(totalUnitCount: 1)
        parent.becomeCurrent(withPendingUnitCount: 1)
        let destination = try Self.migrate(scenario, with: NSMappingModel(), manager: manager)
        parent.resignCurrent()
        #expect(manager.migrationProgress == 0, "back to 0 once the migration ended")
        #expect(parent.fractionCompleted == 1)
        #expect(try Self.people(at: destination).isEmpty)
    }

    @Test func anInferredMappingRunsOnObjectsWithItsRelationships() throws {
        let scenario = try Self.companyStore("inferred-objects")
        defer { scenario.remove() }
        let manager = NSMigrationManager(sourceModel: Self.company(), destinationModel: Self.company(withBudget: true))
        manager.usesStoreSpecificMigrationManager = false
        let destination = scenario.directory.file("Budgets.sqlite")
        try manager.migrateStore(from: scenario.url, sourceType: NSSQLiteStoreType, with: nil, toDestinationURL: destination, destinationType: NSSQLiteStoreType)
        let stack = try SQLiteTestStack(model: Self.company(withBudget: true), url: destination)
        defer { stack.close() }
        let departments = try stack.context.performAndWait {
            try ctxFetch("Employee", in: stack.context, sortedBy: "name").map { ($0.value(forKey: "department") as? NSManagedObject)?.value(forKey: "title") as? String }
        }
        #expect(departments == ["Sales", "Sales", "Labs"])
    }

    @Test func theDestinationsOfASourceRelationshipAreThoseOfTheRelationshipsEntity() throws {
        let scenario = try Self.companyStore("source-relationship")
        defer { scenario.remove() }
        let mapping = Self.companyToTeams()
        // Each employee also becomes a badge; a team's members must still be the people only.
        mapping.entityMappings.append(Self.entityMapping("EmployeeToBadge", from: "Employee", to: "Badge", attributes: [Self.propertyMapping("label", "$source.name")]))
        mapping.entityMappingsByName["DepartmentToTeam"]?.relationshipMappings = [
            Self.propertyMapping("members", #"FUNCTION($manager, "destinationInstancesForSourceRelationshipNamed:sourceInstances:", "employees", $source.employees)"#),
        ]
        let manager = NSMigrationManager(sourceModel: Self.company(), destinationModel: Self.teams(withBadges: true))
        let destination = try Self.migrate(scenario, with: mapping, manager: manager)
        let stack = try SQLiteTestStack(model: Self.teams(withBadges: true), url: destination)
        defer { stack.close() }
        let (memberCounts, badges) = try stack.context.performAndWait {
            (try ctxFetch("Team", in: stack.context, sortedBy: "name").map { ($0.value(forKey: "members") as? NSSet)?.count ?? -1 },
             try ctxFetch("Badge", in: stack.context, sortedBy: "label").count)
        }
        #expect(memberCounts == [1, 2])
        #expect(badges == 3)
    }

    @Test func theManagerAnswersKeyValueCodingInExpressions() throws {
        let manager = NSMigrationManager(sourceModel: Self.company(), destinationModel: Self.teams())
        manager.usesStoreSpecificMigrationManager = false
        let bindings: NSMutableDictionary = ["manager": manager]
        #expect(NSExpression(format: "$manager.usesStoreSpecificMigrationManager").expressionValue(with: nil, context: bindings) as? NSNumber == false)
        let model = NSExpression(format: #"FUNCTION($manager, "valueForKey:", "sourceModel")"#).expressionValue(with: nil, context: bindings)
        #expect(model as? NSManagedObjectModel === manager.sourceModel)
        #expect(NSExpression(format: "$manager.sourceContext").expressionValue(with: nil, context: bindings) as? NSManagedObjectContext === manager.sourceContext)
    }

    // MARK: Failures

    @Test func aMappingOfAPropertyTheEntityDoesNotHaveIsAnError() throws {
        let scenario = try Self.companyStore("unknown-property")
        defer { scenario.remove() }
        let mapping = Self.companyToTeams()
        mapping.entityMappingsByName["EmployeeToPerson"]?.attributeMappings?.append(Self.propertyMapping("nickname", "$source.name"))
        let error = try #require(throws: NSError.self) { try Self.migrate(scenario, with: mapping) }
        #expect(error.code == NSMigrationError)
        #expect(error.explanation.contains("nickname"))
        #expect(!FileManager.default.fileExists(atPath: scenario.directory.file("Teams.sqlite").path))
    }

    @Test func aMissingSourceStoreIsAnErrorAndIsNotCreated() throws {
        let directory = try SQLiteScratchDirectory("migration-missing-source")
        defer { directory.remove() }
        let manager = NSMigrationManager(sourceModel: Self.company(), destinationModel: Self.teams())
        let missing = directory.file("Missing.sqlite")
        let error = try #require(throws: NSError.self) {
            try manager.migrateStore(from: missing, sourceType: NSSQLiteStoreType, with: Self.companyToTeams(), toDestinationURL: directory.file("Teams.sqlite"), destinationType: NSSQLiteStoreType)
        }
        #expect(error.code == NSMigrationManagerSourceStoreError)
        #expect(!FileManager.default.fileExists(atPath: missing.path))
    }

    @Test func aRelationshipMappingThatGivesSourceInstancesIsAnError() throws {
        let scenario = try Self.companyStore("source-instances")
        defer { scenario.remove() }
        let mapping = Self.companyToTeams()
        mapping.entityMappingsByName["DepartmentToTeam"]?.relationshipMappings = [Self.propertyMapping("members", "$source.employees")]
        let error = try #require(throws: NSError.self) { try Self.migrate(scenario, with: mapping) }
        #expect(error.code == NSMigrationError)
        #expect(error.explanation.contains("DepartmentToTeam.members"))
        #expect(!FileManager.default.fileExists(atPath: scenario.directory.file("Teams.sqlite").path))
    }

    @Test func cancellingTheProgressStopsTheMigration() throws {
        let scenario = try Self.companyStore("cancel-progress")
        defer { scenario.remove() }
        let manager = NSMigrationManager(sourceModel: Self.company(), destinationModel: Self.teams())
        let parent = Progress(totalUnitCount: 1)
        manager.userInfo = ["progress": parent]
        parent.becomeCurrent(withPendingUnitCount: 1)
        defer { parent.resignCurrent() }
        let error = try #require(throws: NSError.self) {
            try Self.migrate(scenario, with: Self.companyToTeams(departmentPolicy: ProgressCancellingPolicy.self), manager: manager)
        }
        #expect(error.code == NSMigrationCancelledError)
    }

    @Test func aThrowingPolicyStopsTheMigrationAndLeavesNothingBehind() throws {
        let scenario = try Self.companyStore("throwing")
        defer { scenario.remove() }
        let destination = scenario.directory.file("Teams.sqlite")
        #expect(throws: PolicyFailure.self) {
            try Self.migrate(scenario, with: Self.companyToTeams(employeePolicy: FailingPolicy.self))
        }
        #expect(!FileManager.default.fileExists(atPath: destination.path))
        #expect(try Self.employees(scenario) == Self.originalEmployees)
    }

    @Test func cancellingStopsTheMigrationWithTheGivenError() throws {
        let scenario = try Self.companyStore("cancel")
        defer { scenario.remove() }
        let manager = NSMigrationManager(sourceModel: Self.company(), destinationModel: Self.teams())
        let error = try #require(throws: NSError.self) {
            try Self.migrate(scenario, with: Self.companyToTeams(departmentPolicy: CancellingPolicy.self), manager: manager)
        }
        #expect(error.code == NSMigrationCancelledError)
        #expect(manager.migrationProgress == 0)
        #expect(!FileManager.default.fileExists(atPath: scenario.directory.file("Teams.sqlite").path))
    }

    @Test func aPolicyClassThatCannotBeFoundIsAnError() throws {
        let scenario = try Self.companyStore("unknown-policy")
        defer { scenario.remove() }
        let mapping = Self.companyToTeams()
        mapping.entityMappingsByName["EmployeeToPerson"]?.entityMigrationPolicyClassName = "NoSuchModule.NoSuchPolicy"
        let error = try #require(throws: NSError.self) { try Self.migrate(scenario, with: mapping) }
        #expect(error.code == NSEntityMigrationPolicyError)
        #expect(error.explanation.contains("NoSuchPolicy"))
    }

    @Test func aMappingForOtherModelsIsRefused() throws {
        let scenario = try Self.companyStore("mismatch")
        defer { scenario.remove() }
        let mapping = Self.companyToTeams()
        mapping.entityMappingsByName["EmployeeToPerson"]?.destinationEntityName = "Worker"
        let unknownEntity = try #require(throws: NSError.self) { try Self.migrate(scenario, with: mapping) }
        #expect(unknownEntity.code == NSMigrationError)
        #expect(unknownEntity.explanation.contains("Worker"))

        let stale = Self.companyToTeams()
        stale.entityMappingsByName["DepartmentToTeam"]?.sourceEntityVersionHash = Data(repeating: 7, count: 32)
        let staleHash = try #require(throws: NSError.self) { try Self.migrate(scenario, with: stale) }
        #expect(staleHash.code == NSMigrationError)
    }

    @Test func aFailingValueExpressionNamesTheProperty() throws {
        let scenario = try Self.companyStore("bad-expression")
        defer { scenario.remove() }
        let mapping = Self.companyToTeams()
        mapping.entityMappingsByName["EmployeeToPerson"]?.attributeMappings?[0] = Self.propertyMapping("fullName", "$source.nickname")
        let error = try #require(throws: NSError.self) { try Self.migrate(scenario, with: mapping) }
        #expect(error.code == NSMigrationError)
        #expect(error.explanation.contains("EmployeeToPerson.fullName"))
        #expect(!FileManager.default.fileExists(atPath: scenario.directory.file("Teams.sqlite").path))
    }

    @Test func anInvalidDestinationObjectFailsAtValidation() throws {
        let scenario = try Self.companyStore("invalid")
        defer { scenario.remove() }
        let mapping = Self.companyToTeams()
        // fullName is mandatory; nothing sets it now.
        mapping.entityMappingsByName["EmployeeToPerson"]?.attributeMappings?.removeFirst()
        let error = try #require(throws: NSError.self) { try Self.migrate(scenario, with: mapping) }
        #expect(error.code == NSValidationMissingMandatoryPropertyError)
        #expect(!FileManager.default.fileExists(atPath: scenario.directory.file("Teams.sqlite").path))
    }

    @Test func storesThatCannotBeOpenedAreReportedBySide() throws {
        let scenario = try Self.companyStore("stores")
        defer { scenario.remove() }
        let otherModel = NSMigrationManager(sourceModel: Self.teams(), destinationModel: Self.teams())
        let source = try #require(throws: NSError.self) { try Self.migrate(scenario, with: nil, manager: otherModel) }
        #expect(source.code == NSMigrationManagerSourceStoreError)
        #expect((source.userInfo[NSUnderlyingErrorKey] as? NSError)?.code == NSPersistentStoreIncompatibleVersionHashError)

        try Data("not a store".utf8).write(to: scenario.directory.file("Teams.sqlite"))
        let destination = try #require(throws: NSError.self) { try Self.migrate(scenario, with: Self.companyToTeams()) }
        #expect(destination.code == NSMigrationManagerDestinationStoreError)
        #expect(try Data(contentsOf: scenario.directory.file("Teams.sqlite")) == Data("not a store".utf8))
    }

    // MARK: Progress

    @Test func progressRisesDuringTheRunAndFoundationProgressCompletes() throws {
        let scenario = try Self.companyStore("progress")
        defer { scenario.remove() }
        let manager = NSMigrationManager(sourceModel: Self.company(), destinationModel: Self.teams())
        let log = MigrationEventLog()
        manager.userInfo = ["log": log]
        let parent = Progress(totalUnitCount: 1)
        parent.becomeCurrent(withPendingUnitCount: 1)
        try Self.migrate(scenario, with: Self.companyToTeams(employeePolicy: RecordingPolicy.self), manager: manager)
        parent.resignCurrent()
        #expect(manager.migrationProgress == 0, "back to 0 once the migration ended")
        #expect(parent.fractionCompleted == 1)
        let reported = log.progress
        #expect(reported == reported.sorted())
        #expect(reported.contains { $0 > 0 && $0 < 1 })
    }

    // MARK: The SQL route

    @Test func anInferableMappingBetweenSQLiteStoresMigratesACopyInSQL() throws {
        func model(_ version: Int) -> NSManagedObjectModel {
            Models.book([Models.attribute("title", .stringAttributeType)] + (version == 2 ? [Models.attribute("pages", .integer32AttributeType, defaultValue: 100)] : []))
        }
        let scenario = try MigrationScenario("sql-route")
        defer { scenario.remove() }
        try scenario.write(model(1)) { context in
            ctxInsert("Book", into: context, ["title": "Dune"])
        }
        let sourceUUID = try #require(try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: scenario.url)[NSStoreUUIDKey] as? String)
        var uuids: [String] = []
        for usesStore in [true, false] {
            let destination = scenario.directory.file("Books-\(usesStore).sqlite")
            let manager = NSMigrationManager(sourceModel: model(1), destinationModel: model(2))
            manager.usesStoreSpecificMigrationManager = usesStore
            try manager.migrateStore(from: scenario.url, sourceType: NSSQLiteStoreType, with: nil, toDestinationURL: destination, destinationType: NSSQLiteStoreType)
            #expect(manager.migrationProgress == 0)
            let stack = try SQLiteTestStack(model: model(2), url: destination)
            let books = try stack.context.performAndWait {
                try ctxFetch("Book", in: stack.context, sortedBy: "title").map { "\($0.value(forKey: "title") ?? "nil") \($0.value(forKey: "pages") ?? "nil")" }
            }
            stack.close()
            #expect(books == ["Dune 100"])
            uuids.append(try #require(try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: destination)[NSStoreUUIDKey] as? String))
        }
        // The SQL route migrates a copy of the file, which keeps the store's UUID; objects go
        // into a new store.
        #expect(uuids[0] == sourceUUID)
        #expect(uuids[1] != sourceUUID)
        // The SQL route leaves its work in the file, not in a write-ahead log beside it.
        let wal = scenario.directory.file("Books-true.sqlite-wal")
        #expect(((try? FileManager.default.attributesOfItem(atPath: wal.path)[.size] as? NSNumber)?.intValue ?? 0) == 0)

        // A policy, even on an inferable mapping, needs objects: the store's route is not taken.
        let mapping = try NSMappingModel.inferredMappingModel(forSourceModel: model(1), destinationModel: model(2))
        mapping.entityMappings.first?.entityMigrationPolicyClassName = NSStringFromClass(RecordingPolicy.self)
        let manager = NSMigrationManager(sourceModel: model(1), destinationModel: model(2))
        let log = MigrationEventLog()
        manager.userInfo = ["log": log]
        let withPolicy = scenario.directory.file("Books-policy.sqlite")
        try manager.migrateStore(from: scenario.url, sourceType: NSSQLiteStoreType, with: mapping, toDestinationURL: withPolicy, destinationType: NSSQLiteStoreType)
        #expect(log.events.contains("create IEM_Copy_Book") || log.events.contains("create IEM_Transform_Book"))
    }
}

// MARK: Policies

/// Grades people by salary through `FUNCTION($entityPolicy, "gradeForSalary:", …)`.
final class GradingPolicy: NSEntityMigrationPolicy {
    override func value(forFunction selector: String, arguments: [Any?]) throws -> Any? {
        guard selector == "gradeForSalary:", let salary = arguments.first as? NSNumber else {
            return try super.value(forFunction: selector, arguments: arguments)
        }
        return salary.int64Value >= 3000 ? "senior" : "junior"
    }
}

/// Events of a migration, shared with the policies through the manager's `userInfo`.
final class MigrationEventLog {
    var events: [String] = []
    var progress: [Float] = []
}

/// Counts the statements the source store runs once the migration has begun.
final class StatementCounter {
    var count = 0
}

/// Records each callback in the manager's `MigrationEventLog`, and the progress as it goes.
final class RecordingPolicy: NSEntityMigrationPolicy {
    private func record(_ event: String, _ mapping: NSEntityMapping, _ manager: NSMigrationManager) {
        let log = manager.userInfo?["log"] as? MigrationEventLog
        log?.events.append("\(event) \(mapping.name ?? "?")")
        log?.progress.append(manager.migrationProgress)
    }

    override func begin(_ mapping: NSEntityMapping, with manager: NSMigrationManager) throws {
        record("begin", mapping, manager)
    }

    override func createDestinationInstances(forSource sInstance: NSManagedObject, in mapping: NSEntityMapping, manager: NSMigrationManager) throws {
        record("create", mapping, manager)
        try super.createDestinationInstances(forSource: sInstance, in: mapping, manager: manager)
    }

    override func endInstanceCreation(forMapping mapping: NSEntityMapping, manager: NSMigrationManager) throws {
        record("endInstanceCreation", mapping, manager)
    }

    override func createRelationships(forDestination dInstance: NSManagedObject, in mapping: NSEntityMapping, manager: NSMigrationManager) throws {
        record("relationships", mapping, manager)
        #expect(manager.currentEntityMapping === mapping)
        try super.createRelationships(forDestination: dInstance, in: mapping, manager: manager)
    }

    override func endRelationshipCreation(forMapping mapping: NSEntityMapping, manager: NSMigrationManager) throws {
        record("endRelationshipCreation", mapping, manager)
    }

    override func performCustomValidation(forMapping mapping: NSEntityMapping, manager: NSMigrationManager) throws {
        record("validate", mapping, manager)
    }

    override func end(_ mapping: NSEntityMapping, manager: NSMigrationManager) throws {
        record("end", mapping, manager)
    }

    override func value(forFunction selector: String, arguments: [Any?]) throws -> Any? {
        try GradingPolicy().value(forFunction: selector, arguments: arguments)
    }
}

/// Skips employees earning less than 2000 and makes two people of every other one, associating
/// both itself instead of calling `super`.
final class SplittingPolicy: NSEntityMigrationPolicy {
    override func createDestinationInstances(forSource sInstance: NSManagedObject, in mapping: NSEntityMapping, manager: NSMigrationManager) throws {
        guard let salary = sInstance.value(forKey: "salary") as? NSNumber, salary.int64Value >= 2000 else { return }
        for suffix in ["", " (shadow)"] {
            let person = NSEntityDescription.insertNewObject(forEntityName: "Person", into: manager.destinationContext)
            person.setValue("\(sInstance.value(forKey: "name") ?? "")\(suffix)", forKey: "fullName")
            manager.associate(sourceInstance: sInstance, withDestinationInstance: person, for: mapping)
        }
    }
}

struct PolicyFailure: Error {}

/// Fails while making relationships, after every instance exists.
final class FailingPolicy: NSEntityMigrationPolicy {
    override func createRelationships(forDestination dInstance: NSManagedObject, in mapping: NSEntityMapping, manager: NSMigrationManager) throws {
        throw PolicyFailure()
    }

    override func value(forFunction selector: String, arguments: [Any?]) throws -> Any? {
        try GradingPolicy().value(forFunction: selector, arguments: arguments)
    }
}

/// Cancels the migration once the departments have their teams.
final class CancellingPolicy: NSEntityMigrationPolicy {
    override func endInstanceCreation(forMapping mapping: NSEntityMapping, manager: NSMigrationManager) throws {
        manager.cancelMigrationWithError(NSError(domain: NSCocoaErrorDomain, code: NSMigrationCancelledError))
    }
}

/// Counts the source store's statements from the start of the first mapping.
final class CountingPolicy: NSEntityMigrationPolicy {
    override func begin(_ mapping: NSEntityMapping, with manager: NSMigrationManager) throws {
        guard let counter = manager.userInfo?["counter"] as? StatementCounter,
              let store = manager.sourceContext.persistentStoreCoordinator?.persistentStores.first as? SQLiteStore else { return }
        store.statementObserver = { _ in counter.count += 1 }
    }
}

/// Cancels the `Progress` in the manager's `userInfo`, the parent of the migration's.
final class ProgressCancellingPolicy: NSEntityMigrationPolicy {
    override func endInstanceCreation(forMapping mapping: NSEntityMapping, manager: NSMigrationManager) throws {
        (manager.userInfo?["progress"] as? Progress)?.cancel()
    }
}
