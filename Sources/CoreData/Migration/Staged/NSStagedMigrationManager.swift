/// The store option that hands a staged migration manager to `addPersistentStore`, set on a
/// store description with `setOption(_:forKey:)`.
public let NSPersistentStoreStagedMigrationManagerOptionKey: String = "NSPersistentStoreStagedMigrationManagerOptionKey"

/// Migrates a store through model versions in stages: runs of lightweight versions, and custom
/// stages whose handlers prepare and finish the data around a change.
///
/// Pass the manager in the store's options under `NSPersistentStoreStagedMigrationManagerOptionKey`.
/// When the store was written with an older version, adding it runs, in array order, each stage
/// from the store's version on, until the store has the coordinator's model. The stages must
/// order all the model versions; migrating a store backward fails with
/// `NSStagedMigrationBackwardMigrationError` (134506), and a model reference that cannot be
/// resolved with `NSManagedObjectModelReferenceNotFoundError` (134504).
open class NSStagedMigrationManager: NSObject {
    /// The stages, in the order they run.
    public let stages: [NSMigrationStage]

    /// During a custom stage's handlers, a container with the migrating store loaded at the
    /// handler's model version; nil otherwise.
    open internal(set) var container: NSPersistentContainer?

    /// Creates a manager that runs the stages in the order given.
    public init(_ stages: [NSMigrationStage]) {
        self.stages = stages
        super.init()
    }
}
