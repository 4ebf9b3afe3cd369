/// Writes keyed archives in the format of `NSKeyedArchiver` (binary property lists that Apple's
/// unarchiver reads), the counterpart of `KeyedArchiveDecoder`.
///
/// Core Data does not use Linux Foundation's `NSKeyedArchiver`: it traps on values that do not
/// support (secure) coding, recurses forever on `NSDecimalNumber` and on collections that
/// contain themselves, and merges objects that compare equal, so `[1, true]` is archived as
/// `[1, 1]`. This encoder screens every object with `ArchiveClassPolicy` first and records the
/// first problem instead of trapping, writes the Foundation classes of `FoundationArchiveKind`
/// itself (reading collections' storage directly, so nothing is bridged or merged), and calls
/// `encode(with:)` for classes outside Foundation. Objects are shared by identity, as on Apple
/// platforms. An object that contains itself, or nesting deeper than
/// `KeyedArchive.maximumNesting`, is a problem, because `KeyedArchiveDecoder` refuses both.
final class KeyedArchiveEncoder: NSCoder {
    private let isSecure: Bool
    /// `$objects`; entry 0 is `$null`. Entries of objects being encoded are placeholders.
    private var objects: [BinaryPropertyList.Value] = [.string("$null")]
    /// The entry of each object encoded so far, with the object kept alive so that its
    /// identifier is not reused.
    private var objectIndexes: [ObjectIdentifier: (object: AnyObject, index: Int)] = [:]
    /// The entry of each class description written so far.
    private var classIndexes: [ObjectIdentifier: Int] = [:]
    /// The objects being encoded, innermost last.
    private var encodingStack: [(object: AnyObject, fields: [String: BinaryPropertyList.Value])] = []
    private var firstProblem: String?

    private init(isSecure: Bool) {
        self.isSecure = isSecure
        super.init()
    }

    /// The keyed archive of `value`, as
    /// `NSKeyedArchiver.archivedData(withRootObject:requiringSecureCoding:)` writes it.
    ///
    /// - Parameters:
    ///   - requiringSecureCoding: Whether every archived object must support secure coding.
    ///   - allowedRootClasses: If given, the classes the root object must be an instance of (or
    ///     of a subclass of).
    /// - Throws: `NSCoderInvalidValueError` (4866) naming the first value that cannot be
    ///   archived.
    static func archivedData(
        withRootObject value: Any, requiringSecureCoding: Bool, allowedRootClasses: [AnyClass]?
    ) throws -> Data {
        let root = value as AnyObject
        let encoder = KeyedArchiveEncoder(isSecure: requiringSecureCoding)
        let rootReference = encoder.reference(to: root, describedAs: type(of: value))
        if let problem = encoder.firstProblem {
            throw CoreDataError.unarchivableValue(problem)
        }
        if let allowedRootClasses, let object = root as? NSObject {
            let rootClass: AnyClass = archivedClass(of: object)
            guard ArchiveClassPolicy.isKind(rootClass, ofAnyOf: allowedRootClasses) else {
                throw CoreDataError.unarchivableValue("\(String(reflecting: rootClass)) is not one of the allowed top-level classes")
            }
        }
        return BinaryPropertyList.serialize(.dictionary([
            "$archiver": .string("NSKeyedArchiver"),
            "$version": .number(NSNumber(value: 100_000)),
            "$top": .dictionary(["root": rootReference]),
            "$objects": .array(encoder.objects),
        ]))
    }

    // MARK: NSCoder state

    override var allowsKeyedCoding: Bool { true }

    override var requiresSecureCoding: Bool { isSecure }

    // MARK: Keyed encoding

    override func encode(_ object: Any?, forKey key: String) {
        setField(object.map { reference(to: $0 as AnyObject, describedAs: type(of: $0)) } ?? .reference(0), forKey: key)
    }

    /// Encodes a reference to `object` if it has been encoded already, and `nil` otherwise.
    /// (Apple's archiver also resolves objects encoded unconditionally later; this one encodes
    /// in a single pass.)
    override func encodeConditionalObject(_ object: Any?, forKey key: String) {
        let index = object.flatMap { objectIndexes[ObjectIdentifier($0 as AnyObject)]?.index } ?? 0
        setField(.reference(index), forKey: key)
    }

    override func encode(_ value: Bool, forKey key: String) {
        setField(.number(NSNumber(value: value)), forKey: key)
    }

    override func encode(_ value: Int, forKey key: String) {
        setField(.number(NSNumber(value: value)), forKey: key)
    }

    override func encode(_ value: Int32, forKey key: String) {
        setField(.number(NSNumber(value: value)), forKey: key)
    }

    override func encode(_ value: Int64, forKey key: String) {
        setField(.number(NSNumber(value: value)), forKey: key)
    }

    override func encode(_ value: Float, forKey key: String) {
        setField(.number(NSNumber(value: value)), forKey: key)
    }

    override func encode(_ value: Double, forKey key: String) {
        setField(.number(NSNumber(value: value)), forKey: key)
    }

    override func encodeBytes(_ bytes: UnsafePointer<UInt8>?, length: Int, forKey key: String) {
        let data = bytes.map { Data(bytes: $0, count: max(length, 0)) } ?? Data()
        setField(.data(data), forKey: key)
    }

    /// Stores `value` under `key` in the object being encoded.
    private func setField(_ value: BinaryPropertyList.Value, forKey key: String) {
        guard !encodingStack.isEmpty else {
            record("a value was encoded outside an object's encode(with:)")
            return
        }
        // NSKeyedArchiver reserves keys that start with "$" and escapes them with another "$".
        let storedKey = key.hasPrefix("$") ? "$" + key : key
        encodingStack[encodingStack.count - 1].fields[storedKey] = value
    }

    // MARK: Unkeyed encoding

    // Keyed archives have no unkeyed values, and NSCoder's implementations trap, so a class's
    // encode(with:) that calls these records a problem instead.

    override func encode(_ object: Any?) {
        record("unkeyed encoding is not supported by keyed archives")
    }

    override func encodeConditionalObject(_ object: Any?) {
        record("unkeyed encoding is not supported by keyed archives")
    }

    override func encodeValue(ofObjCType type: UnsafePointer<CChar>, at addr: UnsafeRawPointer) {
        record("unkeyed encoding is not supported by keyed archives")
    }

    override func encode(_ data: Data) {
        record("unkeyed encoding is not supported by keyed archives")
    }

    override func encodePropertyList(_ aPropertyList: Any) {
        record("unkeyed encoding is not supported by keyed archives")
    }

    // MARK: Objects

    /// The reference to `object` in `$objects`, encoding it first if need be; a reference to
    /// `$null` if it cannot be archived (the problem is recorded, naming `valueType`, the type
    /// of the value before Swift bridged it to `object`, when known).
    private func reference(to object: AnyObject, describedAs valueType: Any.Type? = nil) -> BinaryPropertyList.Value {
        let typeName = String(reflecting: valueType ?? type(of: object))
        guard firstProblem == nil else { return .reference(0) }
        if let encoded = objectIndexes[ObjectIdentifier(object)] {
            guard !encodingStack.contains(where: { $0.object === encoded.object }) else {
                record("an object of class \(typeName) contains itself")
                return .reference(0)
            }
            return .reference(encoded.index)
        }
        guard let object = object as? NSObject else {
            record("a value of type \(typeName) cannot be archived: it is not an object")
            return .reference(0)
        }
        if let problem = problem(with: object) {
            record("a value of type \(typeName) cannot be archived: \(problem)")
            return .reference(0)
        }
        let index = objects.count
        objects.append(.string("$null"))
        objectIndexes[ObjectIdentifier(object)] = (object, index)
        if let inline = Self.inlineValue(of: object) {
            objects[index] = inline
        } else {
            objects[index] = encodeInstance(object)
        }
        return .reference(index)
    }

    /// Why `object` cannot be archived, or `nil` if it can.
    private func problem(with object: NSObject) -> String? {
        if String(reflecting: type(of: object)) == "Foundation.__SwiftValue" {
            // How Foundation boxes a Swift value that has no Foundation counterpart.
            return "it is a Swift value that Foundation does not bridge to an object"
        }
        if Self.inlineValue(of: object) != nil { return nil }
        guard encodingStack.count < KeyedArchive.maximumNesting else {
            return "objects are nested more than \(KeyedArchive.maximumNesting) levels deep"
        }
        for cls in [type(of: object), Self.archivedClass(of: object)] {
            if let problem = ArchiveClassPolicy.problem(with: cls, requiresSecureCoding: isSecure) {
                return problem
            }
        }
        return nil
    }

    /// The dictionary of an archived object: its fields and its `$class`.
    private func encodeInstance(_ object: NSObject) -> BinaryPropertyList.Value {
        encodingStack.append((object, [:]))
        if let kind = FoundationArchiveKind(exactly: type(of: object)) {
            encodeFoundationObject(object, kind: kind)
        } else if let codable = object as? NSCoding {
            codable.encode(with: self)
        }
        var fields = encodingStack.removeLast().fields
        fields["$class"] = .reference(classDescriptionIndex(for: Self.archivedClass(of: object)))
        return .dictionary(fields)
    }

    /// Writes the fields of a Foundation object, in the layout Apple's archiver uses.
    private func encodeFoundationObject(_ object: NSObject, kind: FoundationArchiveKind) {
        switch kind {
        case .array, .mutableArray, .set, .mutableSet:
            guard let elements = elements(of: object) else { return }
            setField(.array(elements.map { reference(to: $0) }), forKey: "NS.objects")
        case .dictionary, .mutableDictionary:
            guard let entries = entries(of: object) else { return }
            setField(.array(entries.map { reference(to: $0.key) }), forKey: "NS.keys")
            setField(.array(entries.map { reference(to: $0.value) }), forKey: "NS.objects")
        case .string, .mutableString:
            setField(.string(String(describing: object)), forKey: "NS.string")
        case .data, .mutableData:
            setField(.data((object as? NSData).map { Data(referencing: $0) } ?? Data()), forKey: "NS.data")
        case .date:
            let time = (object as? NSDate)?.timeIntervalSinceReferenceDate ?? 0
            setField(.number(NSNumber(value: time)), forKey: "NS.time")
        case .url:
            let url = object as? NSURL
            encode(url?.baseURL, forKey: "NS.base")
            encode(url?.relativeString, forKey: "NS.relative")
        case .uuid:
            var bytes = [UInt8](repeating: 0, count: 16)
            (object as? NSUUID)?.getBytes(&bytes)
            setField(.data(Data(bytes)), forKey: "NS.uuidbytes")
        case .null:
            break
        }
    }

    /// The index of the class description of `cls`, written once per class: its name and its
    /// superclass chain, as Linux Foundation's archiver writes them. Ancestors without a name
    /// (see `ArchiveClassPolicy.archivedName(of:)`) are left out of the chain, which neither
    /// Core Data's nor Linux Foundation's unarchiver reads; `cls` itself has one, or
    /// `problem(with:)` refused the object.
    private func classDescriptionIndex(for cls: AnyClass) -> Int {
        if let index = classIndexes[ObjectIdentifier(cls)] { return index }
        let chain = sequence(first: cls) { ($0 as? NSObject.Type)?.superclass }
            .compactMap(ArchiveClassPolicy.archivedName(of:))
        objects.append(.dictionary([
            "$classname": .string(chain.first ?? ""), "$classes": .array(chain.map(BinaryPropertyList.Value.string)),
        ]))
        classIndexes[ObjectIdentifier(cls)] = objects.count - 1
        return objects.count - 1
    }

    private func record(_ problem: String) {
        if firstProblem == nil { firstProblem = problem }
    }

    // MARK: Classes

    /// The value `object` is archived as when it is stored inline rather than as an archived
    /// object: exactly `NSString`, `NSNumber` (including Booleans) and `NSData`, as on Apple
    /// platforms.
    private static func inlineValue(of object: NSObject) -> BinaryPropertyList.Value? {
        let cls: AnyClass = type(of: object)
        switch object {
        case let string as NSString where cls == NSString.self:
            return .string(String(describing: string))
        case let number as NSNumber where cls == NSNumber.self || cls == type(of: true as AnyObject):
            return .number(number)
        case let data as NSData where cls == NSData.self:
            return .data(Data(referencing: data))
        default:
            return nil
        }
    }

    /// The class an archive records for `object`.
    private static func archivedClass(of object: NSObject) -> AnyClass {
        switch inlineValue(of: object) {
        case .string?: NSString.self
        case .number?: NSNumber.self
        case .data?: NSData.self
        default: object.classForKeyedArchiver ?? type(of: object)
        }
    }

    // MARK: Collections

    // Linux Foundation's collections answer Mirror with their storage, which is read here:
    // their own accessors bridge nested collections to Swift collections (losing identity and
    // mutability), recursively, which never ends for a collection that contains itself. The
    // count guards against a Foundation whose Mirror would not show the storage.

    /// The elements of an array or set, as stored; `nil` (with the problem recorded) if they
    /// cannot be read.
    private func elements(of collection: NSObject) -> [AnyObject]? {
        let elements = Mirror(reflecting: collection).children.map { $0.value as AnyObject }
        return checkedContents(elements, of: collection)
    }

    /// The keys and values of a dictionary, as stored; `nil` (with the problem recorded) if
    /// they cannot be read.
    private func entries(of dictionary: NSObject) -> [(key: AnyObject, value: AnyObject)]? {
        let entries = Mirror(reflecting: dictionary).children.compactMap { child -> (key: AnyObject, value: AnyObject)? in
            let pair = Mirror(reflecting: child.value).children.map { $0.value as AnyObject }
            return pair.count == 2 ? (pair[0], pair[1]) : nil
        }
        return checkedContents(entries, of: dictionary)
    }

    private func checkedContents<Element>(_ contents: [Element], of collection: NSObject) -> [Element]? {
        let count = (collection as? NSArray)?.count ?? (collection as? NSSet)?.count ?? (collection as? NSDictionary)?.count
        guard contents.count == count else {
            record("the contents of a \(String(reflecting: type(of: collection))) cannot be read")
            return nil
        }
        return contents
    }
}
