/// The name under which a value transformer is registered with
/// `ValueTransformer.setValueTransformer(_:forName:)`.
///
/// Linux Foundation has no value transformers, so Core Data declares the type with Apple's name,
/// constants and raw values. As on Apple platforms, a name is built with `init(_:)` or
/// `init(rawValue:)`; it is not a string literal.
public struct NSValueTransformerName: RawRepresentable, Hashable, Sendable {
    /// The string the name stands for.
    public let rawValue: String

    /// Creates a name from its string.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Creates a name from its string.
    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }
}

extension NSValueTransformerName {
    /// The transformer that negates a Boolean: `true` becomes `false` and `false` becomes `true`.
    /// A value that is not a number counts as `false`. The transformer is reversible.
    public static let negateBooleanTransformerName = NSValueTransformerName(rawValue: "NSNegateBoolean")

    /// The transformer that returns `true` if the value is `nil`. It is not reversible.
    public static let isNilTransformerName = NSValueTransformerName(rawValue: "NSIsNil")

    /// The transformer that returns `true` if the value is not `nil`. It is not reversible.
    public static let isNotNilTransformerName = NSValueTransformerName(rawValue: "NSIsNotNil")

    /// The transformer that unarchives data written by the non-keyed `NSArchiver`.
    ///
    /// Apple deprecated it; Linux Foundation has no `NSArchiver`, so no transformer is registered
    /// under this name and `ValueTransformer(forName:)` returns `nil` for it.
    @available(*, deprecated, renamed: "secureUnarchiveFromDataTransformerName")
    public static let unarchiveFromDataTransformerName = NSValueTransformerName(rawValue: "NSUnarchiveFromData")

    /// The transformer that unarchives keyed archives without secure coding: any class that
    /// adopts `NSCoding` may come out of the data. Its reverse transformation archives a value.
    @available(*, deprecated, renamed: "secureUnarchiveFromDataTransformerName")
    public static let keyedUnarchiveFromDataTransformerName = keyedUnarchiveFromData

    /// The transformer that unarchives keyed archives with secure coding, accepting only the
    /// classes of `NSSecureUnarchiveFromDataTransformer.allowedTopLevelClasses`. Its reverse
    /// transformation archives a value with secure coding.
    public static let secureUnarchiveFromDataTransformerName = NSValueTransformerName(rawValue: "NSSecureUnarchiveFromData")

    /// `keyedUnarchiveFromDataTransformerName` without Apple's deprecation, so that Core Data can
    /// register and look up the transformer without warnings.
    static let keyedUnarchiveFromData = NSValueTransformerName(rawValue: "NSKeyedUnarchiveFromData")
}
