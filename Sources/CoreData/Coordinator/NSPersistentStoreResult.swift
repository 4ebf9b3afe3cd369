/// The abstract class of the results a persistent store coordinator returns for a request.
open class NSPersistentStoreResult: NSObject {
    /// Creates a result.
    public override init() {
        super.init()
    }
}
