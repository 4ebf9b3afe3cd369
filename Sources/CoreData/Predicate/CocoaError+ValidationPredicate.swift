extension CocoaError {
    /// For a validation predicate of the model, the predicate that the value did not satisfy
    /// (`NSValidationPredicateErrorKey`).
    public var validationPredicate: NSPredicate? {
        userInfo[NSValidationPredicateErrorKey] as? NSPredicate
    }
}
