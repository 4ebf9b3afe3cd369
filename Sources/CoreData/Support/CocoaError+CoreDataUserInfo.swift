// The userInfo entries of Core Data's errors, read from a `CocoaError` as Apple's Core Data
// declares them. Core Data throws `NSError`s; `catch let error as CocoaError` bridges them, keeping
// their userInfo. `validationPredicate` and `persistentStoreSaveConflicts` are declared with their
// types, in Predicate/ and Context/.
extension CocoaError {
    /// The object that failed to validate (`NSValidationObjectErrorKey`).
    public var validationObject: Any? {
        userInfo[NSValidationObjectErrorKey]
    }

    /// The key that failed to validate (`NSValidationKeyErrorKey`).
    public var validationKey: String? {
        userInfo[NSValidationKeyErrorKey] as? String
    }

    /// The value that failed to validate (`NSValidationValueErrorKey`).
    public var validationValue: Any? {
        userInfo[NSValidationValueErrorKey]
    }

    /// The stores the error concerns (`NSAffectedStoresErrorKey`).
    public var affectedStores: [AnyObject]? {
        userInfo[NSAffectedStoresErrorKey] as? [AnyObject]
    }

    /// The objects the error concerns (`NSAffectedObjectsErrorKey`).
    public var affectedObjects: [AnyObject]? {
        userInfo[NSAffectedObjectsErrorKey] as? [AnyObject]
    }
}
