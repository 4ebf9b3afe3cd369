/// Which classes Core Data lets out of (and into) a keyed archive on Linux, and how archived
/// class names become classes.
///
/// A class qualifies when it descends from `NSObject`, adopts `NSCoding` (and, for secure
/// coding, `NSSecureCoding` with `supportsSecureCoding`), and either is one of the Foundation
/// classes of `FoundationArchiveKind` or comes from outside Foundation without inheriting
/// another Foundation class's `init(coder:)`: Linux Foundation's implementations expect its own
/// unarchiver and trap when given another coder. A class from outside Foundation must also
/// have a name an archive can give it (see `archivedName(of:)`).
enum ArchiveClassPolicy {
    /// The modules of the Swift toolchain, whose classes are qualified only through
    /// `FoundationArchiveKind`.
    private static let systemModules: Set<String> = [
        "Foundation", "FoundationEssentials", "FoundationInternationalization", "FoundationNetworking",
        "FoundationXML", "CoreFoundation", "Swift", "Dispatch",
    ]

    /// The class an archive names, found as Linux's unarchiver finds it: first the names set
    /// with `NSKeyedUnarchiver.setClass(_:forClassName:)`, then `NSClassFromString`.
    static func resolveClass(named name: String) -> AnyClass? {
        if let mapped = NSKeyedUnarchiver.class(forClassName: name) { return mapped }
        // Linux's NSClassFromString logs every name with more than one dot (nested classes,
        // which it cannot find); hostile archives must not fill the log.
        guard name.split(separator: ".", omittingEmptySubsequences: false).count <= 2 else { return nil }
        return NSClassFromString(name)
    }

    /// The name an archive gives `cls`, as Linux Foundation's `NSKeyedArchiver` writes it
    /// (`NSStringFromClass`: `MyApp.Swatch`, or `NSArray` for Foundation's classes), or `nil`
    /// if the class has none. Only top-level classes have one: `NSStringFromClass` stops the
    /// process for nested, generic and private classes (whose Swift names have more parts),
    /// and `NSClassFromString` could not find them again.
    static func archivedName(of cls: AnyClass) -> String? {
        guard String(reflecting: cls).split(separator: ".", omittingEmptySubsequences: false).count == 2 else { return nil }
        return NSStringFromClass(cls)
    }

    /// Why instances of `cls` cannot be archived or unarchived, or `nil` if they can.
    static func problem(with cls: AnyClass, requiresSecureCoding: Bool) -> String? {
        let name = String(reflecting: cls)
        guard let objectClass = cls as? NSObject.Type else {
            return "class \(name) does not descend from NSObject"
        }
        guard objectClass is NSCoding.Type else {
            return "class \(name) does not adopt NSCoding"
        }
        if requiresSecureCoding, (objectClass as? NSSecureCoding.Type)?.supportsSecureCoding != true {
            return "class \(name) does not support secure coding"
        }
        if isSystemClass(objectClass) {
            return FoundationArchiveKind(exactly: objectClass) == nil
                ? "Foundation class \(name) cannot be archived or unarchived by Core Data on Linux" : nil
        }
        if let ancestor = nearestSystemAncestor(of: objectClass), ancestor != NSObject.self {
            return "class \(name) inherits \(String(reflecting: ancestor)), whose archiving Linux Foundation implements only for its own coders"
        }
        guard archivedName(of: objectClass) != nil else {
            return "class \(name) has no name an archive can give it on Linux: only top-level classes that are neither generic nor private have one"
        }
        return nil
    }

    /// Whether `cls` is one of `allowed` or a subclass of one of them.
    static func isKind(_ cls: AnyClass, ofAnyOf allowed: [AnyClass]) -> Bool {
        guard let objectClass = cls as? NSObject.Type else { return false }
        return allowed.contains { objectClass.isSubclass(of: $0) }
    }

    /// Whether `cls` is declared by Foundation or another toolchain module.
    private static func isSystemClass(_ cls: AnyClass) -> Bool {
        let module = String(reflecting: cls).prefix { $0 != "." }
        return systemModules.contains(String(module))
    }

    /// The first class up the superclass chain of `cls` that a toolchain module declares.
    private static func nearestSystemAncestor(of cls: NSObject.Type) -> AnyClass? {
        var ancestor: AnyClass? = cls.superclass
        while let current = ancestor {
            if isSystemClass(current) { return current }
            ancestor = (current as? NSObject.Type)?.superclass
        }
        return nil
    }
}
