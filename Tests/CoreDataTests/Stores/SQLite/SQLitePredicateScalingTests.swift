@testable import CoreData
import Testing

/// The SQL of a predicate grows linearly with the predicate, and has a shape SQLite prepares in
/// time linear in its size, so that no predicate a program builds can exhaust memory or stall a
/// fetch (issue 18, defects 1 and 7). Nothing here measures time: the tests check the shape that
/// makes it so, and that the answers stay those of memory.
@Suite struct SQLitePredicateScalingTests {
    /// Forty movies, `M1970` to `M2009`, whose `year` is in their title and whose `rating` is the
    /// last digit of the year plus 0.5.
    static let years = 1970..<2010

    private static func stack(_ storeType: String, years: Range<Int> = years) throws -> CtxStack {
        let stack = try CtxStack(model: MovieModel.make(), storeType: storeType)
        try stack.context.performAndWait { () throws in
            for year in years {
                ctxInsert("Movie", into: stack.context, ["title": "M\(year)", "year": year, "rating": Double(year % 10) + 0.5])
            }
            try stack.context.save()
        }
        return storeType == NSSQLiteStoreType ? try stack.reopened() : stack
    }

    /// The sorted years a SQLite fetch, an in-memory store fetch and `evaluate(with:)` give.
    private static func answers(_ predicate: NSPredicate) throws -> (sqlite: [Int], inMemory: [Int], evaluated: [Int]) {
        let memory = try stack(NSInMemoryStoreType)
        let evaluated = try memory.context.performAndWait { () throws in
            try ctxFetch("Movie", in: memory.context).filter { predicate.evaluate(with: $0) }.map(year).sorted()
        }
        return (try fetchedYears(in: stack(NSSQLiteStoreType), predicate), try fetchedYears(in: memory, predicate), evaluated)
    }

    private static func fetchedYears(in stack: CtxStack, _ predicate: NSPredicate) throws -> [Int] {
        try stack.context.performAndWait { () throws in
            let request = NSFetchRequest<NSManagedObject>(entityName: "Movie")
            request.predicate = predicate
            return try stack.context.fetch(request).map(year).sorted()
        }
    }

    private static func year(_ movie: NSManagedObject) -> Int {
        movie.value(forKey: "year") as? Int ?? 0
    }

    /// The WHERE condition the SQLite store compiles for a predicate over movies.
    private static func condition(_ predicate: NSPredicate) throws -> SQLFragment {
        let stack = try CtxStack(model: MovieModel.make())
        let store = try #require(stack.store as? SQLiteStore)
        var compiler = SQLPredicateCompiler(schema: try #require(store.schema), store: store, dialect: .sqlite)
        let movie = try #require(stack.model.entitiesByName["Movie"])
        return try compiler.compile(predicate.node, in: SQLScope(entity: movie, alias: "t0"))
    }

    // MARK: Division and modulus

    /// `key / 1 / 1 / … / last`: `count` divisions (or `modulus:by:`) nested as a format string
    /// nests them, the first on the inside.
    private static func chain(_ selector: String, of key: String, count: Int, last: Int) -> NSExpression {
        var expression = NSExpression(forKeyPath: key)
        for index in 1...count {
            let divisor = index == count ? last : (selector == "divide:by:" ? 1 : 10_000)
            expression = NSExpression(forFunction: selector, arguments: [expression, NSExpression(forConstantValue: divisor)])
        }
        return expression
    }

    private static func comparison(_ left: NSExpression, _ type: NSComparisonPredicate.Operator, _ right: Any) -> NSPredicate {
        NSComparisonPredicate(leftExpression: left, rightExpression: NSExpression(forConstantValue: right), modifier: .direct, type: type)
    }

    /// A chain of divisions (or of `modulus:by:`) compared with a value, and the years it matches.
    struct DivisionChain: Sendable, CustomTestStringConvertible {
        let selector: String
        let key: String
        let last: Int
        let type: NSComparisonPredicate.Operator
        let value: Int
        let expected: [Int]

        var testDescription: String { "\(key) \(selector) … \(last)" }

        func predicate(count: Int) -> NSPredicate {
            SQLitePredicateScalingTests.comparison(SQLitePredicateScalingTests.chain(selector, of: key, count: count, last: last), type, value)
        }

        static let all = [
            // 1988 / 2 and 1989 / 2 are 994 in integers; odd years; ratings 8.5 and 9.5 halve to more than 4.
            DivisionChain(selector: "divide:by:", key: "year", last: 2, type: .equalTo, value: 994, expected: [1988, 1989]),
            DivisionChain(selector: "modulus:by:", key: "year", last: 2, type: .equalTo, value: 1, expected: SQLitePredicateScalingTests.years.filter { $0 % 2 == 1 }),
            DivisionChain(selector: "divide:by:", key: "rating", last: 2, type: .greaterThan, value: 4, expected: SQLitePredicateScalingTests.years.filter { $0 % 10 >= 8 }),
        ]
    }

    /// Requires the SQL of a chain of 20 divisions to be about twice as long as that of 10, with
    /// each operand bound once, before anything compiles a longer chain: SQL that doubled with
    /// each division would take all memory at 60.
    private static func requireLinearSQL(_ predicate: (Int) -> NSPredicate) throws {
        let ten = try condition(predicate(10))
        let twenty = try condition(predicate(20))
        try #require(Double(twenty.sql.count) / Double(ten.sql.count) < 2.1, "\(twenty.sql.count) characters against \(ten.sql.count)")
        #expect(twenty.bindings.count == 21)
    }

    @Test(arguments: DivisionChain.all)
    func chainsOfDivisionsWriteEachOperandOnce(_ chain: DivisionChain) throws {
        try Self.requireLinearSQL { chain.predicate(count: $0) }
        let answers = try Self.answers(chain.predicate(count: 60))
        #expect(answers.sqlite == chain.expected)
        #expect(answers.inMemory == chain.expected)
        #expect(answers.evaluated == chain.expected)
    }

    @Test func theIssuesDivisionChainFetchesWhatMemoryFinds() throws {
        // `year > year / 1 / … / 1 - 1` holds for every positive year.
        func predicate(divisions: Int) -> NSPredicate {
            let divided = Self.chain("divide:by:", of: "year", count: divisions, last: 1)
            let lessOne = NSExpression(forFunction: "from:subtract:", arguments: [divided, NSExpression(forConstantValue: 1)])
            return NSComparisonPredicate(leftExpression: NSExpression(forKeyPath: "year"), rightExpression: lessOne, modifier: .direct, type: .greaterThan)
        }
        try Self.requireLinearSQL(predicate)
        let answers = try Self.answers(predicate(divisions: 60))
        #expect(answers.sqlite == Array(Self.years))
        #expect(answers.sqlite == answers.evaluated)
    }

    @Test func divisionsByZeroKeepTheSignOfTheDivisor() throws {
        // Memory divides by a negative zero into a negative infinity.
        let predicate = NSPredicate(format: "year / %@ < -1000", NSNumber(value: -0.0))
        let answers = try Self.answers(predicate)
        #expect(answers.evaluated == Array(Self.years))
        #expect(answers.sqlite == answers.evaluated)
        #expect(answers.inMemory == answers.evaluated)
    }

    // MARK: Long chains

    /// One of four kinds of comparison. In an AND chain they leave out the years 1970 to 1989
    /// and hold for the others; in an OR chain they hold for those years only.
    private static func term(_ index: Int, in type: NSCompoundPredicate.LogicalType) -> NSPredicate {
        let isAnd = type == .and
        let equality: NSComparisonPredicate.Operator = isAnd ? .notEqualTo : .equalTo
        let year = 1970 + (index / 4) % 20
        switch index % 4 {
        case 0: return comparison(NSExpression(forKeyPath: "year"), equality, year)
        case 1: return comparison(NSExpression(forKeyPath: "title"), equality, isAnd ? "X\(index)" : "M\(year)")
        case 2: return comparison(NSExpression(forKeyPath: "rating"), equality, isAnd ? Double(index) + 0.25 : 100.5)
        default:
            let sum = NSExpression(forFunction: "add:to:", arguments: [NSExpression(forKeyPath: "year"), NSExpression(forConstantValue: index)])
            return comparison(sum, isAnd ? .greaterThan : .lessThan, 1000)
        }
    }

    /// How many terms SQLite's planner weighs in a WHERE condition: the operands of its
    /// top-level ANDs and ORs, leaving out groups written `+(…)`, which SQLite takes as one value.
    private static func termsVisibleToThePlanner(_ sql: String) -> Int {
        var opened: [Bool] = []
        var separators = 0
        var previous: Character = " "
        var remaining = Substring(sql)
        while let character = remaining.first {
            if character == "(" { opened.append(previous == "+") }
            if character == ")" { _ = opened.popLast() }
            if !opened.contains(true), remaining.hasPrefix(" AND ") || remaining.hasPrefix(" OR ") { separators += 1 }
            previous = character
            remaining = remaining.dropFirst()
        }
        return separators + 1
    }

    @Test(arguments: [NSCompoundPredicate.LogicalType.and, .or])
    func longChainsAreGroupedSoThatSQLitePlansThemInLinearTime(_ type: NSCompoundPredicate.LogicalType) throws {
        let terms = (0..<1_000).map { Self.term($0, in: type) }
        let chain = NSCompoundPredicate(type: type, subpredicates: terms)
        let condition = try Self.condition(chain)
        // SQLite's planner spends time quadratic in the terms it weighs against each other.
        #expect(Self.termsVisibleToThePlanner(condition.sql) <= 64)
        // SQLite compares each constant it computes once per statement with every constant
        // before it, unless the constant is the result of a function.
        #expect(condition.sql.components(separatedBy: "?").count - 1 == condition.bindings.count)
        #expect(condition.sql.components(separatedBy: "nullif(?, NULL)").count - 1 == condition.bindings.count)

        let expected = type == .and ? Array(1990..<2010) : Array(1970..<1990)
        let answers = try Self.answers(chain)
        #expect(answers.sqlite == expected)
        #expect(answers.inMemory == expected)
        #expect(answers.evaluated == expected)
    }

    @Test func aComputedValueComparedWithEachConstantIsWrittenOnce() throws {
        let predicate = NSPredicate(format: "ANY {1980, 1987, 1990, 2000} == year + 1")
        let condition = try Self.condition(predicate)
        #expect(condition.sql.components(separatedBy: "ZYEAR").count == 2, "\(condition.sql)")
        let answers = try Self.answers(predicate)
        #expect(answers.sqlite == [1979, 1986, 1989, 1999])
        #expect(answers.sqlite == answers.evaluated)
        #expect(answers.inMemory == answers.evaluated)
    }

    @Test func anOrOfEqualitiesOfOneKeyPathIsOneInThatSQLiteCanServeWithAnIndex() throws {
        let years = (0..<1_000).map { Self.comparison(NSExpression(forKeyPath: "year"), .equalTo, 1000 + 2 * $0) }
        let predicate = NSCompoundPredicate(orPredicateWithSubpredicates: years + [NSPredicate(format: "title == 'M1971' OR year == nil")])
        let condition = try Self.condition(predicate)
        let terms = Self.termsVisibleToThePlanner(condition.sql)
        #expect(terms == 3)
        let startsWithIn = condition.sql.hasPrefix("((t0.ZYEAR IN (nullif(?, NULL), ")
        #expect(startsWithIn)
        let answers = try Self.answers(predicate)
        #expect(answers.sqlite == ([1971] + Self.years.filter { $0.isMultiple(of: 2) }).sorted())
        #expect(answers.sqlite == answers.evaluated)
        #expect(answers.inMemory == answers.evaluated)
    }

    @Test func chainsOfFewTermsStayTermsSQLiteCanServeWithAnIndex() throws {
        let terms = (0..<10).map { Self.term($0, in: .and) }
        let condition = try Self.condition(NSCompoundPredicate(andPredicateWithSubpredicates: terms))
        #expect(Self.termsVisibleToThePlanner(condition.sql) == 10)
        #expect(!condition.sql.contains("+("))
    }

    @Test func aHundredThousandTermChainIsAnsweredOrRefusedWithoutOverflowingTheStack() throws {
        let hasYear = Self.comparison(NSExpression(forKeyPath: "year"), .notEqualTo, NSNull())
        let flat = NSCompoundPredicate(andPredicateWithSubpredicates: Array(repeating: hasYear, count: 100_000))
        let few = 1979..<1981
        let stacks = [try Self.stack(NSSQLiteStoreType, years: few), try Self.stack(NSInMemoryStoreType, years: few)]
        for stack in stacks {
            #expect(try Self.fetchedYears(in: stack, flat) == Array(few), "\(stack.storeType)")
        }

        // Built one subpredicate at a time, a chain nests deeper than predicates may.
        var nested: NSPredicate = hasYear
        for _ in 1..<100_000 { nested = NSCompoundPredicate(andPredicateWithSubpredicates: [nested, hasYear]) }
        #expect(nested.parseError?.code == CocoaError.Code.formatting.rawValue)
        #expect(!nested.evaluate(with: ["year": 1979]))
        for stack in stacks {
            let error = ctxError { _ = try Self.fetchedYears(in: stack, nested) }
            #expect(error?.code == CocoaError.Code.formatting.rawValue, "\(stack.storeType)")
        }
    }

    /// Prints how long SQLite fetches of long chains take, for looking at by hand
    /// (`COREDATA_MEASURE_CHAINS=1 swift test --filter SQLitePredicateScalingTests`); it checks
    /// the answers, never the times. A chain of `!=` nil binds no value; the others bind one or
    /// two values a term, and SQLite refuses statements binding more values than its build allows
    /// (32,766 unless built otherwise).
    @Test(.enabled(if: ProcessInfo.processInfo.environment["COREDATA_MEASURE_CHAINS"] != nil))
    func measureLongChains() throws {
        let sqlite = try Self.stack(NSSQLiteStoreType)
        let hasYear = Self.comparison(NSExpression(forKeyPath: "year"), .notEqualTo, NSNull())
        for count in [2_500, 5_000, 10_000, 20_000, 40_000, 100_000] {
            let chains: [(String, NSPredicate, [Int])] = [
                ("AND of != nil", NSCompoundPredicate(andPredicateWithSubpredicates: Array(repeating: hasYear, count: count)), Array(Self.years)),
                ("AND", NSCompoundPredicate(andPredicateWithSubpredicates: (0..<count).map { Self.term($0, in: .and) }), Array(1990..<2010)),
                ("OR", NSCompoundPredicate(orPredicateWithSubpredicates: (0..<count).map { Self.term($0, in: .or) }), Array(1970..<1990)),
            ]
            for (name, chain, expected) in chains {
                let start = Date()
                do {
                    #expect(try Self.fetchedYears(in: sqlite, chain) == expected)
                    print("\(name) chain of \(count) terms: \(Date().timeIntervalSince(start)) s")
                } catch {
                    print("\(name) chain of \(count) terms: refused after \(Date().timeIntervalSince(start)) s: \(error.explanation)")
                }
            }
        }
    }
}
