/// One store's data frozen at a moment: what a context pinned to a query generation reads from
/// that store. It lasts as long as a token or context refers to it.
package protocol StoreQueryGeneration: AnyObject, Sendable {
    /// The store generation (see `RowChangeLog`) the frozen data belongs to.
    var generation: Int { get }
}
