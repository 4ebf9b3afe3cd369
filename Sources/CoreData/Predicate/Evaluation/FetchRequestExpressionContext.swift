/// What a fetch request expression runs its fetch in: a managed object context.
///
/// Contexts and fetch requests live in a layer above the predicate tree, so the evaluator reaches
/// them through this protocol, which `NSManagedObjectContext` adopts.
protocol FetchRequestExpressionContext: AnyObject {
    /// The results of fetching `request` as `fetch(_:)` returns them, or their number as an
    /// `NSNumber` as `count(for:)` returns it when `countOnly`.
    ///
    /// - Throws: an error when `request` is not a fetch request, or the fetch fails.
    func result(ofFetch request: Any?, countOnly: Bool) throws -> Any
}
