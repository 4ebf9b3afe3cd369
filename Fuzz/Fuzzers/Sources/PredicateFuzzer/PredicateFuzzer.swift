import CoreData
import FuzzSupport

/// The predicate format parser, its printer and its evaluator on hostile format strings.
///
/// The input, read as UTF-8, is parsed as a predicate (`NSPredicate(validatingFormat:)`) and as
/// an expression (`NSExpression(format:)`), with an argument of the right kind for each format
/// specifier it contains. What parses is printed and parsed back from its printed text, its
/// variables are substituted, it is evaluated on a dictionary and on a managed object, and it
/// filters fetches from an in-memory store and from a SQLite store.
enum PredicateFuzzer: FuzzTarget {
    static func run(_ input: Data) {
        let format = String(decoding: input, as: UTF8.self)
        let arguments = FormatArguments.arguments(for: format)
        if let predicate = try? NSPredicate(validatingFormat: format, argumentArray: arguments) {
            exercise(predicate)
        }
        let expression = NSExpression(format: format, argumentArray: arguments)
        _ = NSExpression(format: expression.description)
        _ = expression.expressionValue(with: Sample.person, context: NSMutableDictionary(dictionary: Sample.variables))
    }

    private static func exercise(_ predicate: NSPredicate) {
        _ = try? NSPredicate(validatingFormat: predicate.predicateFormat, argumentArray: [])
        _ = predicate.evaluate(with: Sample.person, substitutionVariables: Sample.variables)
        let substituted = predicate.withSubstitutionVariables(Sample.variables)
        _ = substituted.predicateFormat
        _ = substituted.evaluate(with: Sample.person)
        ManagedSample.inMemory.evaluate(predicate)
        ManagedSample.sqlite.evaluate(predicate)
    }
}

/// Arguments for the format specifiers of a fuzzed format: one of the right kind for each
/// specifier found in the text, since a mismatch only stops at the first syntax error.
enum FormatArguments {
    /// Values for `%@`, taken in turn.
    private static var objects: [Any] {
        [
            "Ripley", NSNumber(value: 30), [3, 7, 9], NSNull(), Date(timeIntervalSinceReferenceDate: 0),
            ["name": "Nostromo"], NSExpression(forKeyPath: "name"), Set(["alien"]), Data([0, 1]), 1.75,
        ]
    }

    static func arguments(for format: String) -> [Any] {
        var arguments: [Any] = []
        var scalars = format.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            guard scalar == "%" else { continue }
            var conversion = scalars.next()
            while let length = conversion, "lhqzjtL".unicodeScalars.contains(length) {
                conversion = scalars.next()
            }
            switch conversion {
            case "@": arguments.append(objects[arguments.count % objects.count])
            case "K": arguments.append(arguments.count.isMultiple(of: 2) ? "name" : "ship.name")
            case "d", "i", "u", "x", "X", "o", "c": arguments.append(arguments.count - 1)
            case "f", "e", "E", "g", "G", "a": arguments.append(Double(arguments.count) / 4)
            case "s": arguments.append("text")
            default: continue
            }
        }
        return arguments
    }
}

/// The values fuzzed predicates are evaluated on; the same as the evaluation conformance table's.
enum Sample {
    static var person: [String: Any] {
        [
            "name": "Ripley", "nick": NSNull(), "age": 30, "height": 1.75, "member": true, "city": "Zürich",
            "tags": ["alien", "nostromo"], "scores": [3, 7, 9], "empty": [Int](), "born": Date(timeIntervalSinceReferenceDate: 0),
            "ship": ["name": "Nostromo", "crew": 7],
            "crew": [["name": "Ash", "age": 40], ["name": "Dallas", "age": 45], ["name": "Kane", "age": 35]],
        ]
    }

    static var variables: [String: Any] {
        ["limit": 3, "key": "name", "a": ["x": "ABC"], "b": "x", "c": NSNull(), "NOW": Date(timeIntervalSinceReferenceDate: 0)]
    }
}

/// A person stored as a managed object, with a crew of its own entity, so that predicates also
/// read through managed objects' key-value coding and are compiled to SQL.
final class ManagedSample {
    /// Made once each: libFuzzer calls the target on one thread, one input after another.
    nonisolated(unsafe) static let inMemory = ManagedSample(NSInMemoryStoreType, at: nil)
    nonisolated(unsafe) static let sqlite = ManagedSample(
        NSSQLiteStoreType, at: try? ScratchDirectory("predicate").reset().appendingPathComponent("People.sqlite")
    )

    private let context: NSManagedObjectContext
    private let person: NSManagedObject

    private init(_ storeType: String, at url: URL?) {
        let model = Self.model()
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        _ = try? coordinator.addPersistentStore(ofType: storeType, configurationName: nil, at: url, options: nil)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        self.context = context
        person = context.performAndWait {
            let person = NSEntityDescription.insertNewObject(forEntityName: "Person", into: context)
            person.setValue("Ripley", forKey: "name")
            person.setValue(30, forKey: "age")
            person.setValue(1.75, forKey: "height")
            person.setValue(Date(timeIntervalSinceReferenceDate: 0), forKey: "born")
            for (name, age) in [("Ash", 40), ("Dallas", 45)] {
                let member = NSEntityDescription.insertNewObject(forEntityName: "Person", into: context)
                member.setValue(name, forKey: "name")
                member.setValue(age, forKey: "age")
                member.setValue(person, forKey: "captain")
            }
            try? context.save()
            return person
        }
    }

    /// `Person`: attributes of the common types, and `crew` ↔ `captain` to itself.
    private static func model() -> NSManagedObjectModel {
        let entity = NSEntityDescription()
        entity.name = "Person"
        let attributes: [(String, NSAttributeDescription.AttributeType)] = [
            ("name", .string), ("nick", .string), ("age", .integer64), ("height", .double), ("member", .boolean),
            ("born", .date), ("photo", .binaryData), ("identifier", .uuid),
        ]
        let crew = NSRelationshipDescription()
        crew.name = "crew"
        crew.destinationEntity = entity
        crew.maxCount = 0
        let captain = NSRelationshipDescription()
        captain.name = "captain"
        captain.destinationEntity = entity
        captain.maxCount = 1
        crew.inverseRelationship = captain
        captain.inverseRelationship = crew
        entity.properties = attributes.map { name, type in
            let attribute = NSAttributeDescription()
            attribute.name = name
            attribute.type = type
            return attribute
        } + [crew, captain]
        let model = NSManagedObjectModel()
        model.entities = [entity]
        return model
    }

    /// Evaluates the predicate on the person, and fetches with it, sorted by name.
    func evaluate(_ predicate: NSPredicate) {
        context.performAndWait {
            _ = predicate.evaluate(with: person, substitutionVariables: Sample.variables)
            let request = NSFetchRequest<NSManagedObject>(entityName: "Person")
            request.predicate = predicate.withSubstitutionVariables(Sample.variables)
            request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
            _ = try? context.fetch(request)
        }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPredicate(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    PredicateFuzzer.run(bytes, count)
}

#if !FUZZING
@main
enum Replay {
    static func main() throws {
        try PredicateFuzzer.replay()
    }
}
#endif
