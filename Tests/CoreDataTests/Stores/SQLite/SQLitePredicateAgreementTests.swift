@testable import CoreData
import Testing

/// A SQLite fetch must answer what the in-memory store and `evaluate(with:)` answer for the same
/// objects, except where Apple's SQLite store deliberately differs (`!=` never matches NULL, and
/// to-many key paths need `ANY`, `ALL` or `NONE`). Each case here once disagreed or trapped.
@Suite struct SQLitePredicateAgreementTests {
    /// | title           | year | rating | characters (actor)          |
    /// |-----------------|------|--------|-----------------------------|
    /// | Alien           | 1979 | 8.5    | Ripley (Weaver), Ash, Dallas|
    /// | Aliens          | 1986 | 8.4    | Ripley (Weaver), Hicks      |
    /// | Amélie          | 2001 | 8.3    | Amélie                      |
    /// | Blade Runner    | 1982 | 8.1    | Deckard                     |
    /// | Heat            | 1995 | nil    |                             |
    /// | Nul\0Byte       | nil  | 7.0    |                             |
    /// | Ab\u{10FFFF}z   | nil  | nil    |                             |
    private static let rows: [(title: String, year: Int?, rating: Double?, characters: [String])] = [
        ("Alien", 1979, 8.5, ["Ripley", "Ash", "Dallas"]),
        ("Aliens", 1986, 8.4, ["Ripley", "Hicks"]),
        ("Amélie", 2001, 8.3, ["Amélie"]),
        ("Blade Runner", 1982, 8.1, ["Deckard"]),
        ("Heat", 1995, nil, []),
        ("Nul\u{0}Byte", nil, 7.0, []),
        ("Ab\u{10FFFF}z", nil, nil, []),
    ]

    private static func stack(_ storeType: String) throws -> CtxStack {
        let stack = try CtxStack(model: MovieModel.make(), storeType: storeType)
        try stack.context.performAndWait { () throws in
            let weaver = ctxInsert("Actor", into: stack.context, ["name": "Sigourney Weaver"])
            for row in rows {
                let movie = ctxInsert("Movie", into: stack.context, ["title": row.title])
                if row.title == "Alien" { movie.setValue(Date(timeIntervalSinceReferenceDate: 1979), forKey: "released") }
                if let year = row.year { movie.setValue(year, forKey: "year") }
                if let rating = row.rating { movie.setValue(rating, forKey: "rating") }
                for name in row.characters {
                    let character = ctxInsert("Character", into: stack.context, ["name": name, "movie": movie])
                    if name == "Ripley" { character.setValue(weaver, forKey: "actor") }
                }
            }
            try stack.context.save()
        }
        return storeType == NSSQLiteStoreType ? try stack.reopened() : stack
    }

    /// The sorted titles each way of filtering gives: a SQLite fetch, an in-memory store fetch,
    /// and `evaluate(with:)` over every movie.
    private static func answers(_ format: String, _ arguments: [Any] = []) throws -> (sqlite: [String], inMemory: [String], evaluated: [String]) {
        let predicate = NSPredicate(format: format, argumentArray: arguments)
        let sqlite = try titles(in: stack(NSSQLiteStoreType), predicate)
        let memory = try stack(NSInMemoryStoreType)
        let inMemory = try titles(in: memory, predicate)
        let evaluated = try memory.context.performAndWait { () throws in
            try ctxFetch("Movie", in: memory.context).filter { predicate.evaluate(with: $0) }.map(title).sorted()
        }
        return (sqlite, inMemory, evaluated)
    }

    private static func titles(in stack: CtxStack, _ predicate: NSPredicate) throws -> [String] {
        try stack.context.performAndWait { () throws in
            let request = NSFetchRequest<NSManagedObject>(entityName: "Movie")
            request.predicate = predicate
            return try stack.context.fetch(request).map(title).sorted()
        }
    }

    private static func title(_ movie: NSManagedObject) -> String {
        movie.value(forKey: "title") as? String ?? ""
    }

    private static func sqliteFetchError(_ format: String, _ arguments: [Any] = [], entity: String = "Movie", sortedBy key: String? = nil) throws -> NSError? {
        let stack = try stack(NSSQLiteStoreType)
        return stack.context.performAndWait {
            ctxError {
                let request = NSFetchRequest<NSManagedObject>(entityName: entity)
                request.predicate = NSPredicate(format: format, argumentArray: arguments)
                request.sortDescriptors = key.map { [NSSortDescriptor(key: $0, ascending: true)] }
                _ = try stack.context.fetch(request)
            }
        }
    }

    // MARK: Agreement

    @Test(arguments: [
        // Numbers bind as what they are, not converted to the column's type.
        ("year == 1979.5", []),
        ("year < 1979.5", ["Alien"]),
        ("year IN {1979.5, 1986}", ["Aliens"]),
        // A constant of another kind than the attribute's values is never equal to them.
        ("year == 'Alien'", []),
        ("title == 3", []),
        ("title IN {3, 'Heat'}", ["Heat"]),
        // Nil in an IN list matches nil values, also under NOT.
        ("year IN {1979, nil}", ["Ab\u{10FFFF}z", "Alien", "Nul\u{0}Byte"]),
        ("NOT (year IN {1979, nil})", ["Aliens", "Amélie", "Blade Runner", "Heat"]),
        // [n] supersedes [c] and [d]: a literal comparison.
        ("title ==[cn] 'alien'", []),
        ("title BEGINSWITH[cdn] 'ALI'", []),
        // A constant on the left of IN is searched for in the attribute.
        ("'Alien' IN title", ["Alien", "Aliens"]),
        ("'Aliens and more' CONTAINS title", ["Alien", "Aliens"]),
        // Strings with a NUL character reach the string functions whole.
        ("title CONTAINS 'Byte'", ["Nul\u{0}Byte"]),
        ("title ENDSWITH[c] 'BYTE'", ["Nul\u{0}Byte"]),
        // BEGINSWITH without options is a range that must include U+10FFFF after the prefix.
        ("title BEGINSWITH 'Ab'", ["Ab\u{10FFFF}z"]),
        // Options of a comparison between two constants are kept.
        ("'a' ==[c] 'A' AND year == 1982", ["Blade Runner"]),
        // BETWEEN honours string options, and nil bounds order only against nil.
        ("title BETWEEN[c] {'a', 'b'}", ["Ab\u{10FFFF}z", "Alien", "Aliens", "Amélie"]),
        ("rating BETWEEN {nil, nil}", ["Ab\u{10FFFF}z", "Heat"]),
        ("rating BETWEEN {nil, 9}", []),
        // ALL is false when the condition is nil for one destination.
        ("ALL characters.actor.name == 'Sigourney Weaver'", ["Ab\u{10FFFF}z", "Heat", "Nul\u{0}Byte"]),
        // ANY and ALL quantify their left side, here a constant; nil is an empty collection.
        ("ANY nil == title", []),
        ("ALL nil == title AND year == 1979", ["Alien"]),
        ("ANY {'Heat', 'Alien'} == title", ["Alien", "Heat"]),
        ("ANY {1980, 1987} == year + 1", ["Alien", "Aliens"]),
        ("ALL {1980, 1980} == year + 1", ["Alien"]),
        ("NOT (ALL {1980, 1981} < year + 1) AND year != nil", ["Alien"]),
        // Attributes of different kinds are never equal (Alien's release date is 1979 seconds).
        ("released == year AND year != nil", []),
        // Arithmetic: integers stay integers (1979 / 2 is 989), dividing by zero gives 0, nil
        // propagates, and constant parts are computed once.
        ("year + 1 == 1980", ["Alien"]),
        ("year * 2 > 3980", ["Amélie", "Heat"]),
        ("year / 2 == 989", ["Alien"]),
        ("year / 0 == 0", ["Alien", "Aliens", "Amélie", "Blade Runner", "Heat"]),
        ("(year + 1) / 0 == 0", ["Alien", "Aliens", "Amélie", "Blade Runner", "Heat"]),
        ("rating / 0 > 1000", ["Alien", "Aliens", "Amélie", "Blade Runner", "Nul\u{0}Byte"]),
        ("characters.@count / 0 == 0", ["Ab\u{10FFFF}z", "Alien", "Aliens", "Amélie", "Blade Runner", "Heat", "Nul\u{0}Byte"]),
        ("year + 1 == nil", ["Ab\u{10FFFF}z", "Nul\u{0}Byte"]),
        ("rating * 10 >= 84", ["Alien", "Aliens"]),
        ("rating > year / 250", ["Alien", "Aliens", "Amélie", "Blade Runner"]),
        ("modulus:by:(year, 2) == 1", ["Alien", "Amélie", "Heat"]),
        // Divisors computed per row: by zero, integers give 0 and real numbers an infinity.
        ("year / (year - 1979) == 0", ["Alien"]),
        ("modulus:by:(year, year - 1979) == 0", ["Alien"]),
        ("rating / (year - 1979) > 1000", ["Alien"]),
        ("year / (year - 1900) == 24", ["Blade Runner"]),
        ("(year + 1) / ((year - 1900) / 10) == 248", ["Aliens"]),
        // SQL writes parentheses only where SQLite's precedence needs them.
        ("year - (year - 1) == 1", ["Alien", "Aliens", "Amélie", "Blade Runner", "Heat"]),
        ("year - year - 1 == -1", ["Alien", "Aliens", "Amélie", "Blade Runner", "Heat"]),
        ("year / (2 * 2) == 494", ["Alien"]),
        ("year / 2 * 2 == 1978", ["Alien"]),
        ("(year - 1900) * (year - 1900) == 6241", ["Alien"]),
        ("(year & 3) << 1 == 6", ["Alien", "Heat"]),
        ("year - (year & 1) == 1978", ["Alien"]),
        ("year & 1 == 1", ["Alien", "Amélie", "Heat"]),
        ("-year < -1990", ["Amélie", "Heat"]),
        ("abs(year - 2000) <= 5", ["Amélie", "Heat"]),
        ("year == 1970 + 9", ["Alien"]),
        ("year == sum({1970, 9})", ["Alien"]),
        ("noindex(year) == 1986", ["Aliens"]),
        ("released < now()", ["Alien"]),
        ("released + 1 == CAST(1980, 'NSDate')", ["Alien"]),
        // Counts of to-many relationships and subqueries.
        ("SUBQUERY(characters, $c, $c.name BEGINSWITH 'R').@count == 1", ["Alien", "Aliens"]),
        ("SUBQUERY(characters, $c, $c.actor != nil AND $c.movie.year < 1980).@count > 0", ["Alien"]),
        ("SUBQUERY(characters, $c, $c.name == 'Hicks')[SIZE] == 0", ["Ab\u{10FFFF}z", "Alien", "Amélie", "Blade Runner", "Heat", "Nul\u{0}Byte"]),
        ("characters[SIZE] == 2", ["Aliens"]),
    ] as [(String, [String])])
    func sqliteFetchesAgreeWithEvaluation(format: String, expected: [String]) throws {
        let answers = try Self.answers(format)
        #expect(answers.sqlite == expected, "SQLite: \(format)")
        #expect(answers.inMemory == expected, "in-memory store: \(format)")
        #expect(answers.evaluated == expected, "evaluate(with:): \(format)")
    }

    @Test func prefixesDecidedOnASCIIBytesAgreeWithFolding() throws {
        let titles = ["cafe\u{301}", "Cafe", "CAFEs", "ca", "caf", "Straße", "STRASSE", "\u{212A}elvin", "kelvin", "Kel", "ab\u{0}c"]
        let stack = try CtxStack(model: MovieModel.make())
        try stack.context.performAndWait { () throws in
            for title in titles { ctxInsert("Movie", into: stack.context, ["title": title]) }
            try stack.context.save()
        }
        let reopened = try stack.reopened()
        for format in ["title BEGINSWITH[c] 'cafe'", "title BEGINSWITH[cd] 'CAFE'", "title BEGINSWITH[d] 'Cafe'", "title BEGINSWITH[c] 'strass'",
                       "title BEGINSWITH[c] 'kel'", "title BEGINSWITH[c] 'AB'", "title BEGINSWITH[c] 'caf'"] {
            let predicate = NSPredicate(format: format)
            let fetched = try Self.titles(in: reopened, predicate)
            let evaluated = titles.filter { predicate.evaluate(with: ["title": $0]) }.sorted()
            #expect(fetched == evaluated, "\(format)")
        }
    }

    @Test func objectsOfAnotherEntityMatchNoRow() throws {
        for storeType in [NSSQLiteStoreType, NSInMemoryStoreType] {
            let stack = try Self.stack(storeType)
            try stack.context.performAndWait { () throws in
                let actor = try #require(ctxFetch("Actor", in: stack.context).first)
                let characters = try ctxFetch("Character", in: stack.context, "movie == %@", [actor])
                #expect(characters.isEmpty, "\(storeType): a Movie key compared with an Actor")
                let movies = try ctxFetch("Movie", in: stack.context, "SELF IN %@", [[actor]])
                #expect(movies.isEmpty, "\(storeType): SELF compared with an Actor")
            }
        }
    }

    @Test func membershipInAToManyRelationshipIsOfOneObject() throws {
        for storeType in [NSSQLiteStoreType, NSInMemoryStoreType] {
            let stack = try Self.stack(storeType)
            try stack.context.performAndWait { () throws in
                let characters = try ctxFetch("Character", in: stack.context, "name IN {'Ash', 'Deckard'}", sortedBy: "name")
                let one = try ctxFetch("Movie", in: stack.context, "%@ IN characters", [characters[0]])
                #expect(one.map(Self.title) == ["Alien"], "\(storeType)")
                let collection = try ctxFetch("Movie", in: stack.context, "%@ IN characters", [characters])
                #expect(collection.isEmpty, "\(storeType): an array is not a member")
                let contained = try ctxFetch("Movie", in: stack.context, "characters CONTAINS %@", [characters[1]])
                #expect(contained.map(Self.title) == ["Blade Runner"], "\(storeType)")
            }
        }
    }

    @Test func aKeyReadFromEachElementOfASetHasNoRepeats() throws {
        let stack = try Self.stack(NSInMemoryStoreType)
        let predicate = NSPredicate(format: "characters.movie.@count == 1")
        #expect(try Self.titles(in: stack, predicate) == ["Aliens", "Alien", "Amélie", "Blade Runner"].sorted())
    }

    @Test func aLongOrChainCompilesWithinSQLiteLimits() throws {
        let format = (0..<2000).map { "year == \($0)" }.joined(separator: " OR ")
        let answers = try Self.answers(format)
        #expect(answers.sqlite == ["Alien", "Aliens", "Blade Runner", "Heat"])
        #expect(answers.sqlite == answers.inMemory)
    }

    @Test func predicatesBuiltOneSubpredicateAtATimeCompile() throws {
        let stack = try Self.stack(NSSQLiteStoreType)
        var predicate = NSPredicate(format: "year > 1900")
        for year in 1950..<2250 where year != 1979 {
            predicate = NSCompoundPredicate(andPredicateWithSubpredicates: [predicate, NSPredicate(format: "year != %d", year)])
        }
        #expect(try Self.titles(in: stack, predicate) == ["Alien"])
    }

    @Test func negationsOfSeveralNoneAndNestedOperandsAgree() throws {
        let alien = NSPredicate(format: "title == 'Alien'")
        let allButAlien = ["Ab\u{10FFFF}z", "Aliens", "Amélie", "Blade Runner", "Heat", "Nul\u{0}Byte"]
        var negated: NSPredicate = alien
        for _ in 0..<151 { negated = NSCompoundPredicate(notPredicateWithSubpredicate: negated) }
        let predicates: [(NSPredicate, [String])] = [
            (negated, allButAlien),
            (NSCompoundPredicate(type: .not, subpredicates: [alien, NSPredicate(format: "rating > 8")]), allButAlien),
            (NSCompoundPredicate(type: .not, subpredicates: []), []),
        ]
        let sqlite = try Self.stack(NSSQLiteStoreType)
        let memory = try Self.stack(NSInMemoryStoreType)
        for (predicate, expected) in predicates {
            #expect(try Self.titles(in: sqlite, predicate) == expected, "\(predicate)")
            #expect(try Self.titles(in: memory, predicate) == expected, "\(predicate)")
        }
    }

    // MARK: Apple's SQLite store refuses these

    @Test(arguments: [
        "characters.name == 'Ripley'",
        "characters == nil",
        "ANY characters.actor.roles.name == 'Ripley'",
        "title < 3",
        "year BEGINSWITH '19'",
        "rating CONTAINS 8",
        "sqrt(year) > 44",
        "FUNCTION(title, 'uppercaseString') == 'ALIEN'",
        "TERNARY(year > 1990, 1, 0) == 1",
        "{title} UNION {'Heat'} CONTAINS 'Heat'",
        "year < random(3000)",
        "modulus:by:(rating, 2) == 1",
        "ANYKEY == 'Alien'",
        "SUBQUERY(characters, $c, title == 'Alien').@count > 0",
        "title hasPrefix: 'Ali'",
    ])
    func sqliteRefusesWhatItCannotCompileFaithfully(format: String) throws {
        let error = try #require(try Self.sqliteFetchError(format), "\(format)")
        #expect(error.domain == NSCocoaErrorDomain)
        #expect(error.code == NSCoreDataError)
    }

    @Test func blockPredicatesRunInTheInMemoryStoreAndAreRefusedBySQLite() throws {
        let block = NSPredicate { object, _ in ((object as? NSManagedObject)?.value(forKey: "year") as? Int ?? 0) > 1990 }
        #expect(try Self.titles(in: Self.stack(NSInMemoryStoreType), block) == ["Amélie", "Heat"])
        let sqlite = try Self.stack(NSSQLiteStoreType)
        let error = sqlite.context.performAndWait {
            ctxError {
                let request = NSFetchRequest<NSManagedObject>(entityName: "Movie")
                request.predicate = block
                _ = try sqlite.context.fetch(request)
            }
        }
        #expect(error?.explanation.contains("block predicate") == true)
    }

    @Test func sortingByAToOneRelationshipIsRefused() throws {
        let error = try #require(try Self.sqliteFetchError("TRUEPREDICATE", entity: "Character", sortedBy: "movie"))
        #expect(error.code == NSCoreDataError)
        #expect(error.explanation.contains("relationship"))
    }

    @Test func inMemoryEvaluationErrorsAreCoreDataErrors() throws {
        let stack = try Self.stack(NSInMemoryStoreType)
        let error = try #require(stack.context.performAndWait {
            ctxError { _ = try ctxFetch("Movie", in: stack.context, "title < 3") }
        })
        #expect(error.domain == NSCocoaErrorDomain)
        #expect(error.code == NSCoreDataError)
        #expect(error.localizedDescription.contains("cannot compare"))
    }

    @Test func thePrefixUpperBoundSkipsSurrogatesAndCarries() {
        #expect(SQLPredicateCompiler.upperBound(ofPrefix: "ab") == "ac")
        #expect(SQLPredicateCompiler.upperBound(ofPrefix: "a\u{D7FF}") == "a\u{E000}")
        #expect(SQLPredicateCompiler.upperBound(ofPrefix: "a\u{10FFFF}") == "b")
        #expect(SQLPredicateCompiler.upperBound(ofPrefix: "\u{10FFFF}") == nil)
    }
}
