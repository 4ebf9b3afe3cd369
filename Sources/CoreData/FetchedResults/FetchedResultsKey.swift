/// Where an object belongs in a fetched results controller's results: its sort-key values and
/// its section name, as the fetch read them or as they were when the object last changed.
struct FetchedResultsKey {
    /// The values of the sort descriptors' key paths, in their order; a key read by the fetch's
    /// query may carry the section key path's value after them, which comparisons ignore.
    let values: [SortKeyValue]
    let sectionName: String
}
