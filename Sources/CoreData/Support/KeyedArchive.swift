/// A keyed archive (the property list `NSKeyedArchiver` writes), parsed and checked so that
/// decoding it cannot trap.
///
/// Linux Foundation's `NSKeyedUnarchiver` ends the process on many archives that are valid
/// property lists: a class that is not allowed, a `$class` that is not a class description, an
/// object that contains itself (endless recursion), objects nested deeper than the stack; and
/// its property list parser returns corrupt objects for some damaged data. Core Data therefore
/// uses neither. This type reads the data with `BinaryPropertyList` and checks the structure of
/// every object reachable from the root: references in range, class descriptions where classes
/// are expected, no cycles, bounded nesting. `KeyedArchiveDecoder` then decodes the checked
/// archive; classes are checked there, against each caller's allowed classes.
///
/// Only binary archives are read, the format `NSKeyedArchiver` writes unless told otherwise.
/// Every failure is an `NSCoderReadCorruptError` (4864).
struct KeyedArchive {
    /// The deepest chain of objects inside objects that Core Data decodes. Decoding recurses
    /// once per level; on Linux, 1000 levels overflow a 512 KB thread stack, so the limit keeps
    /// well below that while exceeding what real data nests.
    static let maximumNesting = 128

    /// A value stored inline, in `$objects` or under a key of an object.
    enum Scalar {
        case string(String)
        case number(NSNumber)
        case data(Data)
        case date(Date)

        /// The scalar a property-list value is; nil for references, arrays and dictionaries.
        init?(_ value: BinaryPropertyList.Value) {
            switch value {
            case .string(let string): self = .string(string)
            case .number(let number): self = .number(number)
            case .data(let data): self = .data(data)
            case .date(let date): self = .date(date)
            case .reference, .array, .dictionary: return nil
            }
        }
    }

    /// What a key of an archived object holds.
    enum Field {
        /// A reference to an entry of `$objects`.
        case reference(Int)
        /// An array of references, as collections store their elements.
        case references([Int])
        /// An inline value.
        case scalar(Scalar)
    }

    /// An archived object: the index of its class description and its fields by key (keys as
    /// stored, that is escaped: a key that starts with `$` has another `$` in front).
    struct Instance {
        let classIndex: Int
        let fields: [String: Field]

        /// The entries the object refers to, in key order so that checks are deterministic.
        var references: [Int] {
            fields.keys.sorted().flatMap { key -> [Int] in
                switch fields[key] {
                case .reference(let index): [index]
                case .references(let indexes): indexes
                case .scalar, nil: []
                }
            }
        }
    }

    /// A class description: the archived class name and the fallback names tried when the
    /// class does not exist. (`$classes`, the superclass chain, is informational and ignored,
    /// as Linux's unarchiver ignores it.)
    struct ClassDescription {
        let name: String?
        let hints: [String]
    }

    /// One entry of `$objects`.
    enum Entry {
        case null
        case scalar(Scalar)
        case instance(Instance)
        case classDescription(ClassDescription)
        /// An entry that cannot be decoded, with the reason. It is an error only when reached.
        case invalid(String)
    }

    /// The entries of `$objects`.
    let entries: [Entry]
    /// The index of the root object (`$top.root`).
    let rootIndex: Int

    /// Parses and checks `data`, throwing `NSCoderReadCorruptError` if it is not a keyed
    /// archive that can be decoded safely.
    init(data: Data) throws {
        guard case .dictionary(let archive) = try BinaryPropertyList.parse(data) else {
            throw CoreDataError.unreadableArchive("the property list is not a dictionary")
        }
        guard case .string("NSKeyedArchiver") = archive["$archiver"],
              case .number(let version) = archive["$version"], version.intValue == 100_000 else {
            throw CoreDataError.unreadableArchive("the property list is not an NSKeyedArchiver archive")
        }
        guard case .array(let objects) = archive["$objects"],
              case .dictionary(let top) = archive["$top"],
              case .reference(let root) = top["root"], root < objects.count else {
            throw CoreDataError.unreadableArchive("the archive has no root object")
        }
        entries = objects.map { Self.entry(from: $0, objectCount: objects.count) }
        rootIndex = root
        try checkObjectGraph()
    }

    // MARK: Reading entries

    private static func entry(from value: BinaryPropertyList.Value, objectCount: Int) -> Entry {
        if case .string("$null") = value {
            return .null
        }
        if let scalar = Scalar(value) {
            return .scalar(scalar)
        }
        switch value {
        case .array:
            return .invalid("an entry of $objects is an array")
        case .dictionary(let dictionary):
            if let classReference = dictionary["$class"] {
                return instance(from: dictionary, classReference: classReference, objectCount: objectCount)
            }
            if dictionary["$classname"] != nil || dictionary["$classhints"] != nil {
                return classDescription(from: dictionary)
            }
            return .invalid("an entry of $objects is a dictionary without $class")
        default:
            // Scalars are handled above: what is left is a bare reference.
            return .invalid("an entry of $objects is a bare reference")
        }
    }

    private static func instance(
        from dictionary: [String: BinaryPropertyList.Value], classReference: BinaryPropertyList.Value, objectCount: Int
    ) -> Entry {
        guard case .reference(let classIndex) = classReference, classIndex < objectCount else {
            return .invalid("an object's $class is not a reference to a class description")
        }
        var fields: [String: Field] = [:]
        for (key, value) in dictionary where key != "$class" {
            guard let field = field(from: value, objectCount: objectCount) else {
                return .invalid("an object's value for key '\(key)' is neither a value, a reference nor an array of references")
            }
            fields[key] = field
        }
        return .instance(Instance(classIndex: classIndex, fields: fields))
    }

    private static func field(from value: BinaryPropertyList.Value, objectCount: Int) -> Field? {
        if let scalar = Scalar(value) {
            return .scalar(scalar)
        }
        switch value {
        case .reference(let index):
            return index < objectCount ? .reference(index) : nil
        case .array(let elements):
            var indexes: [Int] = []
            for element in elements {
                guard case .reference(let index) = element, index < objectCount else { return nil }
                indexes.append(index)
            }
            return .references(indexes)
        default:
            return nil
        }
    }

    private static func classDescription(from dictionary: [String: BinaryPropertyList.Value]) -> Entry {
        let name: String?
        switch dictionary["$classname"] {
        case nil: name = nil
        case .string(let string): name = string
        default: return .invalid("a class description's $classname is not text")
        }
        var hints: [String] = []
        switch dictionary["$classhints"] {
        case nil: break
        case .array(let values):
            for value in values {
                guard case .string(let hint) = value else { return .invalid("a class description's $classhints are not text") }
                hints.append(hint)
            }
        default: return .invalid("a class description's $classhints are not text")
        }
        return .classDescription(ClassDescription(name: name, hints: hints))
    }

    // MARK: Checking the object graph

    /// How far the check of an entry has got.
    private enum Mark {
        case unvisited
        case inProgress
        case done(nesting: Int)
    }

    /// Checks every entry reachable from the root; throws on the first problem.
    private func checkObjectGraph() throws {
        var marks = [Mark](repeating: .unvisited, count: entries.count)
        let nesting = try nesting(of: rootIndex, depth: 1, marks: &marks)
        guard nesting <= Self.maximumNesting else { throw Self.tooDeep() }
    }

    /// Checks the entry at `index` and what it refers to, and returns the length of the longest
    /// chain of objects starting there. `depth` is the length of the chain that led here; it
    /// bounds this recursion, and the longest chain from the root bounds the decoder's.
    private func nesting(of index: Int, depth: Int, marks: inout [Mark]) throws -> Int {
        switch marks[index] {
        case .done(let nesting): return nesting
        case .inProgress: throw CoreDataError.unreadableArchive("object \(index) contains itself")
        case .unvisited: break
        }
        let nesting: Int
        switch entries[index] {
        case .null, .scalar:
            nesting = 0
        case .instance(let instance):
            guard depth <= Self.maximumNesting else { throw Self.tooDeep() }
            guard case .classDescription = entries[instance.classIndex] else {
                throw CoreDataError.unreadableArchive("the $class of object \(index) is not a class description")
            }
            marks[index] = .inProgress
            var deepest = 0
            for child in instance.references {
                deepest = max(deepest, try self.nesting(of: child, depth: depth + 1, marks: &marks))
            }
            nesting = deepest + 1
        case .classDescription:
            throw CoreDataError.unreadableArchive("object \(index) is a class description, not an object")
        case .invalid(let reason):
            throw CoreDataError.unreadableArchive("object \(index): \(reason)")
        }
        marks[index] = .done(nesting: nesting)
        return nesting
    }

    private static func tooDeep() -> NSError {
        CoreDataError.unreadableArchive("objects are nested more than \(maximumNesting) levels deep")
    }
}
