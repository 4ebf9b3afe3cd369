/// What the file of a built-in atomic store holds, whatever its format: the metadata and every
/// object, its attributes decoded for the model and its relationships resolved to objects.
struct AtomicStoreContents {
    /// An object of the file: its entity, the reference object that names it in the store, its
    /// attribute values by name (nil values left out; entries that name no attribute are
    /// ignored) and its destinations by relationship name, in order.
    struct Object {
        let entity: NSEntityDescription
        let key: Any
        var values: [String: Any]
        var destinations: [String: [Destination]]
    }

    /// An object a relationship leads to.
    struct Destination {
        let entity: NSEntityDescription
        let key: Any
    }

    var metadata: [String: Any]
    var objects: [Object]
    /// The last integer key the store gave out, when the file records it: keys of deleted
    /// objects are not given out again.
    var lastKey: Int64?
}
