@testable import CoreData
import Testing

/// `assign(_:to:)`: a new object is saved in the store the program chose, among several stores
/// that hold its entity; a store that cannot take it fails the save with an error.
@Suite struct StoreAssignmentTests {
    /// A coordinator with two SQLite stores of the default configuration (both hold every
    /// entity) and a "Clubs" configuration store holding only `Club`.
    private struct TwoStores {
        let directory: CtxTemporaryDirectory
        let coordinator: NSPersistentStoreCoordinator
        let first: NSPersistentStore
        let second: NSPersistentStore
        let clubsOnly: NSPersistentStore
        let context: NSManagedObjectContext

        init() throws {
            directory = try CtxTemporaryDirectory()
            let model = CtxGraphModel.make()
            model.setEntities(model.entities.filter { $0.name == "Club" }, forConfigurationName: "Clubs")
            coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
            first = try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: directory.url.appendingPathComponent("First.sqlite"))
            second = try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: directory.url.appendingPathComponent("Second.sqlite"))
            clubsOnly = try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: "Clubs", at: directory.url.appendingPathComponent("Clubs.sqlite"))
            context = NSManagedObjectContext(.privateQueue)
            context.persistentStoreCoordinator = coordinator
        }

        /// The names of the people the store file at `name` holds, read by a new coordinator.
        func storedNames(in name: String) throws -> [String] {
            let stack = try SQLiteTestStack(model: coordinator.managedObjectModel, url: directory.url.appendingPathComponent(name))
            defer { stack.close() }
            return try stack.context.performAndWait {
                try ctxFetch("Person", in: stack.context, sortedBy: "name").compactMap { $0.value(forKey: "name") as? String }
            }
        }
    }

    @Test func anAssignedObjectIsSavedInItsStoreAndTheOthersInTheFirst() throws {
        let stores = try TwoStores()
        let (assigned, other) = try stores.context.performAndWait { () throws in
            let assigned = ctxInsert("Person", into: stores.context, ["name": "Ann"])
            let other = ctxInsert("Person", into: stores.context, ["name": "Bob"])
            stores.context.assign(assigned, to: stores.second)
            // A temporary ID names no store, assigned or not.
            #expect(assigned.objectID.persistentStore == nil)
            try stores.context.save()
            return (assigned, other)
        }
        #expect(assigned.objectID.persistentStore === stores.second)
        #expect(other.objectID.persistentStore === stores.first)
        #expect(try stores.storedNames(in: "Second.sqlite") == ["Ann"])
        #expect(try stores.storedNames(in: "First.sqlite") == ["Bob"])
    }

    @Test func permanentIDsAreObtainedFromTheAssignedStore() throws {
        let stores = try TwoStores()
        try stores.context.performAndWait {
            let person = ctxInsert("Person", into: stores.context, ["name": "Ann"])
            stores.context.assign(person, to: stores.second)
            try stores.context.obtainPermanentIDs(for: [person])
            #expect(person.objectID.persistentStore === stores.second)
            try stores.context.save()
        }
        #expect(try stores.storedNames(in: "Second.sqlite") == ["Ann"])
    }

    @Test func aSavedObjectStaysInItsStore() throws {
        let stores = try TwoStores()
        try stores.context.performAndWait {
            let person = ctxInsert("Person", into: stores.context, ["name": "Ann"])
            try stores.context.save()
            stores.context.assign(person, to: stores.second)
            person.setValue("Anne", forKey: "name")
            try stores.context.save()
            #expect(person.objectID.persistentStore === stores.first)
        }
        #expect(try stores.storedNames(in: "First.sqlite") == ["Anne"])
        #expect(try stores.storedNames(in: "Second.sqlite").isEmpty)
    }

    @Test func aStoreWithoutTheEntityFailsTheSaveAndKeepsTheObjectUnsaved() throws {
        let stores = try TwoStores()
        try stores.context.performAndWait {
            let person = ctxInsert("Person", into: stores.context, ["name": "Ann"])
            stores.context.assign(person, to: stores.clubsOnly)
            let error = ctxError { try stores.context.save() }
            #expect(error?.domain == NSCocoaErrorDomain)
            #expect(error?.code == NSPersistentStoreOperationError)
            #expect(person.isInserted && person.objectID.isTemporaryID)
            #expect(ctxError { try stores.context.obtainPermanentIDs(for: [person]) }?.code == NSPersistentStoreOperationError)
            // Another choice lets it be saved.
            stores.context.assign(person, to: stores.second)
            try stores.context.save()
        }
        #expect(try stores.storedNames(in: "Second.sqlite") == ["Ann"])
    }

    @Test func aStoreOfAnotherCoordinatorFailsTheSave() throws {
        let stores = try TwoStores()
        let elsewhere = try CtxStack(model: CtxGraphModel.make())
        stores.context.performAndWait {
            let person = ctxInsert("Person", into: stores.context, ["name": "Ann"])
            stores.context.assign(person, to: elsewhere.store)
            #expect(ctxError { try stores.context.save() }?.code == NSPersistentStoreOperationError)
            #expect(person.isInserted)
        }
        #expect(try elsewhere.storedCountAfterReopening("Person") == 0)
    }

    @Test func objectsThatAreNotNewManagedObjectsOfTheContextAreIgnored() throws {
        let stores = try TwoStores()
        let other = NSManagedObjectContext(.privateQueue)
        other.persistentStoreCoordinator = stores.coordinator
        let stranger = other.performAndWait { ctxInsert("Person", into: other, ["name": "Cy"]) }
        try stores.context.performAndWait {
            stores.context.assign("not an object", to: stores.second)
            stores.context.assign(stranger, to: stores.second)
            try stores.context.save()
        }
        try other.performAndWait { try other.save() }
        #expect(try stores.storedNames(in: "First.sqlite") == ["Cy"])
    }
}
