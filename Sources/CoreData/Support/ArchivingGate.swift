/// Screens the objects Linux's `NSKeyedArchiver` is given, so that `KeyedArchiveEncoder` throws
/// where the archiver would end the process.
///
/// Linux's archiver traps on a value that does not support (secure) coding and on a Foundation
/// class whose archiving is broken there; it recurses forever on `NSDecimalNumber` (whose hash
/// recurses) and on a collection that contains itself (whose elements bridge recursively). It
/// hashes each object before anything else, so `KeyedArchiveEncoder` screens the root, and the
/// gate screens each collection's contents, before the archiver touches them. Objects that
/// classes outside Foundation encode in `encode(with:)` are screened as the archiver's
/// delegate, which it asks about each object before its own checks: the gate substitutes
/// `NSNull` for a rejected object (substituting `nil`, as the delegate protocol allows, makes
/// Linux's archiver unwrap `nil` and trap) and keeps the first reason for
/// `KeyedArchiveEncoder` to throw.
final class ArchivingGate: NSObject, NSKeyedArchiverDelegate {
    private let requiresSecureCoding: Bool
    /// Collections already screened, with their nesting. The entries keep the collections
    /// alive, so that identifiers are not reused while archiving.
    private var screenedCollections: [ObjectIdentifier: (collection: AnyObject, nesting: Int)] = [:]
    /// Why the first object rejected while archiving was rejected.
    private(set) var firstProblem: String?

    init(requiresSecureCoding: Bool) {
        self.requiresSecureCoding = requiresSecureCoding
        super.init()
    }

    /// Why `root` cannot be archived, or `nil` if it can: because of its class (when
    /// `allowedClasses` is given, it must be an instance of one of them or of a subclass), or
    /// because of anything inside it that is a Foundation collection's content.
    func problem(withRoot root: Any, allowedClasses: [AnyClass]?) -> String? {
        if let problem = problem(with: root) { return problem }
        guard let allowedClasses else { return nil }
        let archivedClass: AnyClass = Self.archivedClass(of: root as AnyObject)
        guard ArchiveClassPolicy.isKind(archivedClass, ofAnyOf: allowedClasses) else {
            return "\(String(reflecting: archivedClass)) is not one of the allowed top-level classes"
        }
        return nil
    }

    // MARK: NSKeyedArchiverDelegate

    func archiver(_ archiver: NSKeyedArchiver, willEncode object: Any) -> Any? {
        guard let problem = problem(with: object) else { return object }
        if firstProblem == nil { firstProblem = problem }
        return NSNull()
    }

    func archiver(_ archiver: NSKeyedArchiver, didEncode object: Any?) {}

    func archiver(_ archiver: NSKeyedArchiver, willReplace object: Any?, withObject newObject: Any?) {}

    func archiverWillFinish(_ archiver: NSKeyedArchiver) {}

    func archiverDidFinish(_ archiver: NSKeyedArchiver) {}

    // MARK: Screening

    /// Why `value` (and, for a Foundation collection, its contents) cannot be archived.
    private func problem(with value: Any) -> String? {
        // The archiver bridges Swift values to Foundation objects the same way.
        let object = value as AnyObject
        if let problem = Self.problem(with: object, requiresSecureCoding: requiresSecureCoding) {
            return "a value of type \(String(reflecting: type(of: value))) cannot be archived: \(problem)"
        }
        guard FoundationArchiveKind(exactly: type(of: object))?.isCollection == true else { return nil }
        do {
            _ = try nesting(of: object, depth: 1, path: [])
            return nil
        } catch {
            return error.reason
        }
    }

    /// Why `object` itself (regardless of its contents) cannot be archived.
    private static func problem(with object: AnyObject, requiresSecureCoding: Bool) -> String? {
        guard let object = object as? NSObject else { return "it is not an object" }
        let cls: AnyClass = type(of: object)
        if String(reflecting: cls) == "Foundation.__SwiftValue" {
            // How Foundation boxes a Swift value that has no Foundation counterpart.
            return "it is a Swift value that Foundation does not bridge to an object"
        }
        if isStoredInline(object) {
            return isInlineClass(cls) ? nil : "Linux Foundation cannot archive \(String(reflecting: cls))"
        }
        for checked in [cls, archivedClass(of: object)] {
            if let problem = ArchiveClassPolicy.problem(with: checked, requiresSecureCoding: requiresSecureCoding) {
                return problem
            }
        }
        return nil
    }

    /// The class an archive records for `object`.
    private static func archivedClass(of object: AnyObject) -> AnyClass {
        guard let object = object as? NSObject else { return type(of: object) }
        return isStoredInline(object) ? object.classForCoder : object.classForKeyedArchiver ?? type(of: object)
    }

    /// Whether Linux's archiver stores `object` inline rather than as a dictionary; this is
    /// its own test.
    private static func isStoredInline(_ object: NSObject) -> Bool {
        let coderClass: AnyClass = object.classForCoder
        return coderClass == NSString.self || coderClass == NSNumber.self || coderClass == NSData.self
    }

    /// Whether Linux's archiver stores instances of exactly `cls` inline correctly (unlike
    /// `NSDecimalNumber`, which it also stores inline).
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
    /// throws if an element cannot be archived, if the collection contains itself, or if it
    /// nests deeper than `KeyedArchive.maximumNesting`, past which Core Data would not read
    /// the archive back. `path` holds the collections that led here.
    private func nesting(of collection: AnyObject, depth: Int, path: [AnyObject]) throws(CollectionProblem) -> Int {
        if path.contains(where: { $0 === collection }) {
            throw CollectionProblem(reason: "a collection contains itself")
        }
        guard depth <= KeyedArchive.maximumNesting else { throw Self.tooDeep }
        let identifier = ObjectIdentifier(collection)
        let nesting: Int
        if let screened = screenedCollections[identifier] {
            nesting = screened.nesting
        } else {
            var deepest = 0
            for element in Self.elements(of: collection) {
                if let problem = Self.problem(with: element, requiresSecureCoding: requiresSecureCoding) {
                    throw CollectionProblem(
                        reason: "a collection holds a value of type \(String(reflecting: type(of: element))), which cannot be archived: \(problem)"
                    )
                }
                guard FoundationArchiveKind(exactly: type(of: element))?.isCollection == true else { continue }
                deepest = max(deepest, try self.nesting(of: element, depth: depth + 1, path: path + [collection]))
            }
            nesting = deepest + 1
            screenedCollections[identifier] = (collection, nesting)
        }
        guard depth - 1 + nesting <= KeyedArchive.maximumNesting else { throw Self.tooDeep }
        return nesting
    }

    private static var tooDeep: CollectionProblem {
        CollectionProblem(reason: "collections are nested more than \(KeyedArchive.maximumNesting) levels deep")
    }

    /// The elements of an array or set, or the keys and values of a dictionary, as stored.
    ///
    /// They are read through `Mirror`, which Linux Foundation's collections answer with their
    /// storage: their own accessors bridge nested collections to Swift collections, recursively,
    /// which never ends for a collection that contains itself.
    private static func elements(of collection: AnyObject) -> [AnyObject] {
        Mirror(reflecting: collection).children.flatMap { child -> [AnyObject] in
            let entry = Mirror(reflecting: child.value)
            guard entry.displayStyle == .tuple else { return [child.value as AnyObject] }
            return entry.children.map { $0.value as AnyObject }
        }
    }
}
