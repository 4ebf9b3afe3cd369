@testable import CoreData
import Testing

/// Dictionary results (`.dictionaryResultType`): fetched properties and key paths, expression
/// descriptions with aggregates and arithmetic, `propertiesToGroupBy`, `havingPredicate` and
/// `returnsDistinctResults`, with the same answers from the relational stores (in SQL: SQLite,
/// and PostgreSQL when there is a server) and the in-memory store (in memory).
@Suite struct DictionaryFetchTests {
    private static let storeTypes = MigrationScenario.relationalStoreTypes + [NSInMemoryStoreType]

    /// Movies (title, year, rating, released) with their characters (name, actor).
    private static func stack(_ storeType: String) throws -> CtxStack {
        let stack = try CtxStack(model: MovieModel.make(), storeType: storeType)
        try stack.context.performAndWait { () throws in
            let weaver = ctxInsert("Actor", into: stack.context, ["name": "Sigourney Weaver"])
            let movies: [(String, Int, Double?, Double, [String])] = [
                ("Alien", 1979, 8.5, 100, ["Ripley", "Ash", "Dallas"]),
                ("Aliens", 1986, 8.4, 300, ["Ripley", "Hicks"]),
                ("Heat", 1995, nil, 200, []),
                ("Ronin", 1998, 7.2, 50, ["Sam"]),
            ]
            for (title, year, rating, released, characters) in movies {
                let movie = ctxInsert("Movie", into: stack.context, ["title": title, "year": year, "released": Date(timeIntervalSinceReferenceDate: released)])
                if let rating { movie.setValue(rating, forKey: "rating") }
                for name in characters {
                    let character = ctxInsert("Character", into: stack.context, ["name": name, "movie": movie])
                    if name == "Ripley" { character.setValue(weaver, forKey: "actor") }
                }
            }
            try stack.context.save()
        }
        return stack
    }

    private static func fetch(_ stack: CtxStack, _ entity: String = "Movie", configure: (NSFetchRequest<NSDictionary>) -> Void) throws -> [[String: Any]] {
        try stack.context.performAndWait { () throws in
            let request = NSFetchRequest<NSDictionary>(entityName: entity)
            request.resultType = .dictionaryResultType
            configure(request)
            return try stack.context.fetch(request).map { dictionary in
                var entry: [String: Any] = [:]
                for (key, value) in dictionary { if let key = key as? String { entry[key] = value } }
                return entry
            }
        }
    }

    private static func expression(_ name: String, _ format: String, _ type: NSAttributeType = .undefinedAttributeType) -> NSExpressionDescription {
        let description = NSExpressionDescription()
        description.name = name
        description.expression = NSExpression(format: format)
        description.expressionResultType = type
        return description
    }

    @Test(arguments: storeTypes)
    func keyPathsThroughToOneRelationshipsAndObjectIDs(storeType: String) throws {
        let stack = try Self.stack(storeType)
        let rows = try Self.fetch(stack, "Character") { request in
            request.propertiesToFetch = ["name", "movie.title", "actor"]
            request.predicate = NSPredicate(format: "movie.year < 1990")
            request.sortDescriptors = [NSSortDescriptor(key: "movie.year", ascending: true), NSSortDescriptor(key: "name", ascending: true)]
        }
        #expect(rows.map { $0["name"] as? String } == ["Ash", "Dallas", "Ripley", "Hicks", "Ripley"])
        #expect(rows.map { $0["movie.title"] as? String } == ["Alien", "Alien", "Alien", "Aliens", "Aliens"])
        let actors = rows.map { $0["actor"] as? NSManagedObjectID }
        #expect(actors.compactMap { $0 }.count == 2)
        #expect(actors[0] == nil, "a nil relationship leaves its key out")
        #expect(actors[2]?.entity.name == "Actor")
    }

    @Test(arguments: storeTypes)
    func aggregatesOverAllMatchingObjects(storeType: String) throws {
        let stack = try Self.stack(storeType)
        let rows = try Self.fetch(stack) { request in
            request.propertiesToFetch = [
                Self.expression("latest", "max:(released)", .dateAttributeType),
                Self.expression("earliestYear", "min:(year)"),
                Self.expression("rated", "count:(rating)"),
                Self.expression("years", "sum:(year)", .integer64AttributeType),
                Self.expression("meanRating", "average:(rating)", .doubleAttributeType),
            ]
        }
        #expect(rows.count == 1)
        #expect(rows.first?["latest"] as? Date == Date(timeIntervalSinceReferenceDate: 300))
        #expect(rows.first?["earliestYear"] as? NSNumber == 1979)
        #expect(rows.first?["rated"] as? NSNumber == 3, "count: skips nil values")
        #expect(rows.first?["years"] as? NSNumber == 7958)
        #expect(((rows.first?["meanRating"] as? NSNumber)?.doubleValue ?? 0) - (8.5 + 8.4 + 7.2) / 3 < 1e-9)
    }

    @Test(arguments: storeTypes)
    func computedColumns(storeType: String) throws {
        let stack = try Self.stack(storeType)
        let rows = try Self.fetch(stack) { request in
            request.propertiesToFetch = ["title", Self.expression("decade", "year / 10 * 10"), Self.expression("score", "rating * 10", .integer32AttributeType)]
            request.sortDescriptors = [NSSortDescriptor(key: "year", ascending: true)]
        }
        #expect(rows.map { $0["decade"] as? NSNumber } == [1970, 1980, 1990, 1990])
        #expect(rows.map { $0["score"] as? NSNumber } == [85, 84, nil, 72])
    }

    @Test(arguments: storeTypes)
    func dateArithmeticGivesDates(storeType: String) throws {
        let stack = try Self.stack(storeType)
        let rows = try Self.fetch(stack) { request in
            request.propertiesToFetch = [Self.expression("later", "released + 86400"), Self.expression("gap", "released - released")]
            request.predicate = NSPredicate(format: "title == 'Alien'")
        }
        #expect(rows.first?["later"] as? Date == Date(timeIntervalSinceReferenceDate: 100 + 86400))
        #expect(rows.first?["gap"] as? NSNumber == 0)
    }

    @Test(arguments: storeTypes)
    func sortingByACollectionOperator(storeType: String) throws {
        let stack = try Self.stack(storeType)
        let titles = try stack.context.performAndWait { () throws -> [String] in
            let request = NSFetchRequest<NSManagedObject>(entityName: "Movie")
            request.sortDescriptors = [NSSortDescriptor(key: "characters.@max.movie.year", ascending: false)]
            return try stack.context.fetch(request).compactMap { $0.value(forKey: "title") as? String }
        }
        #expect(titles == ["Ronin", "Aliens", "Alien", "Heat"], "the latest year of each movie's characters' movies; nil last when descending")
    }

    @Test(arguments: storeTypes)
    func groupsWithCountsAndHaving(storeType: String) throws {
        let stack = try Self.stack(storeType)
        let perMovie = try Self.fetch(stack, "Character") { request in
            request.propertiesToFetch = ["movie.title", Self.expression("count", "count:(name)")]
            request.propertiesToGroupBy = ["movie.title"]
            request.sortDescriptors = [NSSortDescriptor(key: "movie.title", ascending: true)]
        }
        #expect(perMovie.map { $0["movie.title"] as? String } == ["Alien", "Aliens", "Ronin"])
        #expect(perMovie.map { $0["count"] as? NSNumber } == [3, 2, 1])

        for having in [NSPredicate(format: "$count > 1"), NSPredicate(format: "count > 1")] {
            let crowded = try Self.fetch(stack, "Character") { request in
                request.propertiesToFetch = ["movie.title", Self.expression("count", "count:(name)")]
                request.propertiesToGroupBy = ["movie.title"]
                request.havingPredicate = having
                request.sortDescriptors = [NSSortDescriptor(key: "movie.title", ascending: true)]
                request.fetchLimit = 1
                request.fetchOffset = 1
            }
            #expect(crowded.map { $0["movie.title"] as? String } == ["Aliens"], "having \(having), then the page")
        }

        let decades = try Self.fetch(stack) { request in
            let decade = Self.expression("decade", "year / 10 * 10")
            request.propertiesToFetch = [decade, Self.expression("films", "count:(title)")]
            request.propertiesToGroupBy = [decade]
            request.sortDescriptors = [NSSortDescriptor(key: "year", ascending: true)]
        }
        #expect(decades.map { $0["decade"] as? NSNumber } == [1970, 1980, 1990])
        #expect(decades.map { $0["films"] as? NSNumber } == [1, 1, 2])
    }

    @Test(arguments: storeTypes)
    func distinctResultsAndPaging(storeType: String) throws {
        let stack = try Self.stack(storeType)
        let names = try Self.fetch(stack, "Character") { request in
            request.propertiesToFetch = ["name"]
            request.returnsDistinctResults = true
            request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
        }
        #expect(names.map { $0["name"] as? String } == ["Ash", "Dallas", "Hicks", "Ripley", "Sam"])
        let page = try Self.fetch(stack) { request in
            request.propertiesToFetch = ["title"]
            request.sortDescriptors = [NSSortDescriptor(key: "title", ascending: false)]
            request.fetchOffset = 1
            request.fetchLimit = 2
        }
        #expect(page.map { $0["title"] as? String } == ["Heat", "Aliens"])
    }

    @Test(arguments: storeTypes)
    func propertyDescriptionsNameTheirProperties(storeType: String) throws {
        let stack = try Self.stack(storeType)
        let title = try #require(stack.model.entitiesByName["Movie"]?.attributesByName["title"])
        let rows = try Self.fetch(stack) { request in
            request.propertiesToFetch = [title]
            request.predicate = NSPredicate(format: "year == 1995")
        }
        #expect(rows.count == 1)
        #expect(rows.first?["title"] as? String == "Heat")
        #expect(rows.first?.count == 1)
    }

    /// Property names in `propertiesToFetch` and `propertiesToGroupBy` read back as the entity's
    /// property descriptions once the request knows its entity: at once when `entity` is set, and
    /// after a context resolves `entityName` by executing the request, as on Apple platforms
    /// (the documentation allows names or descriptions; CoreStore's Apple-run `GroupByTests` reads
    /// `propertiesToGroupBy` back `as! [NSAttributeDescription]`). Key paths, unknown names and
    /// expression descriptions read back as given, and the request fetches the same again.
    @Test(arguments: storeTypes)
    func propertyNamesReadBackAsTheEntitysDescriptions(storeType: String) throws {
        let stack = try Self.stack(storeType)
        let character = try #require(stack.model.entitiesByName["Character"])
        let count = Self.expression("count", "count:(name)")
        let request = NSFetchRequest<NSDictionary>(entityName: "Character")
        request.resultType = .dictionaryResultType
        request.propertiesToFetch = ["name", "movie", "movie.title", count]
        request.propertiesToGroupBy = ["name", "movie", "movie.title"]
        request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true), NSSortDescriptor(key: "movie.title", ascending: true)]
        #expect(request.propertiesToFetch?.first as? String == "name", "the entity is not known yet")
        #expect(request.entity == nil)

        let first = try stack.context.performAndWait { try stack.context.fetch(request) }
        #expect(request.entity?.name == "Character")
        let fetched = try #require(request.propertiesToFetch)
        #expect((fetched[0] as? NSAttributeDescription) === character.attributesByName["name"])
        #expect((fetched[1] as? NSRelationshipDescription) === character.relationshipsByName["movie"])
        #expect(fetched[2] as? String == "movie.title")
        #expect((fetched[3] as? NSExpressionDescription) === count)
        let grouped = try #require(request.propertiesToGroupBy)
        #expect(grouped.map { ($0 as? NSPropertyDescription)?.name ?? "\($0)" } == ["name", "movie", "movie.title"])
        #expect(grouped[0] is NSAttributeDescription && grouped[1] is NSRelationshipDescription && grouped[2] is String)

        let again = try stack.context.performAndWait { try stack.context.fetch(request) }
        #expect(again == first)
        #expect(first.map { $0["name"] as? String } == ["Ash", "Dallas", "Hicks", "Ripley", "Ripley", "Sam"])
        #expect(first.map { $0["count"] as? NSNumber } == [1, 1, 1, 1, 1, 1])

        let withEntity = NSFetchRequest<NSDictionary>()
        withEntity.entity = character
        withEntity.propertiesToGroupBy = ["name", "budget"]
        withEntity.propertiesToFetch = ["name"]
        #expect((withEntity.propertiesToGroupBy?[0] as? NSAttributeDescription)?.name == "name")
        #expect(withEntity.propertiesToGroupBy?[1] as? String == "budget", "a name the entity lacks reads back as given")
        #expect((withEntity.propertiesToFetch as? [NSAttributeDescription])?.map(\.name) == ["name"])
        #expect((withEntity.copy() as? NSFetchRequest<NSDictionary>)?.propertiesToFetch?.first is NSAttributeDescription)
    }

    @Test(arguments: storeTypes)
    func invalidRequestsFailWithErrorsThatSayWhy(storeType: String) throws {
        let stack = try Self.stack(storeType)
        let cases: [(String, (NSFetchRequest<NSDictionary>) -> Void, String)] = [
            ("unknown key", { $0.propertiesToFetch = ["budget"] }, "budget"),
            ("unknown key path", { $0.propertiesToFetch = ["title.length"] }, "title.length"),
            ("to-many", { $0.propertiesToFetch = ["characters"] }, "to-many"),
            ("ungrouped column", { $0.propertiesToFetch = ["title", "year"]; $0.propertiesToGroupBy = ["year"] }, "title"),
            ("having without grouping", { $0.havingPredicate = NSPredicate(format: "title == 'x'") }, "propertiesToGroupBy"),
            ("aggregate beside a plain column", { $0.propertiesToFetch = ["title", Self.expression("latest", "max:(year)")] }, "title"),
            ("expression without expression", { $0.propertiesToFetch = [NSExpressionDescription()] }, "no expression"),
            ("invalid expression", { $0.propertiesToFetch = [Self.expression("x", "max:(")] }, "max:("),
        ]
        for (label, configure, fragment) in cases {
            let error = stack.context.performAndWait { ctxError { _ = try Self.fetch(stack, configure: configure) } }
            #expect(error?.domain == NSCocoaErrorDomain, "\(label)")
            #expect(error?.explanation.contains(fragment) == true, "\(label): \(error?.explanation ?? "no error")")
        }
        let grouped = stack.context.performAndWait {
            ctxError {
                let request = NSFetchRequest<NSManagedObject>(entityName: "Movie")
                request.propertiesToGroupBy = ["year"]
                _ = try stack.context.fetch(request)
            }
        }
        #expect(grouped?.explanation.contains("dictionary") == true)
    }
}
