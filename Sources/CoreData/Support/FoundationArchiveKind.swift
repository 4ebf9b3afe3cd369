/// The Foundation classes whose archived form Core Data reads and writes itself on Linux.
///
/// Linux Foundation's own `init(coder:)` implementations trap on malformed archives (an
/// `NSString` without its string, an `NSDictionary` whose keys and values differ in number, the
/// internal `_NSCF…` classes), so `KeyedArchiveDecoder` never calls them: it builds these
/// classes from checked fields, `KeyedArchiveEncoder` writes them in the same layout, and every
/// other Foundation class is refused. Each case names the exact class; subclasses are not
/// covered.
enum FoundationArchiveKind {
    case array
    case mutableArray
    case dictionary
    case mutableDictionary
    case set
    case mutableSet
    case string
    case mutableString
    case data
    case mutableData
    case date
    case url
    case uuid
    case null

    /// The kind of exactly `cls`, or `nil` if Core Data does not decode that class itself.
    init?(exactly cls: AnyClass) {
        guard let kind = Self.classes.first(where: { $0.class == cls })?.kind else { return nil }
        self = kind
    }

    /// Each class with its kind. Computed rather than stored, because class objects are not
    /// `Sendable` in Swift 6.
    private static var classes: [(class: AnyClass, kind: FoundationArchiveKind)] {
        [
            (NSArray.self, .array), (NSMutableArray.self, .mutableArray),
            (NSDictionary.self, .dictionary), (NSMutableDictionary.self, .mutableDictionary),
            (NSSet.self, .set), (NSMutableSet.self, .mutableSet),
            (NSString.self, .string), (NSMutableString.self, .mutableString),
            (NSData.self, .data), (NSMutableData.self, .mutableData),
            (NSDate.self, .date), (NSURL.self, .url), (NSUUID.self, .uuid), (NSNull.self, .null),
        ]
    }
}
