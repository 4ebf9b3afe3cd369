/// What a fetch returns: the models of a class that match a predicate, in an order, within a
/// limit.
// Sendable as Apple declares it: predicates and sort descriptors are values, and key paths
// are immutable.
public struct FetchDescriptor<T: PersistentModel>: @unchecked Sendable {
    /// The models to return; all models of the class when nil.
    public var predicate: Predicate<T>?
    /// The order of the results.
    public var sortBy: [SortDescriptor<T>]
    /// The most results to return.
    public var fetchLimit: Int?
    /// How many matching models to skip.
    public var fetchOffset: Int?
    /// Whether the results include the context's unsaved changes; true by default.
    public var includePendingChanges: Bool = true
    /// The properties the fetch loads; the others load when first read.
    public var propertiesToFetch: [PartialKeyPath<T>] = []
    /// The relationships whose models the fetch loads with the results.
    public var relationshipKeyPathsForPrefetching: [PartialKeyPath<T>] = []

    /// Creates a descriptor.
    ///
    /// - Parameters:
    ///   - predicate: The models to return; all models of the class when nil.
    ///   - sortBy: The order of the results.
    public init(predicate: Predicate<T>? = nil, sortBy: [SortDescriptor<T>] = []) {
        self.predicate = predicate
        self.sortBy = sortBy
    }
}
