/// The kinds of result a batch delete request returns.
public enum NSBatchDeleteRequestResultType: UInt, Sendable {
    /// Whether the request succeeded (an `NSNumber` holding a Boolean).
    case resultTypeStatusOnly = 0
    /// The identifiers of the deleted objects (`[NSManagedObjectID]`).
    case resultTypeObjectIDs = 1
    /// The number of deleted objects (an `NSNumber`).
    case resultTypeCount = 2
}
