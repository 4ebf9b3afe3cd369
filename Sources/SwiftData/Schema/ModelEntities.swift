internal import CoreData

/// The Core Data models of the schemas in use, and the entity each model class's new models
/// start in.
///
/// A model made before it is inserted needs an entity for its values; it takes that of the
/// latest container whose schema has its class (or of a schema of its own class, when no
/// container has it yet). Schemas of the same classes and version share one Core Data model, so
/// that such a model is inserted into any of their containers as it is.
// All mutable state is guarded by `lock`.
final class ModelEntities: @unchecked Sendable {
    static let shared = ModelEntities()

    private let lock = NSLock()
    private var models: [SchemaKey: NSManagedObjectModel] = [:]
    private var entitiesByClass: [ObjectIdentifier: NSEntityDescription] = [:]

    private struct SchemaKey: Hashable {
        let types: Set<ObjectIdentifier>
        let version: Schema.Version
        let configurations: [String: Set<String>]
    }

    /// The Core Data model of a schema, built once per set of classes, version and store
    /// configurations (each configuration's entity names, besides "default" with them all).
    func model(for schema: Schema, configurations: [String: Set<String>] = [:]) throws -> NSManagedObjectModel {
        let key = SchemaKey(types: Set(schema.modelTypes.map(ObjectIdentifier.init)), version: schema.version, configurations: configurations)
        if let known = lock.withLock({ models[key] }) {
            adopt(known, of: schema)
            return known
        }
        let built = try ManagedModelBuilder.model(for: schema, configurations: configurations)
        let model = lock.withLock {
            if let raced = models[key] { return raced }
            models[key] = built
            return built
        }
        adopt(model, of: schema)
        return model
    }

    /// The entity new models of a class start in.
    func entity(for type: any PersistentModel.Type) -> NSEntityDescription {
        if let known = lock.withLock({ entitiesByClass[ObjectIdentifier(type)] }) { return known }
        guard let model = try? model(for: Schema([type])), let entity = model.entitiesByName[Schema.entityName(of: type)] else {
            preconditionFailure("\(type) cannot be persisted; making a ModelContainer for it gives the reason.")
        }
        return entity
    }

    private func adopt(_ model: NSManagedObjectModel, of schema: Schema) {
        lock.withLock {
            for type in schema.modelTypes {
                entitiesByClass[ObjectIdentifier(type)] = model.entitiesByName[Schema.entityName(of: type)]
            }
        }
    }
}
