extension NSManagedObjectModel {
    /// The model made by merging every model the bundles contain.
    ///
    /// Models are looked up as compiled by Xcode; reading `.xcdatamodeld` files on Linux arrives with
    /// model-file support, so today this returns nil when no model has been registered.
    public class func mergedModel(from bundles: [Bundle]?) -> NSManagedObjectModel? {
        nil
    }

    /// The model named `name` among the bundles, if one can be found.
    static func mergedModel(from bundles: [Bundle]?, named name: String) -> NSManagedObjectModel? {
        nil
    }
}
