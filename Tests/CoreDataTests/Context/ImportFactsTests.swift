import CoreData
import Testing

// This file imports CoreData alone, as files that use Core Data do on Apple platforms. That it
// compiles pins a fact: CoreData's own NSPredicate and NSSortDescriptor (which parse formats and
// take string keys) are visible everywhere through `import CoreData`, in type annotations as well
// as in expressions, and Foundation (re-exported by CoreData) is available too.

/// Import facts for a file that imports only CoreData.
@Suite struct ImportFactsTests {
    @Test func predicateAndSortDescriptorNamesResolveWithCoreDataAlone() throws {
        var p: NSPredicate?
        #expect(p == nil)
        p = NSPredicate(format: "year > %@", NSNumber(value: 1990))
        let sort: NSSortDescriptor = NSSortDescriptor(key: "year", ascending: false)
        let compound: NSCompoundPredicate = NSCompoundPredicate(andPredicateWithSubpredicates: [try #require(p), NSPredicate(value: true)])
        let expression: NSExpression = NSExpression(forKeyPath: "year")

        #expect(p?.evaluate(with: ["year": 2001]) == true)
        #expect(p?.evaluate(with: ["year": 1979]) == false)
        #expect(compound.evaluate(with: ["year": 2001]))
        #expect(expression.keyPath == "year")
        #expect(sort.key == "year")
        #expect(!sort.ascending)
    }

    @Test func theyWorkInAFetchRequest() throws {
        let stack = try CtxStack(model: MovieModel.make())
        try stack.context.performAndWait { () throws in
            for (title, year) in [("Alien", 1979), ("Heat", 1995), ("Amélie", 2001)] {
                ctxInsert("Movie", into: stack.context, ["title": title, "year": year])
            }
            try stack.context.save()
            let request = NSFetchRequest<NSManagedObject>(entityName: "Movie")
            let predicate: NSPredicate? = NSPredicate(format: "year > %@", NSNumber(value: 1990))
            request.predicate = predicate
            request.sortDescriptors = [NSSortDescriptor(key: "year", ascending: false)]
            let titles = try stack.context.fetch(request).compactMap { $0.value(forKey: "title") as? String }
            #expect(titles == ["Amélie", "Heat"])
        }
    }

    @Test func foundationTypesAreAvailableThroughCoreData() {
        // Date, URL, UUID, NSNumber and FileManager come from Foundation, re-exported by CoreData.
        let values: [Any] = [Date(), URL(fileURLWithPath: "/tmp"), UUID(), NSNumber(value: 1)]
        #expect(values.count == 4)
        #expect(FileManager.default.fileExists(atPath: "/"))
    }
}
