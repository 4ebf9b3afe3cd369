internal import CoreData

/// The layout of a `Codable` value that Core Data holds as a composite attribute: one element per
/// key its decoding asks for, in the order it asks for them.
///
/// The element names are the type's coding keys, which synthesized `Codable` conformances take
/// from the property names; Apple's SwiftData uses the property names even where `CodingKeys`
/// rename them.
struct CompositeShape: Sendable, Equatable {
    /// A value the composite holds under one name.
    struct Element: Sendable, Equatable {
        /// The coding key's string value.
        var name: String
        /// How the element holds its value.
        var kind: Kind
        /// Whether the value may be absent (its decoding uses `decodeIfPresent` or `decodeNil`).
        var isOptional: Bool
    }

    /// How an element holds its value.
    indirect enum Kind: Sendable, Equatable {
        /// A value Core Data holds as an attribute of this type (a `StoredValue`).
        case value(NSAttributeType)
        /// A `RawRepresentable` held as its raw value, an attribute of this type.
        case rawValue(NSAttributeType)
        /// A value with a composite shape of its own, held as a nested composite attribute.
        case composite(CompositeShape)
    }

    /// The elements, in the order the type's decoding asks for them.
    var elements: [Element]
}
