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
