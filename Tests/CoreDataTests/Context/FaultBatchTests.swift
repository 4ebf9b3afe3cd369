@testable import CoreData
import Testing

/// Faults fetched without property values load in batches: firing one loads its whole window of
/// the fetch in one query, never one query per object (benchmarks W2b).
@Suite struct FaultBatchTests {
    private func stackWithMovies(_ count: Int) throws -> CtxStack {
        let stack = try CtxStack(model: MovieModel.make())
        try stack.context.performAndWait {
            for index in 0..<count {
                ctxInsert("Movie", into: stack.context, ["title": "Movie \(index)", "year": 1900 + index])
            }
            try stack.context.save()
        }
        return try stack.reopened()
    }

    @Test func firingOneFaultLoadsTheRowsOfItsWindow() throws {
        let stack = try stackWithMovies(30)
        try stack.context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Movie")
            request.includesPropertyValues = false
            request.fetchBatchSize = 10
            request.sortDescriptors = [NSSortDescriptor(key: "year", ascending: true)]
            let movies = try stack.context.fetch(request)
            #expect(movies.count == 30)
            #expect(movies.allSatisfy { $0.isFault && $0.snapshot == nil })

            #expect(movies[3].value(forKey: "title") as? String == "Movie 3")
            #expect(movies[0..<10].allSatisfy { $0.snapshot != nil }, "the first window is loaded")
            #expect(movies[10...].allSatisfy { $0.snapshot == nil }, "later windows wait until they are used")
            #expect(movies[1].isFault, "neighbours stay faults, holding their rows")

            #expect(movies[25].value(forKey: "year") as? Int == 1925)
            #expect(movies[20..<30].allSatisfy { $0.snapshot != nil })
        }
    }

    @Test func aRowDeletedMeanwhileIsAnInaccessibleFault() throws {
        let stack = try stackWithMovies(3)
        try stack.context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Movie")
            request.includesPropertyValues = false
            request.sortDescriptors = [NSSortDescriptor(key: "year", ascending: true)]
            let movies = try stack.context.fetch(request)
            let other = stack.newContext()
            try other.performAndWait {
                let doomed = try ctxFetch("Movie", in: other, "year == 1901")
                doomed.forEach(other.delete)
                try other.save()
            }
            #expect(movies[0].value(forKey: "title") as? String == "Movie 0")
            #expect(movies[1].value(forKey: "title") == nil)
            #expect(movies[1].isDeleted, "shouldDeleteInaccessibleFaults is true by default")
            #expect(movies[2].value(forKey: "title") as? String == "Movie 2")
        }
    }
}
