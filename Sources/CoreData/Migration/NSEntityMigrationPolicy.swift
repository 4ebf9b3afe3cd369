/// Customizes how a migration manager runs one entity mapping.
///
/// An entity mapping names its policy class in `entityMigrationPolicyClassName`; the manager makes
/// one policy per mapping and calls it through three passes over all the mappings (spec
/// `semantics.md` MIG-14):
/// 1. `begin(_:with:)`, `createDestinationInstances(forSource:in:manager:)` for each source
///    instance, `endInstanceCreation(forMapping:manager:)`;
/// 2. `createRelationships(forDestination:in:manager:)` for each destination instance the mapping
///    created, `endRelationshipCreation(forMapping:manager:)`;
/// 3. `performCustomValidation(forMapping:manager:)`, `end(_:manager:)`.
///
/// A callback that throws stops the migration with its error; the destination store is not
/// written.
///
/// Linux has no Objective-C runtime, so a value expression's `FUNCTION($entityPolicy, "selector:", …)`
/// reaches the policy through `value(forFunction:arguments:)`, which subclasses override.
/// Name the class with its module (`MyApp.SalaryPolicy`), as `NSStringFromClass` gives it.
open class NSEntityMigrationPolicy: NSObject {
    /// Creates a policy. The manager makes policies from their class name, so a subclass keeps
    /// this initializer.
    public required override init() {
        super.init()
    }

    /// Called before the first pass touches the mapping. Does nothing by default.
    open func begin(_ mapping: NSEntityMapping, with manager: NSMigrationManager) throws {}

    /// Creates the destination instance of a source instance, sets its attributes from the
    /// mapping's attribute mappings, and associates the two with
    /// `NSMigrationManager.associate(sourceInstance:withDestinationInstance:for:)`.
    ///
    /// An override that does not call `super` must associate the instances it creates itself, so
    /// that their relationships are made in the second pass.
    open func createDestinationInstances(forSource sInstance: NSManagedObject, in mapping: NSEntityMapping, manager: NSMigrationManager) throws {
        let destination = try manager.insertDestinationInstance(for: mapping)
        try manager.applyMappings(mapping.attributeMappings, to: destination, from: sInstance, in: mapping, policy: self)
        manager.associate(sourceInstance: sInstance, withDestinationInstance: destination, for: mapping)
    }

    /// Called when every source instance of the mapping has its destination. Does nothing by default.
    open func endInstanceCreation(forMapping mapping: NSEntityMapping, manager: NSMigrationManager) throws {}

    /// Sets a destination instance's relationships from the mapping's relationship mappings.
    ///
    /// The value of a relationship mapping is usually the destinations of source instances,
    /// `FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "BookToBook", $source.books)`:
    /// an array, of which a to-one relationship takes the first element.
    open func createRelationships(forDestination dInstance: NSManagedObject, in mapping: NSEntityMapping, manager: NSMigrationManager) throws {
        let sources = manager.sourceInstances(forEntityMappingName: mapping.name ?? "", destinationInstances: [dInstance])
        try manager.applyMappings(mapping.relationshipMappings, to: dInstance, from: sources.first, in: mapping, policy: self)
    }

    /// Called when every destination instance of the mapping has its relationships. Does nothing
    /// by default.
    open func endRelationshipCreation(forMapping mapping: NSEntityMapping, manager: NSMigrationManager) throws {}

    /// Checks the mapping's destination instances beyond the model's own validation, which the
    /// manager runs when it saves the destination store. Does nothing by default.
    open func performCustomValidation(forMapping mapping: NSEntityMapping, manager: NSMigrationManager) throws {}

    /// Called after the last pass of the mapping. Does nothing by default.
    open func end(_ mapping: NSEntityMapping, manager: NSMigrationManager) throws {}

    /// Answers `FUNCTION($entityPolicy, "selector", arguments…)` in a value expression.
    ///
    /// This is an addition to Apple's API: Apple's Core Data sends the message through the
    /// Objective-C runtime. Override it to answer your policy's selectors, and call `super` for
    /// any other.
    ///
    /// - Throws: By default, an error naming the selector the policy does not answer.
    open func value(forFunction selector: String, arguments: [Any?]) throws -> Any? {
        throw CoreDataError.make(
            NSEntityMigrationPolicyError,
            "\(type(of: self)) does not answer FUNCTION($entityPolicy, \"\(selector)\"); override value(forFunction:arguments:) to answer it.",
            userInfo: ["selector": selector]
        )
    }
}

extension NSEntityMigrationPolicy: ExpressionMessageReceiver {
    func answer(_ selector: String, arguments: [Any?]) throws -> Any? {
        try value(forFunction: selector, arguments: arguments)
    }
}
