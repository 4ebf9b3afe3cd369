/// Makes a class a persistent model: its stored properties become the attributes and
/// relationships of an entity, and the class conforms to `PersistentModel` and `Observable`.
///
/// Mark a stored property `@Transient` to leave it out of the schema; describe attributes with
/// `@Attribute` and relationships with `@Relationship`.
@attached(member, names: named(_$backingData), named(persistentBackingData), named(schemaMetadata), named(init), named(_$observationRegistrar), named(_SwiftDataNoType), named(_$modelConstraints), named(_$constantOrdinals), arbitrary)
@attached(memberAttribute)
@attached(extension, conformances: PersistentModel, Observable)
public macro Model() = #externalMacro(module: "SwiftDataMacros", type: "PersistentModelMacro")

/// The accessors of a persisted property, which `@Model` attaches to each stored property.
@attached(accessor, names: named(init), named(get), named(set))
@attached(peer, names: prefixed(_))
public macro _PersistedProperty(_ ordinal: Int) = #externalMacro(module: "SwiftDataMacros", type: "PersistedPropertyMacro")

/// Describes how a model's property is stored.
///
/// - Parameters:
///   - options: How to store the value: `.unique`, `.externalStorage`, `.transformable(by:)`, and others.
///   - originalName: The property's name in the previous version of the schema, for migration.
///   - hashModifier: A string that changes the property's version hash without changing its shape.
@attached(peer)
public macro Attribute(_ options: Schema.Attribute.Option..., originalName: String? = nil, hashModifier: String? = nil) = #externalMacro(module: "SwiftDataMacros", type: "PropertyOptionsMacro")

/// Describes a relationship between models.
///
/// - Parameters:
///   - options: The relationship's options.
///   - deleteRule: What deleting the model does to the related models; `.nullify` by default.
///   - minimumModelCount: The fewest related models the relationship may hold.
///   - maximumModelCount: The most related models the relationship may hold; 0 means no limit.
///   - originalName: The relationship's name in the previous version of the schema.
///   - inverse: The key path of the relationship on the other side.
///   - hashModifier: A string that changes the relationship's version hash.
@attached(peer)
public macro Relationship(
    _ options: Schema.Relationship.Option...,
    deleteRule: Schema.Relationship.DeleteRule = .nullify,
    minimumModelCount: Int? = 0,
    maximumModelCount: Int? = 0,
    originalName: String? = nil,
    inverse: AnyKeyPath? = nil,
    hashModifier: String? = nil
) = #externalMacro(module: "SwiftDataMacros", type: "PropertyOptionsMacro")

/// Leaves a stored property out of the schema: its value lives only in memory.
@attached(peer)
public macro Transient() = #externalMacro(module: "SwiftDataMacros", type: "PropertyOptionsMacro")

/// Declares groups of properties whose values together are unique among the models of the type.
@freestanding(declaration)
public macro Unique<T: PersistentModel>(_ constraints: [PartialKeyPath<T>]...) = #externalMacro(module: "SwiftDataMacros", type: "ModelConstraintMacro")

/// Declares indexes over groups of a model's properties.
@freestanding(declaration)
public macro Index<T: PersistentModel>(_ indices: [PartialKeyPath<T>]...) = #externalMacro(module: "SwiftDataMacros", type: "ModelConstraintMacro")

/// Gives an actor a model context of its own, which the actor's executor runs on.
@attached(member, names: named(modelExecutor), named(modelContainer), named(init))
@attached(extension, conformances: ModelActor)
public macro ModelActor() = #externalMacro(module: "SwiftDataMacros", type: "ModelActorMacro")
