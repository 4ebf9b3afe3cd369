/// A migration run on objects: the three passes of `NSMigrationManager` over the entity mappings
/// (spec `semantics.md` MIG-14), then one save of the destination context.
///
/// 1. For each mapping: `begin`, `createDestinationInstances` per source instance, `endInstanceCreation`.
/// 2. For each mapping: `createRelationships` per destination instance, `endRelationshipCreation`.
/// 3. For each mapping: the destination instances' validation, `performCustomValidation`, `end`.
struct ObjectMigration {
    private struct Step {
        let mapping: NSEntityMapping
        let policy: NSEntityMigrationPolicy
    }

    private let manager: NSMigrationManager
    private let steps: [Step]

    init(manager: NSMigrationManager) throws {
        self.manager = manager
        steps = try (manager.mappingModel.entityMappings ?? []).map { Step(mapping: $0, policy: try Self.policy(for: $0)) }
    }

    func run() throws {
        for (index, step) in steps.enumerated() {
            try createInstances(step, at: index)
        }
        for (index, step) in steps.enumerated() {
            try createRelationships(step, at: index)
        }
        for (index, step) in steps.enumerated() {
            try validate(step, at: index)
        }
        try manager.destinationContext.save()
    }

    // MARK: Passes

    private func createInstances(_ step: Step, at index: Int) throws {
        let (mapping, policy) = (step.mapping, step.policy)
        manager.currentEntityMapping = mapping
        try callback { try policy.begin(mapping, with: manager) }
        try each(of: try sourceInstances(of: mapping), pass: 0, mapping: index) { source in
            try policy.createDestinationInstances(forSource: source, in: mapping, manager: manager)
        }
        try callback { try policy.endInstanceCreation(forMapping: mapping, manager: manager) }
    }

    private func createRelationships(_ step: Step, at index: Int) throws {
        let (mapping, policy) = (step.mapping, step.policy)
        manager.currentEntityMapping = mapping
        try each(of: manager.destinationInstances(forEntityMappingName: mapping.name ?? "", sourceInstances: nil), pass: 1, mapping: index) { destination in
            try policy.createRelationships(forDestination: destination, in: mapping, manager: manager)
        }
        try callback { try policy.endRelationshipCreation(forMapping: mapping, manager: manager) }
    }

    private func validate(_ step: Step, at index: Int) throws {
        let (mapping, policy) = (step.mapping, step.policy)
        manager.currentEntityMapping = mapping
        for destination in manager.destinationInstances(forEntityMappingName: mapping.name ?? "", sourceInstances: nil) {
            try destination.validateForInsert()
        }
        try callback { try policy.performCustomValidation(forMapping: mapping, manager: manager) }
        try callback { try policy.end(mapping, manager: manager) }
        report(pass: 2, mapping: index, fraction: 1)
    }

    /// Runs a per-instance callback on each instance, reporting progress within the pass.
    private func each(of instances: [NSManagedObject], pass: Int, mapping index: Int, _ body: (NSManagedObject) throws -> Void) throws {
        for (number, instance) in instances.enumerated() {
            try callback { try body(instance) }
            report(pass: pass, mapping: index, fraction: Double(number + 1) / Double(instances.count))
        }
    }

    /// Runs a policy callback, then stops if the migration was cancelled meanwhile, through the
    /// manager or its `Progress`.
    private func callback(_ body: () throws -> Void) throws {
        try body()
        if let cancellation = manager.cancellation { throw cancellation }
        if manager.progress?.isCancelled == true {
            throw CoreDataError.make(NSMigrationCancelledError, "The migration was cancelled through its progress.")
        }
    }

    /// Reports progress: each pass over each mapping is an equal share of the migration.
    private func report(pass: Int, mapping index: Int, fraction: Double) {
        let shares = Double(3 * max(steps.count, 1))
        let done = (Double(pass * steps.count + index) + fraction) / shares
        manager.migrationProgress = Float(done)
        if let progress = manager.progress {
            progress.completedUnitCount = Int64((done * Double(progress.totalUnitCount)).rounded(.down))
        }
    }

    // MARK: Source instances

    /// The instances a mapping migrates: the results of its source expression, or every instance
    /// of its source entity (not of its sub-entities, which have mappings of their own).
    private func sourceInstances(of mapping: NSEntityMapping) throws -> [NSManagedObject] {
        guard mapping.mappingType != .addEntityMappingType, mapping.mappingType != .removeEntityMappingType,
              let entity = manager.sourceEntity(for: mapping) else { return [] }
        if let expression = mapping.sourceExpression {
            return try manager.sourceInstances(evaluating: expression, for: mapping)
        }
        let request = NSFetchRequest<NSManagedObject>(entityName: entity.entityName)
        request.includesSubentities = false
        request.returnsObjectsAsFaults = false
        let relationships = entity.relationshipsByName.filter { !$0.value.isTransient }
        request.relationshipKeyPathsForPrefetching = Array(relationships.keys)
        let instances = try manager.sourceContext.fetch(request)
        // Reading the to-many relationships now takes them from what the fetch prefetched; the
        // second pass, after other fetches, would otherwise query once per instance.
        for instance in instances {
            for (name, relationship) in relationships where relationship.isToMany {
                _ = instance.value(forKey: name)
            }
        }
        return instances
    }

    // MARK: Policies

    /// A new policy of the mapping's class: `NSEntityMigrationPolicy` when it names none.
    private static func policy(for mapping: NSEntityMapping) throws -> NSEntityMigrationPolicy {
        guard let className = mapping.entityMigrationPolicyClassName, !className.isEmpty, className != "NSEntityMigrationPolicy" else {
            return NSEntityMigrationPolicy()
        }
        guard let policyClass = ManagedObjectClassRegistry.shared.lookUpClass(named: className, of: NSEntityMigrationPolicy.self) else {
            throw CoreDataError.make(
                NSEntityMigrationPolicyError,
                "Entity mapping \(mapping.name ?? "?") names the migration policy class \(className), which was not found (name it with its module, as NSStringFromClass does).",
                userInfo: ["reason": "policy class \(className) not found"]
            )
        }
        return policyClass.init()
    }
}
