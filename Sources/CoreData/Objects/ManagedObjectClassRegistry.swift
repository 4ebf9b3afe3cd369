/// Resolves an entity's `managedObjectClassName` to a class, and a class to its entity.
///
/// Linux has no Objective-C runtime to look classes up by bare name, so resolution tries, in order:
/// classes already seen (through `init(context:)`, `entity()`, `fetchRequest()`, or a fetch request
/// whose result type is the class, as generated `fetchRequest()` methods make),
/// `NSClassFromString` with the name as written (module-qualified names such as `MyApp.Movie`),
/// and the unqualified name in the candidate modules: the main module, the modules of classes
/// already seen, and the modules of the SwiftPM resource bundles beside the executable (where the
/// `CoreDataCodegen` plugin's classes live, beside the model they were generated from). When
/// nothing resolves, `NSManagedObject` is used, as on Apple platforms.
// All mutable state is guarded by `lock`.
final class ManagedObjectClassRegistry: @unchecked Sendable {
    static let shared = ManagedObjectClassRegistry()

    private let lock = NSLock()
    private var classesByName: [String: NSManagedObject.Type] = [:]
    private var registeredTypes: Set<ObjectIdentifier> = []
    private var modules: Set<String> = []
    /// The entity found for each (class, model) pair, so `init(context:)` searches once.
    private var entitiesByClass: [EntityKey: NSEntityDescription] = [:]

    private struct EntityKey: Hashable {
        let type: ObjectIdentifier
        let model: ObjectIdentifier
    }

    init() {
        if let executable = Bundle.main.executableURL?.deletingPathExtension().lastPathComponent {
            modules.insert(executable.replacingOccurrences(of: "-", with: "_"))
        }
        modules.formUnion(SwiftPMResourceBundles.moduleNames())
    }

    /// Remembers a class under its qualified and unqualified names.
    func register(_ type: NSManagedObject.Type) {
        guard type != NSManagedObject.self else { return }
        lock.withLock {
            guard registeredTypes.insert(ObjectIdentifier(type)).inserted else { return }
            let qualified = String(reflecting: type)
            classesByName[qualified] = type
            if let dot = qualified.firstIndex(of: ".") {
                modules.insert(String(qualified[..<dot]))
                classesByName[String(qualified[qualified.index(after: dot)...])] = type
            }
        }
    }

    /// The class named by an entity's `managedObjectClassName`.
    func resolveClass(named className: String?) -> NSManagedObject.Type {
        guard var name = className, !name.isEmpty, name != "NSManagedObject" else { return NSManagedObject.self }
        if name.hasPrefix(".") { name.removeFirst() }
        if let known = lock.withLock({ classesByName[name] }) { return known }
        if let found = lookUpClass(named: name, of: NSManagedObject.self) {
            return remember(found, as: name)
        }
        return NSManagedObject.self
    }

    /// A subclass of `base` by name: through `NSClassFromString` as written, then, for an
    /// unqualified name, in each candidate module. Migration policies are found this way too.
    func lookUpClass<Base: AnyObject>(named name: String, of base: Base.Type) -> Base.Type? {
        if let found = NSClassFromString(name) as? Base.Type { return found }
        guard !name.contains(".") else { return nil }
        let candidateModules = lock.withLock { modules }
        return candidateModules.sorted().lazy.compactMap { NSClassFromString("\($0).\(name)") as? Base.Type }.first
    }

    /// The entity of a model (or of any model in use, when nil) whose class is `type`.
    func entity(for type: NSManagedObject.Type, in model: NSManagedObjectModel?) -> NSEntityDescription? {
        if let model {
            let key = EntityKey(type: ObjectIdentifier(type), model: ObjectIdentifier(model))
            // The entity must still belong to this model: a new model may reuse a freed one's address.
            if let known = lock.withLock({ entitiesByClass[key] }), known.managedObjectModel === model { return known }
            let found = searchEntity(for: type, in: [model.entities])
            if let found, model.isFrozen { lock.withLock { entitiesByClass[key] = found } }
            return found
        }
        return searchEntity(for: type, in: FrozenModels.shared.entitiesOfAllModels)
    }

    /// The first entity whose class is `type`, searching each model's entities in turn.
    private func searchEntity(for type: NSManagedObject.Type, in models: [[NSEntityDescription]]) -> NSEntityDescription? {
        register(type)
        let qualified = String(reflecting: type)
        let unqualified = qualified.split(separator: ".").last.map(String.init) ?? qualified
        for entities in models {
            for entity in entities {
                let className = entity.managedObjectClassName ?? ""
                if className == qualified || className == unqualified || className == "." + unqualified {
                    return entity
                }
            }
        }
        return nil
    }

    private func remember(_ type: NSManagedObject.Type, as name: String) -> NSManagedObject.Type {
        lock.withLock { classesByName[name] = type }
        return type
    }
}
