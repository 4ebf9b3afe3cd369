/// The description of an attribute: a property holding a value such as a number, string or date.
// Like every property description: mutable while the model is built, read-only once it is frozen.
open class NSAttributeDescription: NSPropertyDescription, @unchecked Sendable {
    /// The type of the attribute's values.
    public var attributeType: NSAttributeType = .undefinedAttributeType {
        willSet { assertEditable() }
    }

    /// The name of the class of the attribute's values.
    ///
    /// Set it for transformable attributes; for other types it is derived from `attributeType`.
    public var attributeValueClassName: String? {
        get { storedValueClassName ?? attributeType.valueClassName }
        set { assertEditable(); storedValueClassName = newValue }
    }

    /// The value a newly inserted object starts with.
    public var defaultValue: Any? {
        willSet { assertEditable() }
    }

    /// The name of the `ValueTransformer` of a transformable attribute.
    ///
    /// When it is nil, transformable values are archived with `NSKeyedUnarchiveFromData`, which
    /// takes any class that adopts `NSCoding`, and Core Data logs a warning once, as on Apple
    /// platforms. A name must be registered with `ValueTransformer.setValueTransformer(_:forName:)`;
    /// Core Data finds `NSSecureUnarchiveFromDataTransformer` by its class name itself.
    public var valueTransformerName: String? {
        willSet { assertEditable() }
    }

    /// Whether large binary values may be kept in files beside the store instead of in the row.
    public var allowsExternalBinaryDataStorage: Bool = false {
        willSet { assertEditable() }
    }

    /// Whether persistent history keeps this value in the tombstone of a deleted object.
    public var preservesValueInHistoryOnDeletion: Bool = false {
        willSet { assertEditable() }
    }

    /// Whether CloudKit encrypts the value. Stored for compatibility; it has no effect on Linux.
    public var allowsCloudEncryption: Bool = false {
        willSet { assertEditable() }
    }

    /// Whether generated code gives the attribute a Swift scalar type (`Int64`, `Bool`) rather
    /// than an optional object (`NSNumber?`), from a model file's `usesScalarValueType`; nil
    /// when the file does not say, which generates an object type, as `NO` does.
    package var usesScalarValueType: Bool?

    private var storedValueClassName: String?

    override func copyProperties(from other: NSPropertyDescription) {
        super.copyProperties(from: other)
        guard let other = other as? NSAttributeDescription else { return }
        attributeType = other.attributeType
        storedValueClassName = other.storedValueClassName
        defaultValue = other.defaultValue
        valueTransformerName = other.valueTransformerName
        allowsExternalBinaryDataStorage = other.allowsExternalBinaryDataStorage
        preservesValueInHistoryOnDeletion = other.preservesValueInHistoryOnDeletion
        allowsCloudEncryption = other.allowsCloudEncryption
        usesScalarValueType = other.usesScalarValueType
    }

    open override var description: String {
        "\(super.description), attributeType \(attributeType.rawValue), attributeValueClassName \(attributeValueClassName ?? "nil"), defaultValue \(defaultValue.map { "\($0)" } ?? "nil")"
    }
}
