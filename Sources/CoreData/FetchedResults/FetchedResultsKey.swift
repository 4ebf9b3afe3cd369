/// Where an object belongs in a fetched results controller's results: its sort-key values and
/// its section name, read when the object entered the results or last changed.
struct FetchedResultsKey {
    let values: [Any?]
    let sectionName: String
}
