import Testing
@testable import CoreData

/// Key-path reading over readable objects, dictionaries, collections and plain Swift values.
@Suite("Key-value reading")
struct KeyValueReaderTests {
    private final class Department: KeyValueCodingReadable {
        let name: String
        var employees: Set<Employee> = []

        init(name: String) {
            self.name = name
        }

        func keyValue(forKey key: String) throws -> Any? {
            switch key {
            case "name": name
            case "employees": employees
            default: throw PredicateEvaluationError.unknownKey(key, typeName: "Department")
            }
        }
    }

    private final class Employee: KeyValueCodingReadable, Hashable {
        let name: String
        let salary: Int
        let manager: Employee?
        weak var department: Department?

        init(name: String, salary: Int, manager: Employee? = nil) {
            self.name = name
            self.salary = salary
            self.manager = manager
        }

        func keyValue(forKey key: String) throws -> Any? {
            switch key {
            case "name": name
            case "salary": salary
            case "manager": manager
            case "department": department
            default: throw PredicateEvaluationError.unknownKey(key, typeName: "Employee")
            }
        }

        static func == (lhs: Employee, rhs: Employee) -> Bool { lhs === rhs }
        func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
    }

    private func read(_ path: String, of object: Any?) throws -> Any? {
        try KeyValueReader.value(atKeyPath: path.split(separator: ".").map(String.init)[...], of: object)
    }

    @Test func readableObjectsAndToOneRelationships() throws {
        let boss = Employee(name: "Ann", salary: 100)
        let worker = Employee(name: "Ben", salary: 50, manager: boss)
        #expect(try read("manager.name", of: worker) as? String == "Ann")
        #expect(try read("manager.manager.name", of: worker) == nil, "a nil to-one ends the path with nil")
        #expect(NSPredicate(format: "manager.name == 'Ann' AND salary < manager.salary").evaluate(with: worker))
        #expect(throws: PredicateEvaluationError.unknownKey("title", typeName: "Employee")) { try read("title", of: worker) }
        #expect(!NSPredicate(format: "title == nil").evaluate(with: worker))
    }

    @Test func toManyRelationships() throws {
        let department = Department(name: "R&D")
        department.employees = [Employee(name: "Ann", salary: 100), Employee(name: "Ben", salary: 50)]
        #expect(try read("employees.@count", of: department) as? Int == 2)
        #expect(try read("employees.@sum.salary", of: department) as? Int == 150)
        #expect(try read("employees.@avg.salary", of: department) as? Double == 75)
        #expect(try read("employees.@max.name", of: department) as? String == "Ben")
        #expect(NSPredicate(format: "ANY employees.salary > 90").evaluate(with: department))
        #expect(NSPredicate(format: "ALL employees.salary >= 50").evaluate(with: department))
        #expect(!NSPredicate(format: "NONE employees.name == 'Ben'").evaluate(with: department))
        let ann = try #require(department.employees.first { $0.name == "Ann" })
        #expect(NSPredicate(format: "%@ IN employees", ann).evaluate(with: department))
        #expect(NSPredicate(format: "employees CONTAINS %@", ann).evaluate(with: department))
        #expect(!NSPredicate(format: "employees CONTAINS %@", Employee(name: "Ann", salary: 100)).evaluate(with: department))
    }

    @Test func dictionariesInEveryForm() throws {
        #expect(try read("a", of: ["a": 1]) as? Int == 1)
        #expect(try read("b", of: ["a": 1]) == nil)
        #expect(try read("a", of: NSDictionary(dictionary: ["a": "x"])) as? String == "x")
        #expect(try read("a", of: [AnyHashable("a"): 2]) as? Int == 2)
        #expect(try read("a.b", of: ["a": ["b": 3]]) as? Int == 3)
        let optional: String? = nil
        #expect(try read("a", of: ["a": optional as Any]) == nil)
    }

    @Test func keysMapOverCollections() throws {
        let people: [[String: Any]] = [["name": "Ann"], ["name": "Ben"], [:]]
        let names = try #require(try read("name", of: people) as? [Any])
        #expect(names.count == 3)
        #expect(names[2] is NSNull)
        #expect(try read("@count", of: people) as? Int == 3)
        #expect(try read("@count", of: NSOrderedSet(array: [1, 2])) as? Int == 2)
        #expect(try read("@count", of: Set([1, 2, 3])) as? Int == 3)
        #expect((try read("@distinctUnionOfObjects.name", of: people + [["name": "Ann"]]) as? [Any])?.count == 2)
        #expect((try read("@unionOfObjects.name", of: people + [["name": "Ann"]]) as? [Any])?.count == 3)
        #expect((try read("@unionOfArrays.self", of: [[1, 2], [2, 3]]) as? [Any])?.count == 4)
        #expect((try read("@distinctUnionOfArrays.self", of: [[1, 2], [2, 3]]) as? [Any])?.count == 3)
    }

    @Test func aKeyReadFromTheElementsOfASetHasNoRepeats() throws {
        let people: [[String: Any]] = [["city": "Oslo"], ["city": "Oslo"], ["city": "Bergen"]]
        #expect((try read("city", of: people) as? [Any])?.count == 3)
        #expect((try read("city", of: NSOrderedSet(array: people)) as? [Any])?.count == 3)
        #expect((try read("city", of: NSSet(array: people)) as? [Any])?.count == 2)
        let cities: Set<AnyHashable> = [["name": "Oslo", "country": "NO"], ["name": "Bergen", "country": "NO"]]
        #expect((try read("country", of: cities) as? [Any])?.count == 1)

        let sparse = NSSet(array: (0..<100).map { index -> NSDictionary in
            let value: Any = index.isMultiple(of: 2) ? NSNull() : NSNumber(value: Double.nan)
            return ["index": index, "value": value]
        })
        #expect((try read("value", of: sparse) as? [Any])?.count == 2, "nulls and NaNs repeat")
        let numbers = NSSet(array: [["id": 1, "n": 1], ["id": 2, "n": 1.0], ["id": 3, "n": true]] as [NSDictionary])
        #expect((try read("n", of: numbers) as? [Any])?.count == 1, "1, 1.0 and true are equal numbers")
    }

    @Test func collectionOperatorsOnEmptyAndInvalidInput() throws {
        let empty: [Int] = []
        #expect(try read("@sum.self", of: empty) as? Int == 0)
        #expect(try read("@avg.self", of: empty) == nil)
        #expect(try read("@min.self", of: empty) == nil)
        #expect(try read("@sum.self", of: [1, 2.5]) as? Double == 3.5)
        #expect(try read("@min.self", of: [3, 1, 2]) as? Int == 1)
        #expect(try read("a.@count", of: [String: Any]()) == nil)
        #expect(throws: PredicateEvaluationError.self) { try read("@median", of: [1]) }
        #expect(throws: PredicateEvaluationError.self) { try read("@count", of: "text") }
        #expect(throws: PredicateEvaluationError.self) { try read("@sum.self", of: ["a"]) }
    }

    @Test func stringsAnswerLengthAndSelfReadsTheObject() throws {
        #expect(try read("length", of: "héllo") as? Int == 5)
        #expect(try read("self", of: 4) as? Int == 4)
        #expect(throws: PredicateEvaluationError.self) { try read("count", of: "text") }
    }

    @Test func plainSwiftValuesThroughTheirStoredProperties() throws {
        class Base { let id = 7 }
        final class Derived: Base { let label = "x" }
        struct Wrapper { let inner: Derived; let maybe: Int? }
        let wrapper = Wrapper(inner: Derived(), maybe: nil)
        #expect(try read("inner.label", of: wrapper) as? String == "x")
        #expect(try read("inner.id", of: wrapper) as? Int == 7)
        #expect(try read("maybe", of: wrapper) == nil)
        #expect(throws: PredicateEvaluationError.self) { try read("missing", of: wrapper) }
    }
}
