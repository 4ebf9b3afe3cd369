@testable import CoreData
import Testing

/// Predicates that compare with an `NSFetchRequestExpression` (a fetch as a subquery, or its
/// count) answer the same from a relational store (SQLite, and PostgreSQL when there is a server)
/// as from the in-memory store.
@Suite struct SQLiteFetchRequestExpressionTests {
    static let storeTypes = MigrationScenario.relationalStoreTypes + [NSInMemoryStoreType]

    /// | movie        | year | characters           |
    /// |--------------|------|----------------------|
    /// | Alien        | 1979 | Ripley, Ash, Dallas  |
    /// | Aliens       | 1986 | Ripley, Hicks        |
    /// | Amélie       | 2001 | Amélie               |
    /// | Blade Runner | 1982 | Deckard              |
    private static let rows: [(title: String, year: Int, characters: [String])] = [
        ("Alien", 1979, ["Ripley", "Ash", "Dallas"]),
        ("Aliens", 1986, ["Ripley", "Hicks"]),
        ("Amélie", 2001, ["Amélie"]),
        ("Blade Runner", 1982, ["Deckard"]),
    ]

    private static func stack(_ storeType: String) throws -> CtxStack {
        let stack = try CtxStack(model: MovieModel.make(), storeType: storeType)
        try stack.context.performAndWait { () throws in
            for row in rows {
                let movie = ctxInsert("Movie", into: stack.context, ["title": row.title, "year": row.year])
                for name in row.characters {
                    ctxInsert("Character", into: stack.context, ["name": name, "movie": movie])
                }
            }
            try stack.context.save()
        }
        return storeType == NSInMemoryStoreType ? stack : try stack.reopened()
    }

    private static func request<Result>(_ entityName: String, _ format: String, _ arguments: [Any] = [], of _: Result.Type = NSManagedObject.self) -> NSFetchRequest<Result> {
        let request = NSFetchRequest<Result>(entityName: entityName)
        request.predicate = NSPredicate(format: format, argumentArray: arguments)
        return request
    }

    private static func fetch(_ request: NSPersistentStoreRequest, in context: NSManagedObjectContext, countOnly: Bool) -> NSExpression {
        NSFetchRequestExpression.expression(forFetch: NSExpression(forConstantValue: request),
                                            context: NSExpression(forConstantValue: context), countOnly: countOnly)
    }

    /// The sorted names (`title` or `name`) of the objects of `entityName` matching the predicate
    /// `predicate` makes with the stack's context, from a relational store and from an in-memory store.
    private static func answers(_ storeType: String, _ entityName: String, _ predicate: @escaping (NSManagedObjectContext) -> NSPredicate) throws -> (relational: [String], inMemory: [String]) {
        (try names(entityName, in: stack(storeType), predicate), try names(entityName, in: stack(NSInMemoryStoreType), predicate))
    }

    private static func names(_ entityName: String, in stack: CtxStack, _ predicate: (NSManagedObjectContext) -> NSPredicate) throws -> [String] {
        try stack.context.performAndWait { () throws in
            let request = NSFetchRequest<NSManagedObject>(entityName: entityName)
            request.predicate = predicate(stack.context)
            return try stack.context.fetch(request).map(name).sorted()
        }
    }

    private static func name(_ object: NSManagedObject) -> String {
        object.value(forKey: object.entity.name == "Movie" ? "title" : "name") as? String ?? ""
    }

    /// A fetch of `entity` whose predicate `format` compares with a fetch of `nested`.
    struct AgreementCase: CustomTestStringConvertible, Sendable {
        let entity: String
        let format: String
        let nested: (entity: String, format: String)
        var countOnly = false
        var objectIDs = false
        let expected: [String]

        var testDescription: String { "\(entity) where \(format) with \(nested.entity) where \(nested.format)" }
    }

    static let agreementCases = [
        AgreementCase(entity: "Movie", format: "SELF IN %@", nested: ("Movie", "year > 1980"), expected: ["Aliens", "Amélie", "Blade Runner"]),
        AgreementCase(entity: "Character", format: "movie IN %@ AND name BEGINSWITH 'R'", nested: ("Movie", "year < 1990"),
                      expected: ["Ripley", "Ripley"]),
        AgreementCase(entity: "Character", format: "NOT (movie IN %@)", nested: ("Movie", "title CONTAINS 'Alien'"), objectIDs: true,
                      expected: ["Amélie", "Deckard"]),
        // Movies with more characters than there are movies after 1985 (two).
        AgreementCase(entity: "Movie", format: "characters.@count > %@", nested: ("Movie", "year > 1985"), countOnly: true, expected: ["Alien"]),
        AgreementCase(entity: "Movie", format: "%@ <= year - 1983", nested: ("Character", "name == 'Ripley'"), countOnly: true,
                      expected: ["Aliens", "Amélie"]),
    ]

    @Test(arguments: agreementCases, MigrationScenario.relationalStoreTypes)
    func aComparisonWithAFetchAgreesAcrossStores(_ agreement: AgreementCase, storeType: String) throws {
        let answers = try Self.answers(storeType, agreement.entity) { context in
            let nested: NSPersistentStoreRequest
            if agreement.objectIDs {
                let request = Self.request(agreement.nested.entity, agreement.nested.format, of: NSManagedObjectID.self)
                request.resultType = .managedObjectIDResultType
                nested = request
            } else {
                nested = Self.request(agreement.nested.entity, agreement.nested.format)
            }
            return NSPredicate(format: agreement.format, Self.fetch(nested, in: context, countOnly: agreement.countOnly))
        }
        #expect(answers.relational == agreement.expected)
        #expect(answers.inMemory == answers.relational)
    }

    @Test(arguments: storeTypes)
    func theNestedFetchSeesItsContextsUnsavedChanges(storeType: String) throws {
        let stack = try Self.stack(storeType)
        let titles = try stack.context.performAndWait { () throws in
            let heat = ctxInsert("Movie", into: stack.context, ["title": "Heat", "year": 1995])
            ctxInsert("Character", into: stack.context, ["name": "McCauley", "movie": heat])
            let hicks = try #require(try ctxFetch("Character", in: stack.context, "name == 'Hicks'").first)
            hicks.setValue("Mr Hicks", forKey: "name")
            let characters = Self.request("Character", "name BEGINSWITH 'M'")
            let request = NSFetchRequest<NSManagedObject>(entityName: "Movie")
            request.predicate = NSPredicate(format: "ANY characters IN %@", Self.fetch(characters, in: stack.context, countOnly: false))
            return try stack.context.fetch(request).map(Self.name).sorted()
        }
        #expect(titles == ["Aliens", "Heat"])
    }

    @Test(arguments: MigrationScenario.relationalStoreTypes)
    func aNestedFetchWithAnOrderAndALimitAgreesAcrossStores(storeType: String) throws {
        let answers = try Self.answers(storeType, "Character") { context in
            let latest = Self.request("Movie", "year > 1900")
            latest.sortDescriptors = [NSSortDescriptor(key: "year", ascending: false)]
            latest.fetchLimit = 2
            latest.fetchOffset = 1
            return NSPredicate(format: "movie IN %@", Self.fetch(latest, in: context, countOnly: false))
        }
        #expect(answers.relational == ["Deckard", "Hicks", "Ripley"])
        #expect(answers.inMemory == answers.relational)
    }

    @Test(arguments: storeTypes)
    func aNestedFetchInAnotherContextSeesThatContextsChanges(storeType: String) throws {
        let stack = try Self.stack(storeType)
        let other = stack.newContext()
        try other.performAndWait { () throws in
            try #require(try ctxFetch("Movie", in: other, "title == 'Blade Runner'").first).setValue(2019, forKey: "year")
        }
        let titles = try stack.context.performAndWait { () throws in
            let request = NSFetchRequest<NSManagedObject>(entityName: "Movie")
            request.predicate = NSPredicate(format: "SELF IN %@", Self.fetch(Self.request("Movie", "year > 2010"), in: other, countOnly: false))
            return try stack.context.fetch(request).map(Self.name)
        }
        #expect(titles == ["Blade Runner"])
    }

    // MARK: One statement

    @Test func aFetchInTheFetchingContextIsASubqueryOfTheSameStatement() throws {
        let stack = try Self.stack(NSSQLiteStoreType)
        var titles: [String] = []
        let statements = try ctxStatements(in: stack) {
            titles = try stack.context.performAndWait { () throws in
                let request = NSFetchRequest<NSManagedObject>(entityName: "Movie")
                request.predicate = NSPredicate(format: "SELF IN %@", Self.fetch(Self.request("Movie", "year > %d", [1985]), in: stack.context, countOnly: false))
                return try stack.context.fetch(request).map(Self.name).sorted()
            }
        }
        #expect(titles == ["Aliens", "Amélie"])
        #expect(statements.count == 1)
        #expect(statements.first?.contains("t0.Z_PK IN (SELECT t0.Z_PK FROM ZMOVIE t0 WHERE") == true)
        // The nested constant is bound, not written into the SQL.
        #expect(statements.first?.contains("1985") == false)
    }

    @Test func aCountOnlyFetchInTheFetchingContextIsAScalarSubquery() throws {
        let stack = try Self.stack(NSSQLiteStoreType)
        var count = 0
        let statements = try ctxStatements(in: stack) {
            count = try stack.context.performAndWait { () throws in
                let request = NSFetchRequest<NSManagedObject>(entityName: "Movie")
                request.predicate = NSPredicate(format: "characters.@count >= %@", Self.fetch(Self.request("Character", "name == 'Ripley'"), in: stack.context, countOnly: true))
                return try stack.context.count(for: request)
            }
        }
        #expect(count == 2)
        #expect(statements.count == 1)
        #expect(statements.first?.contains("(SELECT COUNT(*) FROM (SELECT t0.Z_PK FROM ZCHARACTER t0 WHERE") == true)
    }

    @Test(arguments: MigrationScenario.relationalStoreTypes)
    func aFetchInsideAnotherExpressionGivesAnErrorNotACrash(storeType: String) throws {
        let stack = try Self.stack(storeType)
        let error = try #require(stack.context.performAndWait {
            ctxError {
                let fetch = Self.fetch(Self.request("Movie", "year > 1980"), in: stack.context, countOnly: false)
                _ = try ctxFetch("Movie", in: stack.context, "%@.@count == 3", [fetch])
            }
        })
        #expect(error.domain == NSCocoaErrorDomain)
        #expect(error.code == NSCoreDataError)
        #expect("\(error)".contains("cannot evaluate the count of FETCH("))
    }
}
