/// The kinds of result a batch update request returns.
public enum NSBatchUpdateRequestResultType: UInt, Sendable {
    /// Whether the request succeeded (an `NSNumber` holding a Boolean).
    case statusOnlyResultType = 0
    /// The identifiers of the updated objects (`[NSManagedObjectID]`).
    case updatedObjectIDsResultType = 1
    /// The number of updated objects (an `NSNumber`).
    case updatedObjectsCountResultType = 2
}
