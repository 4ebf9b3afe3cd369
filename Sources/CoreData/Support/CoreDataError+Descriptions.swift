extension CoreDataError {
    /// The localized description Apple's Core Data gives an error with a code of its own, in
    /// English, or nil for a code that is not Core Data's.
    ///
    /// A validation error names its property (`validationKey`) where Apple's text has
    /// `%{PROPERTY}@`: "title is a required value.". A code Apple's Core Data has no text for reads
    /// as Foundation's fallback does: "The operation couldn’t be completed. (Cocoa error 133021.)".
    static func localizedDescription(ofCoreDataCode code: Int, validationKey: String?) -> String? {
        guard isCoreDataCode(code) else { return nil }
        let fallback = "The operation couldn’t be completed. (Cocoa error \(code).)"
        guard let text = coreDataTexts[code] else { return fallback }
        guard text.contains(propertyPlaceholder) else { return text }
        return validationKey.map { text.replacingOccurrences(of: propertyPlaceholder, with: $0) } ?? fallback
    }

    /// Whether `code` is one of Core Data's (`CoreDataErrors.h`): validation errors from 1550 to
    /// 1690, the others from 132000 on; the codes between are Foundation's.
    static func isCoreDataCode(_ code: Int) -> Bool {
        (NSManagedObjectValidationError..<1700).contains(code) || (NSManagedObjectContextLockingError..<135_000).contains(code)
    }

    /// Where Apple's texts name the property that failed to validate.
    private static let propertyPlaceholder = "%{PROPERTY}@"

    /// The English texts of Apple's Core Data for its error codes (the framework's localized
    /// strings, keyed `Err1550` … `Err134180`).
    private static let coreDataTexts: [Int: String] = [
        NSManagedObjectValidationError: "%{PROPERTY}@ is not valid.",
        NSManagedObjectConstraintValidationError: "One or more constraints were violated.",
        NSValidationMultipleErrorsError: "Multiple validation errors occurred.",
        NSValidationMissingMandatoryPropertyError: "%{PROPERTY}@ is a required value.",
        NSValidationRelationshipLacksMinimumCountError: "Too few items in %{PROPERTY}@.",
        NSValidationRelationshipExceedsMaximumCountError: "Too many items in %{PROPERTY}@.",
        NSValidationRelationshipDeniedDeleteError: "Items cannot be deleted from %{PROPERTY}@.",
        NSValidationNumberTooLargeError: "%{PROPERTY}@ is too large.",
        NSValidationNumberTooSmallError: "%{PROPERTY}@ is too small.",
        NSValidationDateTooLateError: "%{PROPERTY}@ is too late.",
        NSValidationDateTooSoonError: "%{PROPERTY}@ is too soon.",
        NSValidationInvalidDateError: "%{PROPERTY}@ is invalid.",
        NSValidationStringTooLongError: "%{PROPERTY}@ is too long.",
        NSValidationStringTooShortError: "%{PROPERTY}@ is too short.",
        NSValidationStringPatternMatchingError: "%{PROPERTY}@ is invalid.",
        NSManagedObjectContextLockingError: "Could not acquire a lock in a managed object context.",
        NSPersistentStoreCoordinatorLockingError: "Could not acquire a lock in a managed persistent store coordinator.",
        NSManagedObjectReferentialIntegrityError: "Attempt to access an object not found in store.",
        NSManagedObjectExternalRelationshipError: "Cannot save objects with references outside of their own stores.",
        NSManagedObjectMergeError: "Could not merge changes.",
        NSPersistentStoreInvalidTypeError: "Failed to save. Unknown store type, format, or version.",
        NSPersistentStoreTypeMismatchError: "The store type is inconsistent with the data format.",
        NSPersistentStoreIncompatibleSchemaError: "The model configuration used to open the store is incompatible with the one that was used to create the store.",
        NSPersistentStoreSaveError: "An error occurred while saving.",
        NSPersistentStoreIncompleteSaveError: "Save operation could not be completed.",
        NSCoreDataError: "A Core Data error occurred.",
        NSPersistentStoreOperationError: "An error occurred in the persistent store.",
        NSPersistentStoreOpenError: "An error occurred while opening the persistent store.",
        NSPersistentStoreTimeoutError: "A timeout error occurred while connecting to the persistent store.",
        NSPersistentStoreIncompatibleVersionHashError: "The managed object model version used to open the persistent store is incompatible with the one that was used to create the persistent store.",
        NSMigrationError: "An error occurred during persistent store migration.",
        NSMigrationCancelledError: "Persistent store migration was cancelled before completion.",
        NSMigrationMissingSourceModelError: "Persistent store migration failed, missing source managed object model.",
        NSMigrationMissingMappingModelError: "Persistent store migration failed, missing mapping model.",
        NSMigrationManagerSourceStoreError: "Persistent store migration failed, there was a problem with the source persistent store.",
        NSMigrationManagerDestinationStoreError: "Persistent store migration failed, there was a problem with the destination persistent store.",
        NSEntityMigrationPolicyError: "Persistent store migration failed while processing entity migration policy.",
        NSSQLiteError: "An SQLite error occurred.",
    ]
}
