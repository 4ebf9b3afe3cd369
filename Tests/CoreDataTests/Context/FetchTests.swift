import CoreData
import Testing

/// Fetching (FLT-4): sub-entities, sorting, limits and offsets,
/// predicates, counts, result types, pending changes, and errors that throw instead of trapping.
/// Each behaviour runs against the relational stores (predicates compiled to SQL: SQLite, and
/// PostgreSQL when there is a server) and the in-memory store (predicates evaluated in memory).
@Suite struct FetchTests {
    static let storeTypes = MigrationScenario.relationalStoreTypes + [NSInMemoryStoreType]

    /// Movies, with characters, saved and then read through a fresh context.
    ///
    /// | title            | year | rating | characters                  |
    /// |------------------|------|--------|-----------------------------|
    /// | Alien            | 1979 | 8.5    | Ripley, Ash, Dallas         |
    /// | Aliens           | 1986 | 8.4    | Ripley, Hicks               |
    /// | Amélie           | 2001 | 8.3    | Amélie                      |
    /// | Blade Runner     | 1982 | 8.1    | Deckard                     |
    /// | Heat             | 1995 | 8.3    |                             |
    private func movieStack(_ storeType: String) throws -> CtxStack {
        let stack = try CtxStack(model: MovieModel.make(), storeType: storeType)
        try stack.context.performAndWait { () throws in
            let rows: [(String, Int, Double, [String])] = [
                ("Alien", 1979, 8.5, ["Ripley", "Ash", "Dallas"]),
                ("Aliens", 1986, 8.4, ["Ripley", "Hicks"]),
                ("Amélie", 2001, 8.3, ["Amélie"]),
                ("Blade Runner", 1982, 8.1, ["Deckard"]),
                ("Heat", 1995, 8.3, []),
            ]
            let weaver = ctxInsert("Actor", into: stack.context, ["name": "Sigourney Weaver"])
            for (title, year, rating, characters) in rows {
                let movie = ctxInsert("Movie", into: stack.context, ["title": title, "year": year, "rating": rating])
                for name in characters {
                    let character = ctxInsert("Character", into: stack.context, ["name": name, "movie": movie])
                    if name == "Ripley" { character.setValue(weaver, forKey: "actor") }
                }
            }
            try stack.context.save()
        }
        if storeType != NSInMemoryStoreType {
            return try stack.reopened()
        }
        stack.context.performAndWait { stack.context.reset() }
        return stack
    }

    private func titles(_ format: String?, _ arguments: [Any] = [], in stack: CtxStack) throws -> [String] {
        try stack.context.performAndWait { () throws in
            try ctxFetch("Movie", in: stack.context, format, arguments, sortedBy: "title").compactMap { $0.value(forKey: "title") as? String }
        }
    }

    // MARK: Entities

    @Test(arguments: storeTypes)
    func subentitiesAreIncludedByDefault(storeType: String) throws {
        let stack = try CtxStack(model: CtxGraphModel.make(), storeType: storeType)
        try stack.context.performAndWait { () throws in
            ctxInsert("Animal", into: stack.context, ["name": "generic"])
            ctxInsert("Dog", into: stack.context, ["name": "Rex", "barks": true])
            ctxInsert("Cat", into: stack.context, ["name": "Tom", "lives": 9])
            try stack.context.save()

            let request = NSFetchRequest<NSManagedObject>(entityName: "Animal")
            #expect(request.includesSubentities)
            let all = try stack.context.fetch(request)
            #expect(all.count == 3)
            #expect(Set(all.compactMap { $0.entity.name }) == ["Animal", "Dog", "Cat"])

            request.includesSubentities = false
            let onlyAnimals = try stack.context.fetch(request)
            #expect(onlyAnimals.compactMap { $0.value(forKey: "name") as? String } == ["generic"])
            #expect(try stack.context.count(for: request) == 1)

            let dogs = try ctxFetch("Dog", in: stack.context)
            #expect(dogs.count == 1)
            #expect(dogs.first?.entity.name == "Dog")
            #expect(dogs.first?.value(forKey: "barks") as? Bool == true)
        }
    }

    @Test(arguments: storeTypes)
    func subentitiesMatchPredicatesOnInheritedAttributes(storeType: String) throws {
        let stack = try CtxStack(model: CtxGraphModel.make(), storeType: storeType)
        try stack.context.performAndWait { () throws in
            ctxInsert("Dog", into: stack.context, ["name": "Rex"])
            ctxInsert("Cat", into: stack.context, ["name": "Tom"])
            try stack.context.save()
            let found = try ctxFetch("Animal", in: stack.context, "name == %@", ["Tom"])
            #expect(found.map { $0.entity.name } == ["Cat"])
        }
    }

    @Test(arguments: storeTypes)
    func requestWithAnEntityDescription(storeType: String) throws {
        let stack = try movieStack(storeType)
        try stack.context.performAndWait { () throws in
            let request = NSFetchRequest<NSManagedObject>()
            let entity: NSEntityDescription = try #require(NSEntityDescription.entity(forEntityName: "Movie", in: stack.context))
            request.entity = entity
            #expect(request.entityName == "Movie")
            #expect(try stack.context.fetch(request).count == 5)
        }
    }

    // MARK: Sorting, limits, offsets

    @Test(arguments: storeTypes)
    func sortAscendingAndDescending(storeType: String) throws {
        let stack = try movieStack(storeType)
        try stack.context.performAndWait { () throws in
            let request = NSFetchRequest<NSManagedObject>(entityName: "Movie")
            request.sortDescriptors = [NSSortDescriptor(key: "year", ascending: true)]
            #expect(try stack.context.fetch(request).compactMap { $0.value(forKey: "year") as? Int } == [1979, 1982, 1986, 1995, 2001])
            request.sortDescriptors = [NSSortDescriptor(key: "year", ascending: false)]
            #expect(try stack.context.fetch(request).compactMap { $0.value(forKey: "year") as? Int } == [2001, 1995, 1986, 1982, 1979])
        }
    }

    @Test(arguments: storeTypes)
    func sortBySeveralKeys(storeType: String) throws {
        let stack = try movieStack(storeType)
        try stack.context.performAndWait { () throws in
            let request = NSFetchRequest<NSManagedObject>(entityName: "Movie")
            request.sortDescriptors = [NSSortDescriptor(key: "rating", ascending: false), NSSortDescriptor(key: "title", ascending: false)]
            let titles = try stack.context.fetch(request).compactMap { $0.value(forKey: "title") as? String }
            #expect(titles == ["Alien", "Aliens", "Heat", "Amélie", "Blade Runner"])
        }
    }

    @Test(arguments: storeTypes)
    func sortThroughAToOneKeyPath(storeType: String) throws {
        let stack = try movieStack(storeType)
        try stack.context.performAndWait { () throws in
            let request = NSFetchRequest<NSManagedObject>(entityName: "Character")
            request.predicate = NSPredicate(format: "name == 'Ripley'")
            request.sortDescriptors = [NSSortDescriptor(key: "movie.year", ascending: false)]
            let years = try stack.context.fetch(request).compactMap { $0.value(forKeyPath: "movie.year") as? Int }
            #expect(years == [1986, 1979])
        }
    }

    @Test(arguments: storeTypes)
    func fetchLimitAndOffset(storeType: String) throws {
        let stack = try movieStack(storeType)
        try stack.context.performAndWait { () throws in
            let request = NSFetchRequest<NSManagedObject>(entityName: "Movie")
            request.sortDescriptors = [NSSortDescriptor(key: "year", ascending: true)]
            request.fetchLimit = 2
            #expect(try stack.context.fetch(request).compactMap { $0.value(forKey: "year") as? Int } == [1979, 1982])
            request.fetchOffset = 1
            #expect(try stack.context.fetch(request).compactMap { $0.value(forKey: "year") as? Int } == [1982, 1986])
            request.fetchLimit = 0
            request.fetchOffset = 3
            #expect(try stack.context.fetch(request).compactMap { $0.value(forKey: "year") as? Int } == [1995, 2001])
            request.fetchOffset = 10
            #expect(try stack.context.fetch(request).isEmpty)
        }
    }

    // MARK: Predicates

    @Test(arguments: storeTypes)
    func comparisonPredicates(storeType: String) throws {
        let stack = try movieStack(storeType)
        #expect(try titles("title == %@", ["Heat"], in: stack) == ["Heat"])
        #expect(try titles("title != %@", ["Heat"], in: stack) == ["Alien", "Aliens", "Amélie", "Blade Runner"])
        #expect(try titles("year < 1982", in: stack) == ["Alien"])
        #expect(try titles("year > %@", [NSNumber(value: 1990)], in: stack) == ["Amélie", "Heat"])
        #expect(try titles("year >= 1982 AND year <= 1986", in: stack) == ["Aliens", "Blade Runner"])
        #expect(try titles("rating == 8.3", in: stack) == ["Amélie", "Heat"])
    }

    @Test(arguments: storeTypes)
    func stringPredicatesWithOptions(storeType: String) throws {
        let stack = try movieStack(storeType)
        #expect(try titles("title BEGINSWITH[c] %@", ["al"], in: stack) == ["Alien", "Aliens"])
        #expect(try titles("title BEGINSWITH %@", ["al"], in: stack) == [])
        #expect(try titles("title CONTAINS[cd] %@", ["ELI"], in: stack) == ["Amélie"])
        #expect(try titles("title CONTAINS[c] %@", ["eli"], in: stack) == [])
        #expect(try titles("title ENDSWITH %@", ["ner"], in: stack) == ["Blade Runner"])
        #expect(try titles("title LIKE[c] %@", ["a*n"], in: stack) == ["Alien"])
    }

    @Test(arguments: storeTypes)
    func inAndBetween(storeType: String) throws {
        let stack = try movieStack(storeType)
        #expect(try titles("title IN %@", [["Heat", "Alien", "Nope"]], in: stack) == ["Alien", "Heat"])
        #expect(try titles("year IN {1979, 2001}", in: stack) == ["Alien", "Amélie"])
        #expect(try titles("year BETWEEN {1980, 1990}", in: stack) == ["Aliens", "Blade Runner"])
        #expect(try titles("year BETWEEN %@", [[1995, 2001]], in: stack) == ["Amélie", "Heat"])
    }

    @Test(arguments: storeTypes)
    func compoundPredicates(storeType: String) throws {
        let stack = try movieStack(storeType)
        #expect(try titles("year < 1985 OR title == 'Heat'", in: stack) == ["Alien", "Blade Runner", "Heat"])
        #expect(try titles("NOT (title BEGINSWITH 'A')", in: stack) == ["Blade Runner", "Heat"])
        #expect(try titles("(year > 1980 AND rating > 8.2) OR NOT year > 1980", in: stack) == ["Alien", "Aliens", "Amélie", "Heat"])
        let compound = NSCompoundPredicate(andPredicateWithSubpredicates: [
            NSPredicate(format: "year > 1980"),
            NSPredicate(format: "rating < 8.4"),
        ])
        try stack.context.performAndWait { () throws in
            let request = NSFetchRequest<NSManagedObject>(entityName: "Movie")
            request.predicate = compound
            request.sortDescriptors = [NSSortDescriptor(key: "title", ascending: true)]
            #expect(try stack.context.fetch(request).compactMap { $0.value(forKey: "title") as? String } == ["Amélie", "Blade Runner", "Heat"])
        }
    }

    @Test(arguments: storeTypes)
    func keyPathsThroughToOne(storeType: String) throws {
        let stack = try movieStack(storeType)
        try stack.context.performAndWait { () throws in
            let names = try ctxFetch("Character", in: stack.context, "movie.title == %@", ["Alien"], sortedBy: "name")
                .compactMap { $0.value(forKey: "name") as? String }
            #expect(names == ["Ash", "Dallas", "Ripley"])
            let weaver = try ctxFetch("Character", in: stack.context, "actor.name BEGINSWITH 'Sigourney'")
            #expect(weaver.count == 2)
            let noActor = try ctxFetch("Character", in: stack.context, "actor == nil")
            #expect(noActor.count == 5)
        }
    }

    @Test(arguments: storeTypes)
    func toManyAggregatesAndAny(storeType: String) throws {
        let stack = try movieStack(storeType)
        #expect(try titles("ANY characters.name == %@", ["Ripley"], in: stack) == ["Alien", "Aliens"])
        #expect(try titles("characters.@count > 1", in: stack) == ["Alien", "Aliens"])
        #expect(try titles("characters.@count == 0", in: stack) == ["Heat"])
        #expect(try titles("ANY characters.name BEGINSWITH[c] 'd'", in: stack) == ["Alien", "Blade Runner"])
    }

    @Test(arguments: storeTypes)
    func predicateWithAnObject(storeType: String) throws {
        let stack = try movieStack(storeType)
        try stack.context.performAndWait { () throws in
            let alien = try #require(try ctxFetch("Movie", in: stack.context, "title == 'Alien'").first)
            let characters = try ctxFetch("Character", in: stack.context, "movie == %@", [alien])
            #expect(characters.count == 3)
            let byID = try ctxFetch("Character", in: stack.context, "movie == %@", [alien.objectID])
            #expect(byID.count == 3)
            let movies = try ctxFetch("Movie", in: stack.context, "SELF IN %@", [[alien]])
            #expect(movies.map(ObjectIdentifier.init) == [ObjectIdentifier(alien)])
        }
    }

    // MARK: Counting and result types

    @Test(arguments: storeTypes)
    func countForRequest(storeType: String) throws {
        let stack = try movieStack(storeType)
        try stack.context.performAndWait { () throws in
            let request = NSFetchRequest<NSManagedObject>(entityName: "Movie")
            #expect(try stack.context.count(for: request) == 5)
            request.predicate = NSPredicate(format: "year > 1985")
            #expect(try stack.context.count(for: request) == 3)
            #expect(try stack.context.count(for: request) == (try stack.context.fetch(request)).count)
        }
    }

    @Test(arguments: storeTypes)
    func objectIDResultType(storeType: String) throws {
        let stack = try movieStack(storeType)
        try stack.context.performAndWait { () throws in
            let request = NSFetchRequest<NSManagedObjectID>(entityName: "Movie")
            request.resultType = .managedObjectIDResultType
            request.predicate = NSPredicate(format: "year < 1985")
            let ids = try stack.context.fetch(request)
            #expect(ids.count == 2)
            #expect(ids.allSatisfy { !$0.isTemporaryID && $0.entity.name == "Movie" })
            let objects = try ctxFetch("Movie", in: stack.context, "year < 1985")
            #expect(Set(ids) == Set(objects.map(\.objectID)))
        }
    }

    @Test(arguments: storeTypes)
    func dictionaryResultType(storeType: String) throws {
        let stack = try movieStack(storeType)
        try stack.context.performAndWait { () throws in
            let request = NSFetchRequest<NSDictionary>(entityName: "Movie")
            request.resultType = .dictionaryResultType
            request.propertiesToFetch = ["title", "year"]
            request.sortDescriptors = [NSSortDescriptor(key: "year", ascending: true)]
            let rows = try stack.context.fetch(request)
            #expect(rows.count == 5)
            #expect(rows.first?["title"] as? String == "Alien")
            #expect((rows.first?["year"] as? NSNumber)?.intValue == 1979)
            #expect(rows.first?["rating"] == nil)
        }
    }

    @Test(arguments: storeTypes)
    func countResultType(storeType: String) throws {
        let stack = try movieStack(storeType)
        try stack.context.performAndWait { () throws in
            let request = NSFetchRequest<NSNumber>(entityName: "Movie")
            request.resultType = .countResultType
            request.predicate = NSPredicate(format: "title BEGINSWITH 'A'")
            let result = try stack.context.fetch(request)
            #expect(result.count == 1)
            #expect(result.first?.intValue == 3)
        }
    }

    @Test(arguments: storeTypes)
    func untypedFetchRequestResult(storeType: String) throws {
        let stack = try movieStack(storeType)
        try stack.context.performAndWait { () throws in
            let request = NSFetchRequest<NSFetchRequestResult>(entityName: "Movie")
            let results = try stack.context.fetch(request)
            #expect(results.count == 5)
            #expect(results.allSatisfy { $0 is NSManagedObject })

            request.resultType = .managedObjectIDResultType
            #expect(try stack.context.fetch(request).allSatisfy { $0 is NSManagedObjectID })
        }
    }

    @Test func resultTypeRawValues() {
        #expect(NSFetchRequestResultType.managedObjectResultType.rawValue == 0)
        #expect(NSFetchRequestResultType.managedObjectIDResultType.rawValue == 1)
        #expect(NSFetchRequestResultType.dictionaryResultType.rawValue == 2)
        #expect(NSFetchRequestResultType.countResultType.rawValue == 4)
    }

    @Test func requestDefaults() {
        let request = NSFetchRequest<NSManagedObject>(entityName: "Movie")
        #expect(request.returnsObjectsAsFaults)
        #expect(request.includesPropertyValues)
        #expect(request.includesPendingChanges)
        #expect(request.includesSubentities)
        #expect(request.fetchBatchSize == 0)
        #expect(request.fetchOffset == 0)
        #expect(request.fetchLimit == 0)
        #expect(!request.returnsDistinctResults)
        #expect(request.resultType == .managedObjectResultType)
        #expect(request.predicate == nil)
        #expect(request.sortDescriptors == nil)
    }

    // MARK: Pending changes

    @Test(arguments: storeTypes)
    func unsavedInsertsAppearInFetches(storeType: String) throws {
        let stack = try movieStack(storeType)
        try stack.context.performAndWait { () throws in
            let ronin = ctxInsert("Movie", into: stack.context, ["title": "Ronin", "year": 1998])
            ctxInsert("Movie", into: stack.context, ["title": "Old", "year": 1950])
            let found = try ctxFetch("Movie", in: stack.context, "year > 1990", sortedBy: "year")
            #expect(found.compactMap { $0.value(forKey: "title") as? String } == ["Heat", "Ronin", "Amélie"])
            #expect(found.contains(ronin))
            let count = try stack.context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Movie"))
            #expect(count == 7)

            let request = NSFetchRequest<NSManagedObject>(entityName: "Movie")
            request.includesPendingChanges = false
            request.predicate = NSPredicate(format: "year > 1990")
            #expect(try stack.context.fetch(request).count == 2)
            #expect(try stack.context.count(for: request) == 2)
        }
    }

    @Test(arguments: storeTypes)
    func unsavedDeletesDisappearFromFetches(storeType: String) throws {
        let stack = try movieStack(storeType)
        try stack.context.performAndWait { () throws in
            let heat = try #require(try ctxFetch("Movie", in: stack.context, "title == 'Heat'").first)
            stack.context.delete(heat)
            #expect(try titles(nil, in: stack) == ["Alien", "Aliens", "Amélie", "Blade Runner"])
            #expect(try stack.context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Movie")) == 4)
        }
    }

    @Test(arguments: storeTypes)
    func updatedObjectsAreReevaluated(storeType: String) throws {
        let stack = try movieStack(storeType)
        try stack.context.performAndWait { () throws in
            let heat = try #require(try ctxFetch("Movie", in: stack.context, "title == 'Heat'").first)
            let alien = try #require(try ctxFetch("Movie", in: stack.context, "title == 'Alien'").first)
            // Heat leaves the 1990s, Alien joins them: the store still has the old years.
            heat.setValue(1985, forKey: "year")
            alien.setValue(1999, forKey: "year")
            let found = try ctxFetch("Movie", in: stack.context, "year > 1990", sortedBy: "year")
            #expect(found.compactMap { $0.value(forKey: "title") as? String } == ["Alien", "Amélie"])
        }
    }

    @Test(arguments: storeTypes)
    func pendingChangesRespectSortLimitAndOffset(storeType: String) throws {
        let stack = try movieStack(storeType)
        try stack.context.performAndWait { () throws in
            ctxInsert("Movie", into: stack.context, ["title": "Metropolis", "year": 1927])
            let request = NSFetchRequest<NSManagedObject>(entityName: "Movie")
            request.sortDescriptors = [NSSortDescriptor(key: "year", ascending: true)]
            request.fetchLimit = 2
            #expect(try stack.context.fetch(request).compactMap { $0.value(forKey: "title") as? String } == ["Metropolis", "Alien"])
            request.fetchOffset = 1
            #expect(try stack.context.fetch(request).compactMap { $0.value(forKey: "title") as? String } == ["Alien", "Blade Runner"])
        }
    }

    @Test(arguments: storeTypes)
    func dictionaryResultsReflectTheStoreNotPendingChanges(storeType: String) throws {
        // Apple, NSFetchRequest.includesPendingChanges, Special Considerations: with the
        // dictionary result type the results reflect the current state of the persistent store
        // and take no pending changes, insertions or deletions into account.
        let stack = try movieStack(storeType)
        try stack.context.performAndWait { () throws in
            ctxInsert("Movie", into: stack.context, ["title": "Unsaved", "year": 2020])
            let heat = try #require(try ctxFetch("Movie", in: stack.context, "title == 'Heat'").first)
            stack.context.delete(heat)
            let request = NSFetchRequest<NSDictionary>(entityName: "Movie")
            request.resultType = .dictionaryResultType
            request.propertiesToFetch = ["title"]
            let titles = Set(try stack.context.fetch(request).compactMap { $0["title"] as? String })
            #expect(titles == ["Alien", "Aliens", "Amélie", "Blade Runner", "Heat"])
        }
    }

    @Test(arguments: storeTypes)
    func fetchedObjectsAreFaultsByDefault(storeType: String) throws {
        let stack = try movieStack(storeType)
        try stack.context.performAndWait { () throws in
            let movies = try ctxFetch("Movie", in: stack.context)
            #expect(movies.allSatisfy { $0.isFault })
            #expect(movies.first?.value(forKey: "title") != nil)
            #expect(movies.first?.isFault == false)
        }
    }

    @Test(arguments: storeTypes)
    func withoutPropertyValuesObjectsLoadOnAccess(storeType: String) throws {
        let stack = try movieStack(storeType)
        try stack.context.performAndWait { () throws in
            let request = NSFetchRequest<NSManagedObject>(entityName: "Movie")
            request.includesPropertyValues = false
            request.sortDescriptors = [NSSortDescriptor(key: "year", ascending: true)]
            let movies = try stack.context.fetch(request)
            #expect(movies.count == 5)
            #expect(movies.allSatisfy { $0.isFault })
            #expect(movies.compactMap { $0.value(forKey: "title") as? String } == ["Alien", "Blade Runner", "Aliens", "Heat", "Amélie"])
        }
    }

    @Test(arguments: storeTypes)
    func batchSizeAndPrefetchingDoNotChangeTheResults(storeType: String) throws {
        let stack = try movieStack(storeType)
        try stack.context.performAndWait { () throws in
            let request = NSFetchRequest<NSManagedObject>(entityName: "Movie")
            request.sortDescriptors = [NSSortDescriptor(key: "year", ascending: false)]
            request.fetchBatchSize = 2
            request.relationshipKeyPathsForPrefetching = ["characters"]
            let movies = try stack.context.fetch(request)
            #expect(movies.count == 5)
            #expect(movies.compactMap { $0.value(forKey: "year") as? Int } == [2001, 1995, 1986, 1982, 1979])
            #expect(movies.map { ctxObjects($0.value(forKey: "characters")).count } == [1, 0, 2, 1, 3])
        }
    }

    @Test(arguments: storeTypes)
    func distinctDictionaryResults(storeType: String) throws {
        let stack = try movieStack(storeType)
        try stack.context.performAndWait { () throws in
            let request = NSFetchRequest<NSDictionary>(entityName: "Movie")
            request.resultType = .dictionaryResultType
            request.propertiesToFetch = ["rating"]
            request.returnsDistinctResults = true
            let ratings = try stack.context.fetch(request).compactMap { ($0["rating"] as? NSNumber)?.doubleValue }
            #expect(ratings.count == 4)
            #expect(Set(ratings) == [8.5, 8.4, 8.3, 8.1])
        }
    }

    // MARK: Errors

    @Test(arguments: storeTypes)
    func unknownKeyInAPredicateThrows(storeType: String) throws {
        let stack = try movieStack(storeType)
        stack.context.performAndWait {
            #expect(ctxError { _ = try ctxFetch("Movie", in: stack.context, "director == 'Scott'") } != nil)
            #expect(ctxError { _ = try ctxFetch("Character", in: stack.context, "movie.director == 'Scott'") } != nil)
            let request = NSFetchRequest<NSManagedObject>(entityName: "Movie")
            request.predicate = NSPredicate(format: "director == 'Scott'")
            #expect(ctxError { _ = try stack.context.count(for: request) } != nil)
        }
    }

    @Test(arguments: storeTypes)
    func unknownKeyInAPredicateThrowsWithPendingChanges(storeType: String) throws {
        let stack = try movieStack(storeType)
        stack.context.performAndWait {
            ctxInsert("Movie", into: stack.context, ["title": "Unsaved"])
            #expect(ctxError { _ = try ctxFetch("Movie", in: stack.context, "director == 'Scott'") } != nil)
        }
    }

    @Test(arguments: storeTypes)
    func unknownSortKeyThrows(storeType: String) throws {
        let stack = try movieStack(storeType)
        stack.context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Movie")
            request.sortDescriptors = [NSSortDescriptor(key: "director", ascending: true)]
            #expect(ctxError { _ = try stack.context.fetch(request) } != nil)
        }
    }

    /// Apple's SQLite store refuses a key its entity does not have before reading a row
    /// ("keypath director not found in entity Movie"); every store, the overlay of unsaved
    /// changes, a child context, counts and every result type refuse it with that error, also
    /// when the store has no rows.
    @Test(arguments: storeTypes)
    func unknownKeysFailEveryKindOfFetchOfAnEmptyStore(storeType: String) throws {
        let stack = try CtxStack(model: MovieModel.make(), storeType: storeType)
        let child = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        child.parent = stack.context
        let requests: [(String, String?, String?, String)] = [
            ("Movie", "director == 'Scott'", nil, "director"),
            ("Character", "movie.director == 'Scott'", nil, "movie.director"),
            ("Character", "ANY movie.characters.alias == 'Ash'", nil, "movie.characters.alias"),
            ("Movie", "SELF.title == 'Alien' OR (year > 1 AND uppercase(studio) == 'FOX')", nil, "studio"),
            ("Movie", nil, "director", "director"),
            ("Character", nil, "movie.director", "movie.director"),
        ]
        for (entityName, format, sortKey, unknownKey) in requests {
            let message = "keypath \(unknownKey) not found in entity \(entityName)"
            for context in [stack.context, child] {
                context.performAndWait {
                    for resultType in [NSFetchRequestResultType.managedObjectResultType, .managedObjectIDResultType, .dictionaryResultType, .countResultType] {
                        let request = NSFetchRequest<NSFetchRequestResult>(entityName: entityName)
                        request.predicate = format.map { NSPredicate(format: $0) }
                        request.sortDescriptors = sortKey.map { [NSSortDescriptor(key: $0, ascending: true)] }
                        request.resultType = resultType
                        let error = ctxError { _ = try context.fetch(request) }
                        #expect(error?.code == NSCoreDataError, "\(entityName) \(format ?? sortKey ?? "") \(resultType.rawValue)")
                        #expect(error?.explanation == message)
                        #expect(ctxError { _ = try context.count(for: request) }?.explanation == message)
                    }
                }
            }
            stack.context.performAndWait {
                ctxInsert("Movie", into: stack.context, ["title": "Unsaved"])
                let request = NSFetchRequest<NSManagedObject>(entityName: entityName)
                request.predicate = format.map { NSPredicate(format: $0) }
                request.sortDescriptors = sortKey.map { [NSSortDescriptor(key: $0, ascending: true)] }
                #expect(ctxError { _ = try stack.context.fetch(request) }?.explanation == message, "with unsaved changes")
                stack.context.rollback()
            }
        }
    }

    /// A variable as a key path component (`SELF.$key`) becomes that key when a string is
    /// substituted for it, so every store fetches with it; a relational store's fetch refuses it
    /// unsubstituted, naming the variable.
    @Test(arguments: storeTypes)
    func variableKeysSubstitutedBeforeFetching(storeType: String) throws {
        let stack = try movieStack(storeType)
        let template = NSPredicate(format: "SELF.$key == %@", "Ripley")
        let substituted = template.withSubstitutionVariables(["key": "movie.title"])
        #expect(substituted.predicateFormat == #"SELF.movie.title == "Ripley""#)
        let names = try stack.context.performAndWait { () throws in
            let request = NSFetchRequest<NSManagedObject>(entityName: "Character")
            request.predicate = template.withSubstitutionVariables(["key": "name"])
            return try stack.context.fetch(request).compactMap { $0.value(forKey: "name") as? String }
        }
        #expect(names == ["Ripley", "Ripley"])
        if storeType != NSInMemoryStoreType {
            let error = stack.context.performAndWait { ctxError { _ = try ctxFetch("Character", in: stack.context, "SELF.$key == 'Ripley'") } }
            #expect(error?.explanation.contains("$key") == true)
        }
    }

    /// The check stops where a key path reaches an attribute: what follows reads the value, as
    /// evaluation in memory reads a string's `length`.
    @Test func keysAfterAnAttributeReadTheValueInMemory() throws {
        let stack = try movieStack(NSInMemoryStoreType)
        #expect(try titles("title.length == 4", in: stack) == ["Heat"])
        #expect(try titles("SELF.title.length == 4 AND self.year == 1995", in: stack) == ["Heat"])
    }

    @Test(arguments: storeTypes)
    func invalidPredicateFormatThrows(storeType: String) throws {
        let stack = try movieStack(storeType)
        stack.context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Movie")
            request.predicate = NSPredicate(format: "title == == 'x'")
            #expect(ctxError { _ = try stack.context.fetch(request) } != nil)
            #expect(ctxError { _ = try stack.context.count(for: request) } != nil)
        }
    }

    @Test(arguments: storeTypes)
    func unknownEntityNameThrows(storeType: String) throws {
        let stack = try movieStack(storeType)
        stack.context.performAndWait {
            let error = ctxError { _ = try stack.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Director")) }
            #expect(error != nil)
            #expect(error?.domain == NSCocoaErrorDomain)
            #expect(ctxError { _ = try stack.context.fetch(NSFetchRequest<NSManagedObject>()) } != nil)
        }
    }

    @Test func aContextWithoutACoordinatorThrows() {
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.performAndWait {
            #expect(ctxError { _ = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Movie")) } != nil)
        }
    }
}
