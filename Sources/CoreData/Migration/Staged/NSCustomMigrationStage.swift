/// A migration between two model versions with code that runs before and after it: the
/// handlers prepare the store's data for the change (fill the nils of an attribute about to
/// become mandatory, say) and finish it afterwards. The schema change itself is inferred.
open class NSCustomMigrationStage: NSMigrationStage {
    /// The model the stage migrates from.
    public let currentModel: NSManagedObjectModelReference

    /// The model the stage migrates to.
    public let nextModel: NSManagedObjectModelReference

    /// Runs before the stage migrates, with the store open at `currentModel` through the
    /// manager's `container`. A handler that throws stops the migration with its error.
    open var willMigrateHandler: ((NSStagedMigrationManager, NSCustomMigrationStage) throws -> Void)?

    /// Runs after the stage migrated, with the store open at `nextModel` through the manager's
    /// `container`. A handler that throws stops the migration with its error.
    open var didMigrateHandler: ((NSStagedMigrationManager, NSCustomMigrationStage) throws -> Void)?

    /// Creates a stage that migrates from one model version to the next.
    public init(migratingFrom currentModel: NSManagedObjectModelReference, to nextModel: NSManagedObjectModelReference) {
        self.currentModel = currentModel
        self.nextModel = nextModel
        super.init()
    }

    override func stageVersions() -> [StageVersion] {
        [.reference(currentModel), .reference(nextModel)]
    }
}
