/// The delegate through which `KeyedArchiveEncoder` screens every object Linux's
/// `NSKeyedArchiver` is about to encode.
///
/// Linux's archiver ends the process on a value that does not support (secure) coding, on an
/// `NSDecimalNumber`, and on a collection that contains itself. Its delegate is asked about
/// each object before those checks run, so the gate substitutes `NSNull` for an object it
/// rejects and keeps the first reason, which `KeyedArchiveEncoder` throws once archiving is
/// over. (Substituting `nil`, as the delegate protocol allows, makes Linux's archiver unwrap
/// `nil` and trap.) Objects inside other objects are screened the same way, as the archiver
/// reaches them.
final class ArchivingGate: NSObject, NSKeyedArchiverDelegate {
    private let requiresSecureCoding: Bool
    /// The classes the root object must be an instance of (or of a subclass), if any.
    private let allowedRootClasses: [AnyClass]?
    /// Whether the next object the archiver asks about is the root.
    private var awaitingRoot = true
    /// Collections checked for cycles and depth, with their nesting. The entries keep the
    /// collections alive, so that identifiers are not reused while archiving.
    private var checkedCollections: [ObjectIdentifier: (collection: AnyObject, nesting: Int)] = [:]
    /// Why the first rejected object was rejected.
    private(set) var firstProblem: String?

    init(requiresSecureCoding: Bool, allowedRootClasses: [AnyClass]?) {
        self.requiresSecureCoding = requiresSecureCoding
        self.allowedRootClasses = allowedRootClasses
        super.init()
    }

    func archiver(_ archiver: NSKeyedArchiver, willEncode object: Any) -> Any? {
        let isRoot = awaitingRoot
        awaitingRoot = false
        guard let problem = problem(with: object, isRoot: isRoot) else { return object }
        if firstProblem == nil {
            firstProblem = "a value of type \(String(reflecting: type(of: object))) cannot be archived: \(problem)"
        }
        return NSNull()
    }

    func archiver(_ archiver: NSKeyedArchiver, didEncode object: Any?) {}

    func archiver(_ archiver: NSKeyedArchiver, willReplace object: Any?, withObject newObject: Any?) {}

    func archiverWillFinish(_ archiver: NSKeyedArchiver) {}

    func archiverDidFinish(_ archiver: NSKeyedArchiver) {}

    // MARK: Screening

    /// Why `value` cannot be archived, or `nil` if it can.
    private func problem(with value: Any, isRoot: Bool) -> String? {
        // The archiver bridges Swift values to Foundation objects the same way.
        guard let object = value as AnyObject as? NSObject else {
            return "it is not an object"
        }
        let archivedClass: AnyClass
        if Self.isStoredInline(object) {
            guard Self.isInlineClass(type(of: object)) else {
                return "Linux Foundation cannot archive \(String(reflecting: type(of: object)))"
            }
            archivedClass = object.classForCoder
        } else {
            if let problem = classProblem(with: object) { return problem }
            archivedClass = object.classForKeyedArchiver ?? type(of: object)
        }
        if isRoot, let allowedRootClasses, !ArchiveClassPolicy.isKind(archivedClass, ofAnyOf: allowedRootClasses) {
            return "\(String(reflecting: archivedClass)) is not one of the allowed top-level classes"
        }
        return nil
    }

    /// Why instances of the class of `object` (an object the archiver stores as a dictionary)
    /// cannot be archived, or `nil` if they can.
    private func classProblem(with object: NSObject) -> String? {
        let cls: AnyClass = type(of: object)
        let archivedClass: AnyClass = object.classForKeyedArchiver ?? cls
        for checked in [cls, archivedClass] {
            if let problem = ArchiveClassPolicy.problem(with: checked, requiresSecureCoding: requiresSecureCoding) {
                return problem
            }
        }
        guard FoundationArchiveKind(exactly: cls)?.isCollection == true else { return nil }
        do {
            _ = try nesting(of: object, depth: 1, path: [])
            return nil
        } catch {
            return error.reason
        }
    }

    /// Whether Linux's archiver stores `object` inline rather than as a dictionary; this is
    /// its own test.
    private static func isStoredInline(_ object: NSObject) -> Bool {
        let coderClass: AnyClass = object.classForCoder
        return coderClass == NSString.self || coderClass == NSNumber.self || coderClass == NSData.self
    }

    /// Whether Linux's archiver stores instances of exactly `cls` inline correctly. (It also
    /// stores `NSDecimalNumber` inline, and then recurses forever writing it.)
    private static func isInlineClass(_ cls: AnyClass) -> Bool {
        let booleanClass: AnyClass = type(of: true as AnyObject)
        return cls == NSString.self || cls == NSNumber.self || cls == NSData.self || cls == booleanClass
    }

    // MARK: Collections

    /// Why a collection cannot be archived.
    private struct CollectionProblem: Error {
        let reason: String
    }

    /// The length of the longest chain of collections inside `collection`, counting itself;
    /// throws if it contains itself or nests deeper than `KeyedArchive.maximumNesting`, past
    /// which Core Data would not read the archive back. `path` holds the collections that led
    /// here (alive, so that their identifiers stay unique).
    private func nesting(of collection: AnyObject, depth: Int, path: [AnyObject]) throws(CollectionProblem) -> Int {
        let identifier = ObjectIdentifier(collection)
        if path.contains(where: { $0 === collection }) {
            throw CollectionProblem(reason: "a collection contains itself")
        }
        guard depth <= KeyedArchive.maximumNesting else { throw Self.tooDeep }
        let nesting: Int
        if let checked = checkedCollections[identifier] {
            nesting = checked.nesting
        } else {
            var deepest = 0
            for element in Self.elements(of: collection) {
                let child = element as AnyObject
                guard let kind = FoundationArchiveKind(exactly: type(of: child)), kind.isCollection else { continue }
                deepest = max(deepest, try self.nesting(of: child, depth: depth + 1, path: path + [collection]))
            }
            nesting = deepest + 1
            checkedCollections[identifier] = (collection, nesting)
        }
        guard depth - 1 + nesting <= KeyedArchive.maximumNesting else { throw Self.tooDeep }
        return nesting
    }

    private static var tooDeep: CollectionProblem {
        CollectionProblem(reason: "collections are nested more than \(KeyedArchive.maximumNesting) levels deep")
    }

    /// The elements of an array or set, or the keys and values of a dictionary.
    private static func elements(of collection: AnyObject) -> [Any] {
        switch collection {
        case let dictionary as NSDictionary: dictionary.flatMap { [$0.key, $0.value] }
        case let array as NSArray: Array(array)
        case let set as NSSet: Array(set)
        default: []
        }
    }
}
