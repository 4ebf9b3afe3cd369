/// The type of what a fetch request returns: managed objects, object IDs, dictionaries or numbers.
///
/// On Apple platforms this is a protocol. On Linux a protocol existential does not conform to its
/// own protocol, so `NSFetchRequest<NSFetchRequestResult>` could not be written if it were one; as
/// an alias of `AnyObject` it can, and every class (`NSManagedObject`, `NSManagedObjectID`,
/// `NSDictionary`, `NSNumber`) is a valid result type, as on Apple platforms.
public typealias NSFetchRequestResult = AnyObject

/// The kinds of result a fetch request can return.
public struct NSFetchRequestResultType: OptionSet, Sendable {
    public let rawValue: UInt

    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// Managed objects (the default).
    public static let managedObjectResultType = NSFetchRequestResultType([])
    /// Managed object IDs.
    public static let managedObjectIDResultType = NSFetchRequestResultType(rawValue: 1)
    /// Dictionaries of property values.
    public static let dictionaryResultType = NSFetchRequestResultType(rawValue: 2)
    /// The number of matching objects.
    public static let countResultType = NSFetchRequestResultType(rawValue: 4)
}

/// The kinds of request a persistent store executes.
public enum NSPersistentStoreRequestType: UInt, Sendable {
    case fetchRequestType = 1
    case saveRequestType = 2
    case batchInsertRequestType = 5
    case batchUpdateRequestType = 6
    case batchDeleteRequestType = 7
}
