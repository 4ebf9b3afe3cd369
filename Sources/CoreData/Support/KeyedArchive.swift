/// A keyed archive (the property list `NSKeyedArchiver` writes), parsed and checked so that
/// decoding it cannot trap.
///
/// Linux Foundation's `NSKeyedUnarchiver` ends the process on many archives that are valid
/// property lists: a class that is not allowed, a `$class` that is not a class description, an
/// object that contains itself (endless recursion), objects nested deeper than the stack. Core
/// Data therefore never hands data to it. This type reads the property list with
/// `PropertyListSerialization` (which throws on bytes that are not one) and checks the
/// structure of every object reachable from the root: references in range, class descriptions
/// where classes are expected, no cycles, bounded nesting. `KeyedArchiveDecoder` then decodes
/// the checked archive; classes are checked there, against each caller's allowed classes.
///
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
        let plist: Any
        do {
            plist = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        } catch {
            throw CoreDataError.unreadableArchive("the data is not a property list", underlying: error)
        }
        guard let archive = plist as? [String: Any] else {
            throw CoreDataError.unreadableArchive("the property list is not a dictionary")
        }
        guard archive["$archiver"] as? String == "NSKeyedArchiver",
              (archive["$version"] as? NSNumber)?.intValue == 100_000 else {
            throw CoreDataError.unreadableArchive("the property list is not an NSKeyedArchiver archive")
        }
        guard let objects = archive["$objects"] as? [Any],
              let top = archive["$top"] as? [String: Any],
              let root = top["root"].flatMap(Self.referenceIndex), root < objects.count else {
            throw CoreDataError.unreadableArchive("the archive has no root object")
        }
        entries = objects.map { Self.entry(from: $0, objectCount: objects.count) }
        rootIndex = root
        try checkObjectGraph()
    }

    // MARK: Reading entries

    /// The index a `CF$UID` reference holds, or `nil` if `value` is not a reference.
    ///
    /// `PropertyListSerialization` returns references as instances of Foundation's internal
    /// `_NSKeyedArchiverUID`, whose only trace outside Foundation is its stored `value`; the
    /// index is read by reflection. Should Foundation change that class, every archive fails to
    /// parse (with an error), and the round-trip tests fail.
    static func referenceIndex(_ value: Any) -> Int? {
        guard String(describing: type(of: value)) == "_NSKeyedArchiverUID" else { return nil }
        let stored = Mirror(reflecting: value).children.first { $0.label == "value" }?.value
        return (stored as? UInt32).map(Int.init)
    }

    private static func entry(from object: Any, objectCount: Int) -> Entry {
        if referenceIndex(object) != nil {
            return .invalid("an entry of $objects is a bare reference")
        }
        if let string = object as? String {
            return string == "$null" ? .null : .scalar(.string(string))
        }
        if let scalar = scalar(from: object) {
            return .scalar(scalar)
        }
        guard let dictionary = object as? [String: Any] else {
            return .invalid("an entry of $objects is a \(type(of: object))")
        }
        if let classReference = dictionary["$class"] {
            return instance(from: dictionary, classReference: classReference, objectCount: objectCount)
        }
        if dictionary["$classname"] != nil || dictionary["$classhints"] != nil {
            return classDescription(from: dictionary)
        }
        return .invalid("an entry of $objects is a dictionary without $class")
    }

    private static func scalar(from value: Any) -> Scalar? {
        if let string = value as? String { return .string(string) }
        if let data = value as? Data { return .data(data) }
        if let date = value as? Date { return .date(date) }
        if let number = value as? NSNumber { return .number(number) }
        return nil
    }

    private static func instance(from dictionary: [String: Any], classReference: Any, objectCount: Int) -> Entry {
        guard let classIndex = referenceIndex(classReference), classIndex < objectCount else {
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

    private static func field(from value: Any, objectCount: Int) -> Field? {
        if let index = referenceIndex(value) {
            return index < objectCount ? .reference(index) : nil
        }
        if let array = value as? [Any] {
            let indexes = array.compactMap(referenceIndex)
            guard indexes.count == array.count, indexes.allSatisfy({ $0 < objectCount }) else { return nil }
            return .references(indexes)
        }
        return scalar(from: value).map(Field.scalar)
    }

    private static func classDescription(from dictionary: [String: Any]) -> Entry {
        let name = dictionary["$classname"]
        let hints = dictionary["$classhints"]
        guard name == nil || name is String, hints == nil || hints is [String] else {
            return .invalid("a class description's $classname or $classhints is not text")
        }
        return .classDescription(ClassDescription(name: name as? String, hints: hints as? [String] ?? []))
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
        guard depth <= Self.maximumNesting else { throw Self.tooDeep() }
        let nesting: Int
        switch entries[index] {
        case .null, .scalar:
            nesting = 0
        case .instance(let instance):
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
