/// How to migrate a store from one model version to another: an ordered list of entity mappings.
///
/// Core Data infers a mapping model for lightweight migration
/// (`inferredMappingModel(forSourceModel:destinationModel:)`); for other changes, build one in code
/// and hand it to an `NSMigrationManager`. The order of `entityMappings` is the order in which a
/// migration processes them.
open class NSMappingModel: NSObject {
    /// The entity mappings, in processing order.
    open var entityMappings: [NSEntityMapping]! = []

    /// The entity mappings by name.
    open var entityMappingsByName: [String: NSEntityMapping] {
        Dictionary((entityMappings ?? []).compactMap { mapping in mapping.name.map { ($0, mapping) } }, uniquingKeysWith: { first, _ in first })
    }

    public override init() {
        super.init()
    }

    /// Infers the mapping model of a lightweight migration between two models.
    ///
    /// Entities and properties correspond by `renamingIdentifier` (or name). The inference accepts
    /// the changes `spec/semantics.md` MIG-8 lists: added and removed attributes, relationships
    /// and entities; renames; optionality changes; type changes between numeric types (booleans
    /// included); to-one to to-many; ordering; entities moving in, out of or within a hierarchy.
    /// Like Apple's, the inferred mappings are named `IEM_Copy_<Entity>`, `IEM_Transform_<Entity>`,
    /// `IEM_Add_<Entity>` and `IEM_Remove_<Entity>`.
    ///
    /// - Throws: `NSInferredMappingModelError` (134190), naming the change that cannot be inferred,
    ///   for example two source hierarchies merged into one, a to-many relationship becoming
    ///   to-one, or an attribute type change with no conversion.
    open class func inferredMappingModel(forSourceModel sourceModel: NSManagedObjectModel, destinationModel: NSManagedObjectModel) throws -> NSMappingModel {
        try MappingInference(source: sourceModel, destination: destinationModel).mappingModel()
    }

    open override var description: String {
        "(<NSMappingModel>) entityMappings \((entityMappings ?? []).map { $0.name ?? "nil" })"
    }
}
