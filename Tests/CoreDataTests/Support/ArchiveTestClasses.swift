@testable import CoreData

/// A secure-coding class from outside Foundation: an inline number, text decoded with a
/// narrower class list, and an optional child of its own class.
final class ArchivedPoint: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }

    let x: Double
    let label: String?
    let child: ArchivedPoint?

    init(x: Double, label: String?, child: ArchivedPoint? = nil) {
        self.x = x
        self.label = label
        self.child = child
        super.init()
    }

    func encode(with coder: NSCoder) {
        coder.encode(x, forKey: "x")
        coder.encode(label, forKey: "label")
        coder.encode(child, forKey: "child")
    }

    required init?(coder: NSCoder) {
        x = coder.decodeDouble(forKey: "x")
        label = coder.decodeObject(of: [NSString.self], forKey: "label") as? String
        child = coder.decodeObject(of: ArchivedPoint.self, forKey: "child")
        super.init()
    }

    override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? ArchivedPoint else { return false }
        return x == other.x && label == other.label && child == other.child
    }

    override var hash: Int { x.hashValue }
}

/// A class that adopts `NSCoding` but not `NSSecureCoding`.
final class InsecureNote: NSObject, NSCoding {
    let text: String

    init(text: String) {
        self.text = text
        super.init()
    }

    func encode(with coder: NSCoder) {
        coder.encode(text, forKey: "text")
    }

    required init?(coder: NSCoder) {
        guard let text = coder.decodeObject(forKey: "text") as? String else { return nil }
        self.text = text
        super.init()
    }
}

/// A secure-coding class whose decoding always fails.
final class FailingObject: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }

    override init() {
        super.init()
    }

    func encode(with coder: NSCoder) {}

    required init?(coder: NSCoder) {
        nil
    }
}

/// A secure-coding class that reads an unkeyed value, which keyed archives do not have.
final class UnkeyedReader: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }

    func encode(with coder: NSCoder) {}

    required init?(coder: NSCoder) {
        _ = coder.decodeObject()
        super.init()
    }
}

/// A secure-coding class whose encoding includes an object that is not codable.
final class LeakyEncoder: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }

    override init() {
        super.init()
    }

    func encode(with coder: NSCoder) {
        coder.encode(NSObject(), forKey: "plain")
    }

    required init?(coder: NSCoder) {
        super.init()
    }
}

/// A subclass of a Foundation collection (an empty array), whose inherited `init(coder:)` only
/// works with Linux Foundation's own unarchiver.
final class ArraySubclass: NSArray {
    override var count: Int { 0 }

    override func object(at index: Int) -> Any { NSNull() }
}

/// A transformer for `ArchivedPoint` roots.
final class PointTransformer: NSSecureUnarchiveFromDataTransformer {
    override class var allowedTopLevelClasses: [AnyClass] { [ArchivedPoint.self] }
}

/// A transformer that declares `ArchivedPoint` as its value class.
final class PointClassTransformer: NSSecureUnarchiveFromDataTransformer {
    override class func transformedValueClass() -> AnyClass { ArchivedPoint.self }
}

/// A transformer for roots of any class, so that tests reach the class checks below the root.
final class AnyObjectTransformer: NSSecureUnarchiveFromDataTransformer {
    override class var allowedTopLevelClasses: [AnyClass] { [NSObject.self] }
}

/// An app's class that adopts `NSCoding` only, as classes stored in transformable attributes
/// without a transformer name often do. Its `init?(coder:)` reads each kind of keyed value an
/// initializer commonly reads, and leaves out `note` when it is nil.
final class ArchivedSwatch: NSObject, NSCoding {
    let name: String
    let count: Int
    let level: Int32
    let serial: Int64
    let weight: Double
    let opacity: Float
    let isPinned: Bool
    let bytes: Data
    let added: Date
    let tags: [String]
    let note: String?

    init(name: String, count: Int = 0, level: Int32 = 0, serial: Int64 = 0, weight: Double = 0, opacity: Float = 0, isPinned: Bool = false, bytes: Data = Data(), added: Date = Date(timeIntervalSinceReferenceDate: 0), tags: [String] = [], note: String? = nil) {
        self.name = name
        self.count = count
        self.level = level
        self.serial = serial
        self.weight = weight
        self.opacity = opacity
        self.isPinned = isPinned
        self.bytes = bytes
        self.added = added
        self.tags = tags
        self.note = note
        super.init()
    }

    func encode(with coder: NSCoder) {
        coder.encode(name, forKey: "name")
        coder.encode(count, forKey: "count")
        coder.encode(level, forKey: "level")
        coder.encode(serial, forKey: "serial")
        coder.encode(weight, forKey: "weight")
        coder.encode(opacity, forKey: "opacity")
        coder.encode(isPinned, forKey: "isPinned")
        coder.encode(bytes, forKey: "bytes")
        coder.encode(added, forKey: "added")
        coder.encode(tags, forKey: "tags")
        if let note {
            coder.encode(note, forKey: "note")
        }
    }

    required init?(coder: NSCoder) {
        guard coder.allowsKeyedCoding,
              let name = coder.decodeObject(forKey: "name") as? String,
              let bytes = coder.decodeObject(of: NSData.self, forKey: "bytes"),
              let added = coder.decodeObject(forKey: "added") as? Date,
              let tags = coder.decodeObject(of: [NSArray.self, NSString.self], forKey: "tags") as? [String] else { return nil }
        self.name = name
        count = coder.decodeInteger(forKey: "count")
        level = coder.decodeInt32(forKey: "level")
        serial = coder.decodeInt64(forKey: "serial")
        weight = coder.decodeDouble(forKey: "weight")
        opacity = coder.decodeFloat(forKey: "opacity")
        isPinned = coder.decodeBool(forKey: "isPinned")
        self.bytes = bytes as Data
        self.added = added
        self.tags = tags
        note = coder.containsValue(forKey: "note") ? coder.decodeObject(forKey: "note") as? String : nil
        super.init()
    }

    override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? ArchivedSwatch else { return false }
        return name == other.name && count == other.count && level == other.level && serial == other.serial
            && weight == other.weight && opacity == other.opacity && isPinned == other.isPinned
            && bytes == other.bytes && added == other.added && tags == other.tags && note == other.note
    }

    override var hash: Int { name.hashValue }
}

/// A secure-coding class that records what its coder told it while decoding.
final class CoderObserver: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }

    /// The coder's `requiresSecureCoding` and `allowsKeyedCoding` during `init?(coder:)`.
    private(set) var sawSecureCoding = false
    private(set) var sawKeyedCoding = false

    override init() {
        super.init()
    }

    func encode(with coder: NSCoder) {
        coder.encode(true, forKey: "flag")
    }

    required init?(coder: NSCoder) {
        sawSecureCoding = coder.requiresSecureCoding
        sawKeyedCoding = coder.allowsKeyedCoding
        super.init()
    }
}

/// A class whose `init?(coder:)` reports its own error with `failWithError(_:)`, as Apple
/// documents for initializers that find their fields invalid.
final class SelfRejectingObject: NSObject, NSCoding {
    static let reason = "the swatch's name is empty"

    override init() {
        super.init()
    }

    func encode(with coder: NSCoder) {}

    required init?(coder: NSCoder) {
        coder.failWithError(CocoaError(.coderReadCorrupt, userInfo: [NSDebugDescriptionErrorKey: Self.reason]))
        return nil
    }
}

/// Classes whose names no archive can give: Linux Foundation's `NSStringFromClass` stops the
/// process for them, and `NSClassFromString` cannot find them.
enum UnnameableArchiveClasses {
    class Nested: NSObject, NSCoding {
        override init() {
            super.init()
        }

        func encode(with coder: NSCoder) {}

        required init?(coder: NSCoder) {
            super.init()
        }
    }
}

/// A generic class, which has no name an archive can give either.
final class GenericArchivedBox<Value>: NSObject, NSCoding {
    override init() {
        super.init()
    }

    func encode(with coder: NSCoder) {}

    required init?(coder: NSCoder) {
        super.init()
    }
}

/// A top-level class whose superclass is nested: it is named in archives, its ancestor is not.
final class SubclassOfNested: UnnameableArchiveClasses.Nested {}
