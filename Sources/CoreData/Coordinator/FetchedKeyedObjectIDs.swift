/// The object IDs a fetch found in one store, each with the values of some key paths, read by
/// the fetch's own query: what a fetched results controller needs to place objects it has not
/// made yet.
package struct FetchedKeyedObjectIDs {
    let objectIDs: FetchedObjectIDs
    /// The values of the key paths of each object, in the objects' order, each in the order the
    /// key paths were asked for.
    let values: [[SortKeyValue]]
}
