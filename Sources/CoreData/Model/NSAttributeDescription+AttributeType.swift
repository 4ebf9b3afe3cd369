extension NSAttributeDescription {
    /// The type of an attribute, in the form Apple added in iOS 15 (`attribute.type = .string`).
    public struct AttributeType: Hashable, Sendable, RawRepresentable {
        public let rawValue: NSAttributeType

        public init(rawValue: NSAttributeType) { self.rawValue = rawValue }

        /// Wraps an `NSAttributeType`.
        public init(_ type: NSAttributeType) { self.rawValue = type }

        public static let undefined = AttributeType(.undefinedAttributeType)
        public static let integer16 = AttributeType(.integer16AttributeType)
        public static let integer32 = AttributeType(.integer32AttributeType)
        public static let integer64 = AttributeType(.integer64AttributeType)
        public static let decimal = AttributeType(.decimalAttributeType)
        public static let double = AttributeType(.doubleAttributeType)
        public static let float = AttributeType(.floatAttributeType)
        public static let string = AttributeType(.stringAttributeType)
        public static let boolean = AttributeType(.booleanAttributeType)
        public static let date = AttributeType(.dateAttributeType)
        public static let binaryData = AttributeType(.binaryDataAttributeType)
        public static let uuid = AttributeType(.UUIDAttributeType)
        public static let uri = AttributeType(.URIAttributeType)
        public static let transformable = AttributeType(.transformableAttributeType)
        public static let objectID = AttributeType(.objectIDAttributeType)
        public static let composite = AttributeType(.compositeAttributeType)
    }

    /// The attribute's type, as an `AttributeType` value.
    public var type: AttributeType {
        get { AttributeType(attributeType) }
        set { attributeType = newValue.rawValue }
    }
}
