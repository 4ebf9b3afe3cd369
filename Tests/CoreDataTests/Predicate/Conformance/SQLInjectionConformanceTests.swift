@testable import CoreData
import Testing

/// Values, `%K` keys and key paths made of SQL punctuation neither break nor alter a SQLite
/// (or PostgreSQL) fetch: values are bound (ARCHITECTURE.md, "Values are always bound as parameters"), and a key
/// that names no property is an error naming the key, in SQLite and in memory alike.
@Suite("Conformance: SQL injection")
struct SQLInjectionConformanceTests {
    static let hostileValues = [
        "x' OR '1'='1", "x\" OR \"1\"=\"1", "'; DROP TABLE ZITEM; --", "Alpha' --", "Alpha'); DELETE FROM ZITEM; --",
        ") OR 1=1 OR (", "%' OR 1 --", "*' OR '*", "\\'; --", "\u{0}'; --",
    ]

    /// Each hostile string, as a value of each kind of comparison, matches no item, and every
    /// item is still there afterwards.
    @Test(arguments: hostileValues)
    func valuesAreBound(_ value: String) throws {
        let formats = [
            "name == %@", "name ==[cd] %@", "name BEGINSWITH %@", "name ENDSWITH[c] %@", "name CONTAINS %@", "name LIKE %@",
            "name MATCHES %@", "owner.name == %@", "ANY tags.text == %@", "name IN %@", "name BETWEEN %@",
            "SUBQUERY(tags, $t, $t.text == %@).@count > 0",
        ]
        for stack in try ConformanceStores.relational() {
            for format in formats {
                let isCollection = format.contains("IN %@") || format.contains("BETWEEN")
                let argument: Any = isCollection ? [value, value] as [Any] : value
                let predicate = NSPredicate(format: format, argumentArray: [argument])
                // PostgreSQL's text holds no NUL character: such a value is refused with an error.
                if stack.storeType != NSSQLiteStoreType, value.contains("\u{0}") {
                    #expect(try ConformanceStores.fetchError(predicate, in: stack)?.domain == NSCocoaErrorDomain, "\(format)")
                    continue
                }
                #expect(try ConformanceStores.fetchedLabels(in: stack, predicate) == "", "\(stack.storeType): \(format) with \(value)")
            }
            #expect(try ConformanceStores.fetchedLabels(in: stack, NSPredicate(value: true)) == "ABCDEFGHIJ")
        }
    }

    /// Stored punctuation is found exactly, like any other value.
    @Test func storedPunctuationMatchesItself() throws {
        let owner = ConformanceModel.punctuatedOwner
        for stack in try ConformanceStores.relational() {
            #expect(try ConformanceStores.fetchedLabels(in: stack, NSPredicate(format: "owner.name == %@", owner)) == "J")
            #expect(try ConformanceStores.fetchedLabels(in: stack, NSPredicate(format: "owner.name IN %@", [owner, "Ann"])) == "ADHJ")
            #expect(try ConformanceStores.fetchedLabels(in: stack, NSPredicate(format: "owner.name ENDSWITH %@", "\"; --")) == "J")
            #expect(try ConformanceStores.fetchedLabels(in: stack, NSPredicate(format: "name == %@", "a.b*c?")) == "J")
        }
    }

    static let hostileKeys = [
        "name) OR (1=1", "name = name OR 1", "name; DROP TABLE ZITEM", "name --", "\"ZNAME\"", "ZNAME", "Z_PK",
        "owner.name) OR (1=1", "owner.ZNAME", "owner.name'; --", "name\u{0}", "t0.ZNAME",
    ]

    /// A `%K` key naming no property fails the fetch with an error naming the key, in SQLite and
    /// in the in-memory store; SQL column names are not keys.
    @Test(arguments: hostileKeys)
    func unknownKeysAreErrorsNamingTheKey(_ key: String) throws {
        let predicate = NSPredicate(format: "%K == %@", key, "Alpha")
        #expect(predicate.parseError == nil)
        for stack in try ConformanceStores.relational() {
            let error = try #require(try ConformanceStores.fetchError(predicate, in: stack), "\(stack.storeType) fetch with key \(key)")
            #expect(error.domain == NSCocoaErrorDomain)
            #expect(error.explanation.contains(key), "\(error.explanation)")
        }
        let memory = try ConformanceStores.inMemory()
        let memoryError = try #require(memory.context.performAndWait {
            ctxError { _ = try ctxFetch("Item", in: memory.context, "%K == %@", [key, "Alpha"]) }
        }, "in-memory fetch with key \(key)")
        #expect(memoryError.domain == NSCocoaErrorDomain)
    }

    /// Key paths typed into the format itself cannot smuggle SQL either: punctuation outside
    /// strings is a parse error, and a column name is just an unknown key.
    @Test func keyPathsInTheFormatAreParsedNotSpliced() throws {
        for format in ["name == 'x'; DROP TABLE ZITEM", "name == 'x') OR (1 == 1", "name == 'x' OR 1=1 --"] {
            #expect(NSPredicate(format: format).parseError?.code == 2048, "\(format)")
        }
        for stack in try ConformanceStores.relational() {
            let error = try #require(try ConformanceStores.fetchError(NSPredicate(format: "ZNAME == 'Alpha'"), in: stack))
            #expect(error.explanation.contains("ZNAME"))
            #expect(try ConformanceStores.fetchedLabels(in: stack, NSPredicate(value: true)) == "ABCDEFGHIJ")
        }
    }
}
