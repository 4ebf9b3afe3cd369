/// One stage of a staged migration: the abstract base of `NSLightweightMigrationStage` and
/// `NSCustomMigrationStage`. Do not create instances of it.
open class NSMigrationStage: NSObject {
    /// A description of the stage's purpose.
    open var label: String?

    override init() {
        super.init()
    }

    /// The model versions the stage migrates through, in order.
    func stageVersions() -> [StageVersion] {
        []
    }
}

/// A model version a stage names: by a reference (custom stages) or by its checksum alone
/// (lightweight stages).
enum StageVersion {
    case reference(NSManagedObjectModelReference)
    case checksum(String)

    var checksum: String {
        switch self {
        case .reference(let reference): reference.versionChecksum
        case .checksum(let checksum): checksum
        }
    }
}
