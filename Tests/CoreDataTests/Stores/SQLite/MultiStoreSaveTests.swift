@testable import CoreData
import Testing

/// Saves that span two stores are all-or-nothing, and relationships cannot cross stores.
@Suite("Saves across two stores")
struct MultiStoreSaveTests {
    /// Department and Employee in configuration "Company" (one file), Note in "Notes" (another).
    private func makeModel() -> NSManagedObjectModel {
        let department = ModelFixtureKit.entity("Department", [ModelFixtureKit.attribute("name", .stringAttributeType)])
        let employee = ModelFixtureKit.entity("Employee", [ModelFixtureKit.attribute("name", .stringAttributeType)])
        let note = ModelFixtureKit.entity("Note", [ModelFixtureKit.attribute("text", .stringAttributeType)])
        let employees = ModelFixtureKit.relationship("employees", to: employee, maxCount: 0)
        let worksIn = ModelFixtureKit.relationship("department", to: department, maxCount: 1)
        ModelFixtureKit.inverse(employees, worksIn)
        department.properties += [employees]
        employee.properties += [worksIn]
        let about = ModelFixtureKit.relationship("about", to: department, maxCount: 1)
        note.properties += [about]
        let model = ModelFixtureKit.model([department, employee, note])
        model.setEntities([department, employee], forConfigurationName: "Company")
        model.setEntities([note], forConfigurationName: "Notes")
        return model
    }

    private func coordinator(_ model: NSManagedObjectModel, _ directory: SQLiteScratchDirectory) throws -> NSPersistentStoreCoordinator {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: "Company", at: directory.file("Company.sqlite"))
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: "Notes", at: directory.file("Notes.sqlite"))
        return coordinator
    }

    private func context(_ coordinator: NSPersistentStoreCoordinator) -> NSManagedObjectContext {
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return context
    }

    @Test("a conflict in one store leaves the other store unwritten, and a retry writes once")
    func aFailureInOneStoreWritesNothing() throws {
        let directory = try SQLiteScratchDirectory("multistore-atomic")
        defer { directory.remove() }
        let coordinator = try coordinator(makeModel(), directory)
        let writer = context(coordinator)
        let noteID: NSManagedObjectID = try writer.performAndWait {
            let note = NSEntityDescription.insertNewObject(forEntityName: "Note", into: writer)
            note.setValue("first", forKey: "text")
            try writer.save()
            return note.objectID
        }
        let stale = context(coordinator)
        try stale.performAndWait {
            let note = try stale.existingObject(with: noteID)
            _ = note.value(forKey: "text")
            try writer.performAndWait {
                try writer.existingObject(with: noteID).setValue("changed elsewhere", forKey: "text")
                try writer.save()
            }
            note.setValue("stale edit", forKey: "text")
            let department = NSEntityDescription.insertNewObject(forEntityName: "Department", into: stale)
            department.setValue("Research", forKey: "name")
            #expect { try stale.save() } throws: { ($0 as NSError).code == NSManagedObjectMergeError }
            #expect(try RawStoreSQL.rows(directory.file("Company.sqlite"), "SELECT Z_PK FROM ZDEPARTMENT").isEmpty)
            #expect(department.objectID.isTemporaryID)

            stale.refresh(note, mergeChanges: false)
            try stale.save()
        }
        #expect(try RawStoreSQL.rows(directory.file("Company.sqlite"), "SELECT Z_PK FROM ZDEPARTMENT").count == 1)
    }

    @Test("a relationship to an object of another store is refused with 133010")
    func crossStoreRelationship() throws {
        let directory = try SQLiteScratchDirectory("multistore-relationship")
        defer { directory.remove() }
        let coordinator = try coordinator(makeModel(), directory)
        let context = context(coordinator)
        context.performAndWait {
            let department = NSEntityDescription.insertNewObject(forEntityName: "Department", into: context)
            let note = NSEntityDescription.insertNewObject(forEntityName: "Note", into: context)
            note.setValue(department, forKey: "about")
            #expect { try context.save() } throws: { ($0 as NSError).code == NSManagedObjectExternalRelationshipError }
            #expect(context.hasChanges)
        }
    }

    @Test("a configuration naming part of an inheritance hierarchy reopens")
    func partialHierarchyConfiguration() throws {
        let directory = try SQLiteScratchDirectory("multistore-partial")
        defer { directory.remove() }
        func makeModel() -> NSManagedObjectModel {
            let car = ModelFixtureKit.entity("Car", [ModelFixtureKit.attribute("name", .stringAttributeType)])
            let sportCar = ModelFixtureKit.entity("SportCar", [ModelFixtureKit.attribute("speed", .integer32AttributeType)])
            car.subentities = [sportCar]
            let model = ModelFixtureKit.model([car, sportCar])
            model.setEntities([car], forConfigurationName: "Cars")
            return model
        }
        let url = directory.file("Cars.sqlite")
        for round in 1...2 {
            let coordinator = NSPersistentStoreCoordinator(managedObjectModel: makeModel())
            try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: "Cars", at: url)
            let context = context(coordinator)
            try context.performAndWait {
                NSEntityDescription.insertNewObject(forEntityName: "Car", into: context).setValue("car \(round)", forKey: "name")
                try context.save()
                #expect(try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Car")) == round)
            }
        }
    }
}
