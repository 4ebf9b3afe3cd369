/// A property of a schema's entity: an attribute or a relationship.
public protocol SchemaProperty: AnyObject, Hashable {
    /// The property's name.
    var name: String { get set }
    /// The property's name in the previous version of the schema, or its name.
    var originalName: String { get set }
    /// The Swift type of the property's values.
    var valueType: any Any.Type { get set }
    /// Whether the property is an attribute.
    var isAttribute: Bool { get }
    /// Whether the property is a relationship.
    var isRelationship: Bool { get }
    /// Whether the property's values live only in memory.
    var isTransient: Bool { get }
    /// Whether the property may have no value.
    var isOptional: Bool { get }
    /// Whether the property's values are unique among the models of the entity.
    var isUnique: Bool { get }
}
