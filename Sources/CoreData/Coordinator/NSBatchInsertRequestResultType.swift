/// The kinds of result a batch insert request returns.
public enum NSBatchInsertRequestResultType: UInt, Sendable {
    /// Whether the request succeeded (an `NSNumber` holding a Boolean).
    case statusOnly = 0
    /// The identifiers of the inserted objects (`[NSManagedObjectID]`).
    case objectIDs = 1
    /// The number of inserted objects (an `NSNumber`).
    case count = 2
}
