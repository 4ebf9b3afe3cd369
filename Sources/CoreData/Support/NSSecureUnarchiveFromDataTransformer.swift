/// A value transformer that converts data to and from classes that support secure coding, with
/// Apple's API.
///
/// `transformedValue(_:)` unarchives a keyed archive (`Data` in, object out) and
/// `reverseTransformedValue(_:)` archives an object with secure coding (object in, `Data` out).
/// Both return `nil` when they cannot, as Apple's do; malformed or hostile data never stops
/// the process. The root object must be an instance of one of `allowedTopLevelClasses` (or of a
/// subclass); subclasses override that property to transform their own classes.
///
/// On Linux, Core Data reads and writes binary keyed archives itself (`KeyedArchiveDecoder`,
/// `KeyedArchiveEncoder`) instead of with Linux Foundation's keyed coders, which trap on
/// malformed input and on values they cannot handle. It handles the Foundation classes of the
/// default list (with their mutable subclasses) and any top-level class outside Foundation that
/// adopts `NSSecureCoding` and descends from `NSObject` without inheriting another Foundation
/// class; other Foundation classes (`NSDecimalNumber`, `NSOrderedSet`, `NSAttributedString`, …)
/// are refused, and so are XML archives and object graphs with cycles.
open class NSSecureUnarchiveFromDataTransformer: ValueTransformer, ArchivingTransformer {
    /// The classes the top-level object of an archive must be an instance of (or of a
    /// subclass of), when decoding and when encoding.
    ///
    /// If a subclass overrides `transformedValueClass()`, this is that class. Otherwise it is
    /// `NSArray`, `NSDictionary`, `NSSet`, `NSString`, `NSNumber`, `NSDate`, `NSData`, `NSURL`,
    /// `NSUUID` and `NSNull`. (Apple's transformer returns `Nil` from `transformedValueClass()`
    /// to mean "no particular class"; Swift cannot, so the inherited `NSObject` means it here.)
    open class var allowedTopLevelClasses: [AnyClass] {
        let declaredClass: AnyClass = transformedValueClass()
        guard declaredClass == NSObject.self else { return [declaredClass] }
        return [
            NSArray.self, NSDictionary.self, NSSet.self, NSString.self, NSNumber.self,
            NSDate.self, NSData.self, NSURL.self, NSUUID.self, NSNull.self,
        ]
    }

    /// Unarchives `value`, which must be `Data`; returns `nil` if it is not a keyed archive of
    /// an allowed class, or is `nil`.
    open override func transformedValue(_ value: Any?) -> Any? {
        guard let data = value as? Data else { return nil }
        return try? unarchivedValue(from: data)
    }

    /// Archives `value` with secure coding; returns `nil` if it is `nil` or cannot be archived.
    open override func reverseTransformedValue(_ value: Any?) -> Any? {
        guard let value else { return nil }
        return try? archivedData(from: value)
    }

    func unarchivedValue(from data: Data) throws -> Any? {
        try KeyedArchiveDecoder.decodeRootObject(from: data, allowedClasses: Self.allowedTopLevelClasses)
    }

    func archivedData(from value: Any) throws -> Data {
        try KeyedArchiveEncoder.archivedData(
            withRootObject: value, requiringSecureCoding: true, allowedRootClasses: Self.allowedTopLevelClasses
        )
    }
}
