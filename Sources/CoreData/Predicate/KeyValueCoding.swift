/// Objects whose properties predicates and sort descriptors read by key.
///
/// Linux has no Objective-C key-value coding, so objects opt in: `NSManagedObject` conforms, with
/// to-one relationships read as objects and to-many relationships as `Set`, `NSSet` or
/// `NSOrderedSet`. `KeyValueReader` walks key paths over these objects, dictionaries and
/// collections.
protocol KeyValueCodingReadable: AnyObject {
    /// The value for one key (no dots), or an error for a key the object does not have.
    func keyValue(forKey key: String) throws -> Any?
}

/// Values that stand for a managed object — the object, its ID, a store's row — and compare equal
/// in predicates when they identify the same object.
protocol ObjectReference {
    /// What identifies the object: equal for every reference to it.
    var referencedObject: AnyHashable { get }
}
