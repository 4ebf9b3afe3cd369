@testable import CoreData
import Testing

/// Two coordinators on one store (one SQLite file, or one PostgreSQL schema when there is a
/// server), as two processes have: each sees the other's saves and can save after them. A SQLite
/// statement left on a row would keep its connection on an old snapshot, hiding the other's saves
/// and failing the next save with `SQLITE_BUSY_SNAPSHOT`.
@Suite struct TwoCoordinatorTests {
    @Test(arguments: MigrationScenario.relationalStoreTypes)
    func eachCoordinatorSavesAfterTheOthersSave(storeType: String) throws {
        let first = try CtxStack(model: MovieModel.make(), storeType: storeType)
        let second = try first.reopened()
        for (round, stack) in [first, second, first, second].enumerated() {
            try stack.context.performAndWait {
                NSEntityDescription.insertNewObject(forEntityName: "Movie", into: stack.context).setValue("Movie \(round)", forKey: "title")
                try stack.context.save()
            }
        }
        for stack in [first, second] {
            let count = try stack.context.performAndWait { try stack.context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Movie")) }
            #expect(count == 4)
        }
    }

    @Test(arguments: MigrationScenario.relationalStoreTypes)
    func aFaultFiredBeforeAnotherCoordinatorsSaveDoesNotHideIt(storeType: String) throws {
        let first = try CtxStack(model: MovieModel.make(), storeType: storeType)
        let second = try first.reopened()
        let movieID = try first.context.performAndWait { () throws -> NSManagedObjectID in
            let movie = NSEntityDescription.insertNewObject(forEntityName: "Movie", into: first.context)
            movie.setValue("Alien", forKey: "title")
            try first.context.save()
            return movie.objectID
        }
        let reader = first.newContext()
        reader.performAndWait { _ = reader.object(with: movieID).value(forKey: "title") }
        try second.context.performAndWait {
            let movie = try #require(try second.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Movie")).first)
            movie.setValue("Aliens", forKey: "title")
            try second.context.save()
        }
        let fresh = first.newContext()
        let titles = try fresh.performAndWait {
            try fresh.fetch(NSFetchRequest<NSManagedObject>(entityName: "Movie")).compactMap { $0.value(forKey: "title") as? String }
        }
        #expect(titles == ["Aliens"])
    }
}
