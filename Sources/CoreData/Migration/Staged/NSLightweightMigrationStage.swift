/// A run of model versions whose changes Core Data can infer: the store migrates from each
/// version to the next with an inferred mapping.
open class NSLightweightMigrationStage: NSMigrationStage {
    /// The version checksums (`NSManagedObjectModel.versionChecksum`) of the stage's models, in
    /// migration order.
    public let versionChecksums: [String]

    /// Creates a stage over the model versions with the checksums, in migration order.
    public init(_ versionChecksums: [String]) {
        self.versionChecksums = versionChecksums
        super.init()
    }

    override func stageVersions() -> [StageVersion] {
        versionChecksums.map(StageVersion.checksum)
    }
}
