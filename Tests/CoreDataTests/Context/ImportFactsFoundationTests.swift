import Foundation
import CoreData
import Testing

// This file imports BOTH Foundation and CoreData; it and ImportFactsTests.swift are the only
// files of these suites that import Foundation explicitly.
//
// With both imports, Foundation's NSPredicate and CoreData's NSPredicate are both visible. In an
// expression such as `NSPredicate(format: "a == 1")` the call still compiles and picks CoreData's
// initializer (the only one that can parse a format on Linux). In a type annotation, however, a
// bare `NSPredicate` is ambiguous ("'NSPredicate' is ambiguous for type lookup in this
// context"), so annotations spell it `CoreData.NSPredicate`. The same holds for NSExpression,
// NSComparisonPredicate, NSCompoundPredicate and NSSortDescriptor.

/// Import facts for a file that imports Foundation beside CoreData.
@Suite struct ImportFactsFoundationTests {
    @Test func predicateExpressionIsCoreDatas() {
        let predicate = NSPredicate(format: "a == 1")
        // Only CoreData's NSPredicate evaluates a dictionary with a parsed format.
        #expect(predicate.evaluate(with: ["a": 1]))
        #expect(!predicate.evaluate(with: ["a": 2]))
        let object: AnyObject = predicate
        #expect(object is CoreData.NSPredicate)
    }

    @Test func qualifiedAnnotationsWork() {
        var p: CoreData.NSPredicate?
        #expect(p == nil)
        p = NSPredicate(format: "name BEGINSWITH[c] %@", "al")
        #expect(p?.evaluate(with: ["name": "Alien"]) == true)
        let sort: CoreData.NSSortDescriptor = CoreData.NSSortDescriptor(key: "name", ascending: true)
        #expect(sort.key == "name")
    }

    @Test func qualifiedPredicateWorksInAFetchRequest() throws {
        let stack = try CtxStack(model: MovieModel.make())
        try stack.context.performAndWait { () throws in
            ctxInsert("Movie", into: stack.context, ["title": "Alien", "year": 1979])
            ctxInsert("Movie", into: stack.context, ["title": "Heat", "year": 1995])
            try stack.context.save()
            let request = NSFetchRequest<NSManagedObject>(entityName: "Movie")
            let predicate: CoreData.NSPredicate = NSPredicate(format: "title == %@", "Heat")
            request.predicate = predicate
            #expect(try stack.context.fetch(request).count == 1)
        }
    }
}
