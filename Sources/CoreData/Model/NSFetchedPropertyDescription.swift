/// The description of a fetched property: a weak, one-way relationship defined by a fetch request.
///
/// Fetched properties are computed by fetching; they have no column in the store and no part in
/// the entity's version hash.
// Like every property description: mutable while the model is built, read-only once it is frozen.
open class NSFetchedPropertyDescription: NSPropertyDescription, @unchecked Sendable {
    /// The request whose results are the property's value; `$FETCH_SOURCE` names the source object.
    public var fetchRequest: NSFetchRequest<NSFetchRequestResult>? {
        willSet { assertEditable() }
    }

    override func copyProperties(from other: NSPropertyDescription) {
        super.copyProperties(from: other)
        guard let other = other as? NSFetchedPropertyDescription else { return }
        fetchRequest = other.fetchRequest?.copy() as? NSFetchRequest<NSFetchRequestResult>
    }
}
