/// The kind of change a fetched results controller reports to its delegate.
public enum NSFetchedResultsChangeType: UInt, Sendable {
    /// An object or section entered the results.
    case insert = 1
    /// An object or section left the results.
    case delete = 2
    /// An object moved: its position changed relative to the objects that did not change.
    case move = 3
    /// An object changed without moving.
    case update = 4
}
