@testable import CoreData
import Testing

/// `NSFetchRequestExpression`: a fetch request run by a context, as an expression. Evaluating it
/// performs `fetch(_:)`, or `count(for:)` when it is count-only (Apple's NSFetchRequestExpression.h).
@Suite struct FetchRequestExpressionTests {
    /// Movies of 1979, 1986 and 2001, in an in-memory store.
    private static func stack() throws -> CtxStack {
        let stack = try CtxStack(model: MovieModel.make(), storeType: NSInMemoryStoreType)
        try stack.context.performAndWait { () throws in
            for (title, year) in [("Alien", 1979), ("Aliens", 1986), ("Amélie", 2001)] {
                ctxInsert("Movie", into: stack.context, ["title": title, "year": year])
            }
            try stack.context.save()
        }
        return stack
    }

    private static func moviesAfter(_ year: Int) -> NSFetchRequest<NSManagedObject> {
        let request = NSFetchRequest<NSManagedObject>(entityName: "Movie")
        request.predicate = NSPredicate(format: "year > %d", year)
        return request
    }

    private static func fetchExpression(_ request: Any, in context: Any, countOnly: Bool) -> NSExpression {
        NSFetchRequestExpression.expression(forFetch: NSExpression(forConstantValue: request),
                                            context: NSExpression(forConstantValue: context), countOnly: countOnly)
    }

    @Test func itKeepsItsRequestContextAndCountFlag() throws {
        let stack = try Self.stack()
        let request = Self.moviesAfter(1980)
        let expression = Self.fetchExpression(request, in: stack.context, countOnly: true)
        let fetch = try #require(expression as? NSFetchRequestExpression)
        #expect(fetch.expressionType == NSFetchRequestExpressionType)
        #expect(NSFetchRequestExpressionType.rawValue == 50)
        #expect(fetch.requestExpression.constantValue as? NSFetchRequest<NSManagedObject> === request)
        #expect(fetch.contextExpression.constantValue as? NSManagedObjectContext === stack.context)
        #expect(fetch.isCountOnlyRequest)
        #expect(!(Self.fetchExpression(request, in: stack.context, countOnly: false) as! NSFetchRequestExpression).isCountOnlyRequest)
    }

    @Test func evaluatingItGivesTheFetchedObjects() throws {
        let stack = try Self.stack()
        let titles = try stack.context.performAndWait { () throws in
            let value = Self.fetchExpression(Self.moviesAfter(1980), in: stack.context, countOnly: false).expressionValue(with: nil, context: nil)
            return try #require(value as? [NSManagedObject]).compactMap { $0.value(forKey: "title") as? String }.sorted()
        }
        #expect(titles == ["Aliens", "Amélie"])
    }

    @Test func evaluatingACountOnlyExpressionGivesTheCount() throws {
        let stack = try Self.stack()
        let value = stack.context.performAndWait {
            Self.fetchExpression(Self.moviesAfter(1980), in: stack.context, countOnly: true).expressionValue(with: nil, context: nil)
        }
        #expect(value as? NSNumber == 2)
    }

    @Test func aComparisonPredicateHandsItBackAsAFetchRequestExpression() throws {
        let stack = try Self.stack()
        let comparison = NSComparisonPredicate(leftExpression: NSExpression.expressionForEvaluatedObject(),
                                               rightExpression: Self.fetchExpression(Self.moviesAfter(1980), in: stack.context, countOnly: false),
                                               modifier: .direct, type: .in, options: [])
        #expect(comparison.rightExpression is NSFetchRequestExpression)
        #expect(comparison.rightExpression.expressionType == .fetchRequest)
    }

    @Test func itPrintsAsAFetchOfItsRequestInItsContext() {
        let format = NSPredicate(format: "year > %@", Self.fetchExpression("request", in: "context", countOnly: true)).predicateFormat
        #expect(format == #"year > FETCH("request", "context", YES)"#)
    }

    @Test func itsRequestCanBeAVariableSubstitutedLater() throws {
        let stack = try Self.stack()
        let expression = NSFetchRequestExpression.expression(forFetch: NSExpression(forVariable: "request"),
                                                             context: NSExpression(forConstantValue: stack.context), countOnly: true)
        let template = NSPredicate(format: "year < %@", expression)
        let predicate = template.withSubstitutionVariables(["request": Self.moviesAfter(1980)])
        let titles = try stack.context.performAndWait { () throws in
            try ctxFetch("Movie", in: stack.context).filter { predicate.evaluate(with: $0) }.compactMap { $0.value(forKey: "title") as? String }
        }
        #expect(titles.isEmpty)
        let counted = stack.context.performAndWait {
            NSPredicate(format: "%@ == 2", expression).evaluate(with: nil, substitutionVariables: ["request": Self.moviesAfter(1980)])
        }
        #expect(counted)
    }

    // MARK: Malformed expressions

    @Test func aContextExpressionThatIsNoContextGivesAnErrorNotACrash() throws {
        let stack = try Self.stack()
        let expression = Self.fetchExpression(Self.moviesAfter(1980), in: "not a context", countOnly: false)
        #expect(expression.expressionValue(with: nil, context: nil) == nil)
        let error = try #require(stack.context.performAndWait {
            ctxError { _ = try ctxFetch("Movie", in: stack.context, "SELF IN %@", [expression]) }
        })
        #expect(error.domain == NSCocoaErrorDomain)
        #expect(error.code == NSCoreDataError)
        #expect(error.localizedDescription.contains("managed object context"))
    }

    @Test func aRequestExpressionThatIsNoFetchRequestGivesAnErrorNotACrash() throws {
        let stack = try Self.stack()
        let expression = Self.fetchExpression("Movie", in: stack.context, countOnly: true)
        let value = stack.context.performAndWait { expression.expressionValue(with: nil, context: nil) }
        #expect(value == nil)
        let error = try #require(stack.context.performAndWait {
            ctxError { _ = try ctxFetch("Movie", in: stack.context, "year > %@", [expression]) }
        })
        #expect(error.domain == NSCocoaErrorDomain)
        #expect(error.code == NSCoreDataError)
        #expect("\(error)".contains("NSFetchRequest"))
    }

    @Test func aFailingNestedFetchFailsTheFetchThatUsesIt() throws {
        let stack = try Self.stack()
        let request = NSFetchRequest<NSManagedObject>(entityName: "Spaceship")
        let expression = Self.fetchExpression(request, in: stack.context, countOnly: false)
        let error = try #require(stack.context.performAndWait {
            ctxError { _ = try ctxFetch("Movie", in: stack.context, "SELF IN %@", [expression]) }
        })
        #expect(error.domain == NSCocoaErrorDomain)
        #expect("\(error)".contains("Spaceship"))
    }

    @Test func aFetchRequestInsideItsOwnPredicateGivesAnErrorNotACrash() throws {
        for storeType in [NSInMemoryStoreType, NSSQLiteStoreType] {
            let stack = try CtxStack(model: MovieModel.make(), storeType: storeType)
            let request = NSFetchRequest<NSManagedObject>(entityName: "Movie")
            for countOnly in [false, true] {
                request.predicate = NSPredicate(format: countOnly ? "year > %@" : "SELF IN %@", Self.fetchExpression(request, in: stack.context, countOnly: countOnly))
                let error = try #require(stack.context.performAndWait { ctxError { _ = try stack.context.fetch(request) } })
                #expect(error.domain == NSCocoaErrorDomain)
                #expect("\(error)".contains("nest more than"))
            }
            request.predicate = nil
        }
    }

    @Test func aFetchInsideAnotherExpressionIsEvaluatedInMemory() throws {
        let stack = try Self.stack()
        let fetch = Self.fetchExpression(Self.moviesAfter(1980), in: stack.context, countOnly: false)
        let titles = try stack.context.performAndWait { () throws in
            try ctxFetch("Movie", in: stack.context, "%@.@count == 2 AND year < 1980", [fetch]).compactMap { $0.value(forKey: "title") as? String }
        }
        #expect(titles == ["Alien"])
    }
}
