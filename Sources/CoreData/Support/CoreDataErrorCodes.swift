// Error codes and userInfo keys of Apple's CoreDataErrors.h, with Apple's names and values.
// All Core Data errors live in `NSCocoaErrorDomain`.

/// Generic validation error.
public let NSManagedObjectValidationError: Int = 1550
/// A uniqueness constraint was violated.
public let NSManagedObjectConstraintValidationError: Int = 1551
/// Several validation errors; the individual errors are under `NSDetailedErrorsKey`.
public let NSValidationMultipleErrorsError: Int = 1560
/// A non-optional property has no value.
public let NSValidationMissingMandatoryPropertyError: Int = 1570
/// A to-many relationship has fewer destinations than its `minCount`.
public let NSValidationRelationshipLacksMinimumCountError: Int = 1580
/// A to-many relationship has more destinations than its `maxCount`.
public let NSValidationRelationshipExceedsMaximumCountError: Int = 1590
/// A delete was refused by a relationship with the deny rule.
public let NSValidationRelationshipDeniedDeleteError: Int = 1600
/// A number is above the attribute's maximum.
public let NSValidationNumberTooLargeError: Int = 1610
/// A number is below the attribute's minimum.
public let NSValidationNumberTooSmallError: Int = 1620
/// A date is after the attribute's maximum.
public let NSValidationDateTooLateError: Int = 1630
/// A date is before the attribute's minimum.
public let NSValidationDateTooSoonError: Int = 1640
/// A date is invalid.
public let NSValidationInvalidDateError: Int = 1650
/// A string is longer than the attribute's maximum length.
public let NSValidationStringTooLongError: Int = 1660
/// A string is shorter than the attribute's minimum length.
public let NSValidationStringTooShortError: Int = 1670
/// A string does not match the attribute's regular expression.
public let NSValidationStringPatternMatchingError: Int = 1680
/// A URI is invalid.
public let NSValidationInvalidURIError: Int = 1690

/// A managed object context could not be locked.
public let NSManagedObjectContextLockingError: Int = 132000
/// A persistent store coordinator could not be locked.
public let NSPersistentStoreCoordinatorLockingError: Int = 132010
/// A fault points to an object that does not exist.
public let NSManagedObjectReferentialIntegrityError: Int = 133000
/// A relationship crosses persistent stores.
public let NSManagedObjectExternalRelationshipError: Int = 133010
/// An optimistic-locking conflict was detected at save.
public let NSManagedObjectMergeError: Int = 133020
/// A uniqueness-constraint conflict was detected at save.
public let NSManagedObjectConstraintMergeError: Int = 133021
/// The store type is unknown.
public let NSPersistentStoreInvalidTypeError: Int = 134000
/// The store's type does not match the type asked for.
public let NSPersistentStoreTypeMismatchError: Int = 134010
/// The store's schema is not compatible with the model.
public let NSPersistentStoreIncompatibleSchemaError: Int = 134020
/// The store could not be saved.
public let NSPersistentStoreSaveError: Int = 134030
/// Only part of a save succeeded.
public let NSPersistentStoreIncompleteSaveError: Int = 134040
/// Conflicts were found while saving.
public let NSPersistentStoreSaveConflictsError: Int = 134050
/// General Core Data error.
public let NSCoreDataError: Int = 134060
/// A store operation failed.
public let NSPersistentStoreOperationError: Int = 134070
/// The store could not be opened.
public let NSPersistentStoreOpenError: Int = 134080
/// A store operation timed out.
public let NSPersistentStoreTimeoutError: Int = 134090
/// The store does not support the request type.
public let NSPersistentStoreUnsupportedRequestTypeError: Int = 134091
/// The store's version hashes differ from the model's.
public let NSPersistentStoreIncompatibleVersionHashError: Int = 134100
/// Migration failed.
public let NSMigrationError: Int = 134110
/// Migration violated a constraint.
public let NSMigrationConstraintViolationError: Int = 134111
/// Migration was cancelled.
public let NSMigrationCancelledError: Int = 134120
/// No source model was found for migration.
public let NSMigrationMissingSourceModelError: Int = 134130
/// No mapping model was found for migration.
public let NSMigrationMissingMappingModelError: Int = 134140
/// The migration source store is unusable.
public let NSMigrationManagerSourceStoreError: Int = 134150
/// The migration destination store is unusable.
public let NSMigrationManagerDestinationStoreError: Int = 134160
/// An entity migration policy failed.
public let NSEntityMigrationPolicyError: Int = 134170
/// SQLite reported an error; the underlying error is in `NSSQLiteErrorDomain`.
public let NSSQLiteError: Int = 134180
/// A mapping model could not be inferred.
public let NSInferredMappingModelError: Int = 134190
/// An external record could not be imported.
public let NSExternalRecordImportError: Int = 134200
/// A persistent history token refers to purged history.
public let NSPersistentHistoryTokenExpiredError: Int = 134301
/// A model reference could not be resolved.
public let NSManagedObjectModelReferenceNotFoundError: Int = 134504
/// A staged migration needs another framework version.
public let NSStagedMigrationFrameworkVersionMismatchError: Int = 134505
/// A staged migration would go backwards.
public let NSStagedMigrationBackwardMigrationError: Int = 134506

/// userInfo key of the individual errors of an `NSValidationMultipleErrorsError`.
public let NSDetailedErrorsKey: String = "NSDetailedErrors"
/// userInfo key of the object that failed validation.
public let NSValidationObjectErrorKey: String = "NSValidationErrorObject"
/// userInfo key of the property that failed validation.
public let NSValidationKeyErrorKey: String = "NSValidationErrorKey"
/// userInfo key of the predicate that failed validation.
public let NSValidationPredicateErrorKey: String = "NSValidationErrorPredicate"
/// userInfo key of the value that failed validation.
public let NSValidationValueErrorKey: String = "NSValidationErrorValue"
/// userInfo key of the stores an error concerns.
public let NSAffectedStoresErrorKey: String = "NSAffectedStoresErrorKey"
/// userInfo key of the objects an error concerns.
public let NSAffectedObjectsErrorKey: String = "NSAffectedObjectsErrorKey"
/// userInfo key of the conflicts of a failed save.
public let NSPersistentStoreSaveConflictsErrorKey: String = "conflictList"
/// Domain of errors that carry a SQLite result code.
public let NSSQLiteErrorDomain: String = "NSSQLiteErrorDomain"
