/// Decodes a checked `KeyedArchive` with `NSKeyedUnarchiver`'s semantics but without its traps.
///
/// Classes outside Foundation are decoded by their own `init(coder:)`, which receives this
/// coder and reads its fields through the keyed `NSCoder` methods. The Foundation classes of
/// `FoundationArchiveKind` are built from their checked fields instead (see
/// `KeyedArchiveDecoder+Foundation.swift`); any other Foundation class is rejected.
///
/// With secure coding, each `decodeObject(of:forKey:)` admits only instances of the classes it
/// names or their subclasses, as on Apple platforms; collections decode their elements with the
/// classes their own decoding admitted. Failures never trap: the first one is recorded (as
/// with `.setErrorAndReturn`), every later decoding returns `nil` or zero, and
/// `decodeRootObject(from:allowedClasses:)` throws it.
final class KeyedArchiveDecoder: NSCoder {
    private let archive: KeyedArchive
    private let isSecure: Bool
    /// Objects decoded so far by entry index, with the class the archive named, so that an
    /// object referred to twice is decoded once yet checked against each caller's classes.
    private var decodedObjects: [Int: (object: AnyObject, archivedClass: AnyClass)] = [:]
    /// The fields of the objects being decoded, innermost last; keyed calls read the last.
    private var fieldStack: [[String: KeyedArchive.Field]]
    /// The classes admitted by the decoding calls in progress, innermost last.
    private var allowedClassesStack: [[AnyClass]] = []
    private var failure: NSError?

    private init(archive: KeyedArchive, isSecure: Bool) {
        self.archive = archive
        self.isSecure = isSecure
        fieldStack = [["root": .reference(archive.rootIndex)]]
        super.init()
    }

    /// Decodes the root object of the keyed archive `data`.
    ///
    /// - Parameter allowedClasses: With a list, decoding requires secure coding and the root
    ///   must be an instance of one of the classes or of a subclass; `nil` decodes any class
    ///   that adopts `NSCoding`, as the deprecated non-secure unarchiving does.
    /// - Returns: The root object, or `nil` if the archive's root is `nil`.
    /// - Throws: `NSCoderReadCorruptError` (4864) describing the first problem.
    static func decodeRootObject(from data: Data, allowedClasses: [AnyClass]?) throws -> Any? {
        let decoder = KeyedArchiveDecoder(archive: try KeyedArchive(data: data), isSecure: allowedClasses != nil)
        let root = decoder.decodeObject(of: allowedClasses, forKey: NSKeyedArchiveRootObjectKey)
        if let failure = decoder.failure { throw failure }
        return root
    }

    // MARK: NSCoder state

    override var allowsKeyedCoding: Bool { true }

    override var requiresSecureCoding: Bool { isSecure }

    override var allowedClasses: [AnyClass]? {
        isSecure ? allowedClassesStack.last : nil
    }

    override var decodingFailurePolicy: NSCoder.DecodingFailurePolicy { .setErrorAndReturn }

    override var error: Error? { failure }

    /// Records the first failure; unlike `NSCoder`'s implementation it neither logs nor traps.
    override func failWithError(_ error: Error) {
        if failure == nil { failure = error as NSError }
    }

    // MARK: Objects

    override func containsValue(forKey key: String) -> Bool {
        field(forKey: key) != nil
    }

    override func decodeObject(forKey key: String) -> Any? {
        decodeObject(of: allowedClasses, forKey: key)
    }

    override func decodeObject(of classes: [AnyClass]?, forKey key: String) -> Any? {
        guard failure == nil, let field = field(forKey: key) else { return nil }
        guard case .reference(let index) = field else {
            fail("the value for key '\(key)' is not an object")
            return nil
        }
        return object(at: index, allowedClasses: isSecure ? classes ?? [] : nil, key: key)
    }

    override func decodePropertyList(forKey key: String) -> Any? {
        let propertyListClasses: [AnyClass] = [
            NSArray.self, NSDictionary.self, NSString.self, NSData.self, NSDate.self, NSNumber.self,
        ]
        return decodeObject(of: propertyListClasses, forKey: key)
    }

    /// The object at entry `index`, decoded if need be, provided its class is admitted by
    /// `allowedClasses` (`nil` admits every class). `key` names it in error messages.
    func object(at index: Int, allowedClasses: [AnyClass]?, key: String) -> AnyObject? {
        if let decoded = decodedObjects[index] {
            return admits(decoded.archivedClass, allowedClasses, key: key) ? decoded.object : nil
        }
        let decoded: (object: AnyObject, archivedClass: AnyClass)
        switch archive.entries[index] {
        case .null:
            return nil
        case .scalar(let scalar):
            decoded = Self.object(for: scalar)
            guard admits(decoded.archivedClass, allowedClasses, key: key) else { return nil }
        case .instance(let instance):
            guard let instanceObject = decodeInstance(instance, allowedClasses: allowedClasses, key: key) else {
                return nil
            }
            decoded = instanceObject
        case .classDescription, .invalid:
            // KeyedArchive rejects archives whose reachable entries are of these kinds.
            fail("object \(index) is not an object")
            return nil
        }
        decodedObjects[index] = decoded
        return decoded.object
    }

    /// The Foundation object for an inline value, as Linux's unarchiver returns it.
    private static func object(for scalar: KeyedArchive.Scalar) -> (object: AnyObject, archivedClass: AnyClass) {
        switch scalar {
        case .string(let string): (NSString(string: string), NSString.self)
        case .number(let number): (number, NSNumber.self)
        case .data(let data): (NSData(data: data), NSData.self)
        case .date(let date): (NSDate(timeIntervalSinceReferenceDate: date.timeIntervalSinceReferenceDate), NSDate.self)
        }
    }

    private func decodeInstance(
        _ instance: KeyedArchive.Instance, allowedClasses: [AnyClass]?, key: String
    ) -> (object: AnyObject, archivedClass: AnyClass)? {
        guard let archivedClass = resolveClass(of: instance),
              admits(archivedClass, allowedClasses, key: key),
              let constructedClass = constructedClass(for: archivedClass) else { return nil }
        fieldStack.append(instance.fields)
        allowedClassesStack.append(allowedClasses ?? [])
        defer {
            fieldStack.removeLast()
            allowedClassesStack.removeLast()
        }
        let object: AnyObject?
        if let kind = FoundationArchiveKind(exactly: constructedClass) {
            object = decodeFoundationObject(kind)
        } else {
            object = (constructedClass as? NSCoding.Type)?.init(coder: self).map { $0 as AnyObject }
        }
        guard failure == nil else { return nil }
        guard let object else {
            fail("an object of class \(String(reflecting: constructedClass)) could not be decoded")
            return nil
        }
        return (object, archivedClass)
    }

    /// The class the archive names for `instance`, found as Linux's unarchiver finds it: the
    /// class name, or else the first class hint that exists.
    private func resolveClass(of instance: KeyedArchive.Instance) -> AnyClass? {
        guard case .classDescription(let description) = archive.entries[instance.classIndex] else {
            fail("an object's $class is not a class description")
            return nil
        }
        let candidates = (description.name.map { [$0] } ?? []) + description.hints
        guard let cls = candidates.lazy.compactMap(ArchiveClassPolicy.resolveClass(named:)).first else {
            fail("no class named \(candidates.joined(separator: " or ")) exists")
            return nil
        }
        return cls
    }

    /// The class to instantiate for `archivedClass` (its `classForKeyedUnarchiver()`), provided
    /// both classes may be decoded.
    private func constructedClass(for archivedClass: AnyClass) -> AnyClass? {
        let constructedClass: AnyClass = (archivedClass as? NSObject.Type)?.classForKeyedUnarchiver() ?? archivedClass
        for cls in [archivedClass, constructedClass] {
            if let problem = ArchiveClassPolicy.problem(with: cls, requiresSecureCoding: isSecure) {
                fail(problem)
                return nil
            }
        }
        return constructedClass
    }

    /// Whether `cls` is admitted by `allowedClasses` (`nil` admits everything); records the
    /// failure otherwise, in the words of Apple's unarchiver.
    private func admits(_ cls: AnyClass, _ allowedClasses: [AnyClass]?, key: String) -> Bool {
        guard let allowedClasses, !ArchiveClassPolicy.isKind(cls, ofAnyOf: allowedClasses) else { return true }
        let allowed = allowedClasses.map { String(reflecting: $0) }.joined(separator: ", ")
        fail("value for key '\(key)' was of unexpected class '\(String(reflecting: cls))'. Allowed classes are [\(allowed)].")
        return false
    }

    // MARK: Inline values

    override func decodeBool(forKey key: String) -> Bool {
        number(forKey: key)?.boolValue ?? false
    }

    override func decodeInt32(forKey key: String) -> Int32 {
        integer(forKey: key)
    }

    override func decodeCInt(forKey key: String) -> Int32 {
        integer(forKey: key)
    }

    override func decodeInt64(forKey key: String) -> Int64 {
        integer(forKey: key)
    }

    override func decodeInteger(forKey key: String) -> Int {
        integer(forKey: key)
    }

    override func decodeFloat(forKey key: String) -> Float {
        number(forKey: key)?.floatValue ?? 0
    }

    override func decodeDouble(forKey key: String) -> Double {
        number(forKey: key)?.doubleValue ?? 0
    }

    override func withDecodedUnsafeBytes<ResultType>(
        forKey key: String, body: (UnsafeRawBufferPointer?) throws -> ResultType
    ) rethrows -> ResultType {
        guard let data = data(forKey: key) else { return try body(nil) }
        return try data.withUnsafeBytes { try body($0) }
    }

    /// The field under `key` in the object being decoded (`nil` if there is none).
    func field(forKey key: String) -> KeyedArchive.Field? {
        // NSKeyedArchiver escapes keys that start with "$", which it reserves, with another "$".
        let storedKey = key.hasPrefix("$") ? "$" + key : key
        return fieldStack.last?[storedKey]
    }

    /// The number under `key`; records a failure if the key holds something else.
    func number(forKey key: String) -> NSNumber? {
        guard failure == nil, let field = field(forKey: key) else { return nil }
        guard case .scalar(.number(let number)) = field else {
            fail("the value for key '\(key)' is not a number")
            return nil
        }
        return number
    }

    /// The bytes under `key`; records a failure if the key holds something else.
    func data(forKey key: String) -> Data? {
        guard failure == nil, let field = field(forKey: key) else { return nil }
        guard case .scalar(.data(let data)) = field else {
            fail("the value for key '\(key)' is not data")
            return nil
        }
        return data
    }

    /// The integer under `key`, or zero; records a failure if it does not fit `Integer`, where
    /// Apple's unarchiver raises a range exception.
    private func integer<Integer: FixedWidthInteger>(forKey key: String) -> Integer {
        guard let number = number(forKey: key) else { return 0 }
        guard let value = Integer(exactly: number.int64Value) else {
            fail("the value for key '\(key)' does not fit \(Integer.self)")
            return 0
        }
        return value
    }

    // MARK: Unkeyed coding

    // Keyed archives have no unkeyed values. NSCoder's implementations of these methods trap,
    // and a class's init(coder:) may call them, so they fail instead.

    override func decodeObject() -> Any? {
        fail("unkeyed decoding is not supported by keyed archives")
        return nil
    }

    override func decodeValue(ofObjCType type: UnsafePointer<CChar>, at data: UnsafeMutableRawPointer) {
        fail("unkeyed decoding is not supported by keyed archives")
    }

    override func decodeData() -> Data? {
        fail("unkeyed decoding is not supported by keyed archives")
        return nil
    }

    override func decodePropertyList() -> Any? {
        fail("unkeyed decoding is not supported by keyed archives")
        return nil
    }

    /// Records `reason` as a corrupt-archive failure.
    func fail(_ reason: String) {
        failWithError(CoreDataError.unreadableArchive(reason))
    }
}
