// Core Data's codes in `NSCocoaErrorDomain`, with the raw values of `CoreDataErrors.h`
// (`CoreDataErrorCodes.swift`). Apple's Core Data declares each as a static member of both
// `CocoaError.Code` and `CocoaError`, so that
// `catch let error as CocoaError where error.code == .validationMissingMandatoryProperty` and
// `catch CocoaError.validationMissingMandatoryProperty` work; one protocol declares them for both.

/// The types that carry Core Data's error codes as static members: `CocoaError` and
/// `CocoaError.Code`.
///
/// An implementation detail that declares the codes once for both types; use the codes through
/// those types.
public protocol _CoreDataCocoaErrorCodes {}

extension CocoaError: _CoreDataCocoaErrorCodes {}
extension CocoaError.Code: _CoreDataCocoaErrorCodes {}

extension _CoreDataCocoaErrorCodes {
    /// A managed object failed to validate (1550).
    public static var managedObjectValidation: CocoaError.Code { CocoaError.Code(rawValue: NSManagedObjectValidationError) }

    /// Several validation errors occurred; they are the error's `NSDetailedErrorsKey` (1560).
    public static var validationMultipleErrors: CocoaError.Code { CocoaError.Code(rawValue: NSValidationMultipleErrorsError) }

    /// A non-optional property has no value (1570).
    public static var validationMissingMandatoryProperty: CocoaError.Code { CocoaError.Code(rawValue: NSValidationMissingMandatoryPropertyError) }

    /// A to-many relationship has fewer destinations than its minimum count (1580).
    public static var validationRelationshipLacksMinimumCount: CocoaError.Code { CocoaError.Code(rawValue: NSValidationRelationshipLacksMinimumCountError) }

    /// A to-many relationship has more destinations than its maximum count (1590).
    public static var validationRelationshipExceedsMaximumCount: CocoaError.Code { CocoaError.Code(rawValue: NSValidationRelationshipExceedsMaximumCountError) }

    /// A delete was refused by a relationship with the deny rule (1600).
    public static var validationRelationshipDeniedDelete: CocoaError.Code { CocoaError.Code(rawValue: NSValidationRelationshipDeniedDeleteError) }

    /// A number is above its attribute's maximum (1610).
    public static var validationNumberTooLarge: CocoaError.Code { CocoaError.Code(rawValue: NSValidationNumberTooLargeError) }

    /// A number is below its attribute's minimum (1620).
    public static var validationNumberTooSmall: CocoaError.Code { CocoaError.Code(rawValue: NSValidationNumberTooSmallError) }

    /// A date is after its attribute's maximum (1630).
    public static var validationDateTooLate: CocoaError.Code { CocoaError.Code(rawValue: NSValidationDateTooLateError) }

    /// A date is before its attribute's minimum (1640).
    public static var validationDateTooSoon: CocoaError.Code { CocoaError.Code(rawValue: NSValidationDateTooSoonError) }

    /// A date is invalid (1650).
    public static var validationInvalidDate: CocoaError.Code { CocoaError.Code(rawValue: NSValidationInvalidDateError) }

    /// A string is longer than its attribute's maximum length (1660).
    public static var validationStringTooLong: CocoaError.Code { CocoaError.Code(rawValue: NSValidationStringTooLongError) }

    /// A string is shorter than its attribute's minimum length (1670).
    public static var validationStringTooShort: CocoaError.Code { CocoaError.Code(rawValue: NSValidationStringTooShortError) }

    /// A string does not match its attribute's regular expression (1680).
    public static var validationStringPatternMatching: CocoaError.Code { CocoaError.Code(rawValue: NSValidationStringPatternMatchingError) }

    /// A managed object context could not be locked (132000).
    public static var managedObjectContextLocking: CocoaError.Code { CocoaError.Code(rawValue: NSManagedObjectContextLockingError) }

    /// A persistent store coordinator could not be locked (132010).
    public static var persistentStoreCoordinatorLocking: CocoaError.Code { CocoaError.Code(rawValue: NSPersistentStoreCoordinatorLockingError) }

    /// A fault points to an object that is not in its store (133000).
    public static var managedObjectReferentialIntegrity: CocoaError.Code { CocoaError.Code(rawValue: NSManagedObjectReferentialIntegrityError) }

    /// A relationship points to an object in another store (133010).
    public static var managedObjectExternalRelationship: CocoaError.Code { CocoaError.Code(rawValue: NSManagedObjectExternalRelationshipError) }

    /// A save found optimistic-locking conflicts it could not merge (133020).
    public static var managedObjectMerge: CocoaError.Code { CocoaError.Code(rawValue: NSManagedObjectMergeError) }

    /// A save found uniqueness-constraint conflicts it could not merge (133021).
    public static var managedObjectConstraintMerge: CocoaError.Code { CocoaError.Code(rawValue: NSManagedObjectConstraintMergeError) }

    /// The store's type is unknown (134000).
    public static var persistentStoreInvalidType: CocoaError.Code { CocoaError.Code(rawValue: NSPersistentStoreInvalidTypeError) }

    /// The store's type does not match its data (134010).
    public static var persistentStoreTypeMismatch: CocoaError.Code { CocoaError.Code(rawValue: NSPersistentStoreTypeMismatchError) }

    /// The store's schema does not match the model's configuration (134020).
    public static var persistentStoreIncompatibleSchema: CocoaError.Code { CocoaError.Code(rawValue: NSPersistentStoreIncompatibleSchemaError) }

    /// The store could not save (134030).
    public static var persistentStoreSave: CocoaError.Code { CocoaError.Code(rawValue: NSPersistentStoreSaveError) }

    /// Only some of the stores saved (134040).
    public static var persistentStoreIncompleteSave: CocoaError.Code { CocoaError.Code(rawValue: NSPersistentStoreIncompleteSaveError) }

    /// The save found conflicts; they are the error's `NSPersistentStoreSaveConflictsErrorKey` (134050).
    public static var persistentStoreSaveConflicts: CocoaError.Code { CocoaError.Code(rawValue: NSPersistentStoreSaveConflictsError) }

    /// A general Core Data error (134060).
    public static var coreData: CocoaError.Code { CocoaError.Code(rawValue: NSCoreDataError) }

    /// A persistent store operation failed (134070).
    public static var persistentStoreOperation: CocoaError.Code { CocoaError.Code(rawValue: NSPersistentStoreOperationError) }

    /// The store could not be opened (134080).
    public static var persistentStoreOpen: CocoaError.Code { CocoaError.Code(rawValue: NSPersistentStoreOpenError) }

    /// Connecting to the store timed out (134090).
    public static var persistentStoreTimeout: CocoaError.Code { CocoaError.Code(rawValue: NSPersistentStoreTimeoutError) }

    /// The store does not support the request's type (134091).
    public static var persistentStoreUnsupportedRequestType: CocoaError.Code { CocoaError.Code(rawValue: NSPersistentStoreUnsupportedRequestTypeError) }

    /// The store was written with a model whose version hashes differ from the model's (134100).
    public static var persistentStoreIncompatibleVersionHash: CocoaError.Code { CocoaError.Code(rawValue: NSPersistentStoreIncompatibleVersionHashError) }

    /// A migration failed (134110).
    public static var migration: CocoaError.Code { CocoaError.Code(rawValue: NSMigrationError) }

    /// A migration was cancelled (134120).
    public static var migrationCancelled: CocoaError.Code { CocoaError.Code(rawValue: NSMigrationCancelledError) }

    /// No model matches the store to migrate (134130).
    public static var migrationMissingSourceModel: CocoaError.Code { CocoaError.Code(rawValue: NSMigrationMissingSourceModelError) }

    /// No mapping model was found for the migration (134140).
    public static var migrationMissingMappingModel: CocoaError.Code { CocoaError.Code(rawValue: NSMigrationMissingMappingModelError) }

    /// The migration's source store is unusable (134150).
    public static var migrationManagerSourceStore: CocoaError.Code { CocoaError.Code(rawValue: NSMigrationManagerSourceStoreError) }

    /// The migration's destination store is unusable (134160).
    public static var migrationManagerDestinationStore: CocoaError.Code { CocoaError.Code(rawValue: NSMigrationManagerDestinationStoreError) }

    /// An entity migration policy failed (134170).
    public static var entityMigrationPolicy: CocoaError.Code { CocoaError.Code(rawValue: NSEntityMigrationPolicyError) }

    /// SQLite reported an error, which is the error's underlying error (134180).
    public static var sqlite: CocoaError.Code { CocoaError.Code(rawValue: NSSQLiteError) }

    /// No mapping model could be inferred (134190).
    public static var inferredMappingModel: CocoaError.Code { CocoaError.Code(rawValue: NSInferredMappingModelError) }

    /// An external record could not be imported (134200).
    public static var externalRecordImport: CocoaError.Code { CocoaError.Code(rawValue: NSExternalRecordImportError) }
}

/// The names the codes had before Swift 3 ended in `Error`; Apple deprecated them.
extension _CoreDataCocoaErrorCodes {
    /// The former name of `managedObjectValidation`.
    @available(*, deprecated, renamed: "managedObjectValidation")
    public static var managedObjectValidationError: CocoaError.Code { .managedObjectValidation }

    /// The former name of `validationMultipleErrors`.
    @available(*, deprecated, renamed: "validationMultipleErrors")
    public static var validationMultipleErrorsError: CocoaError.Code { .validationMultipleErrors }

    /// The former name of `validationMissingMandatoryProperty`.
    @available(*, deprecated, renamed: "validationMissingMandatoryProperty")
    public static var validationMissingMandatoryPropertyError: CocoaError.Code { .validationMissingMandatoryProperty }

    /// The former name of `validationRelationshipLacksMinimumCount`.
    @available(*, deprecated, renamed: "validationRelationshipLacksMinimumCount")
    public static var validationRelationshipLacksMinimumCountError: CocoaError.Code { .validationRelationshipLacksMinimumCount }

    /// The former name of `validationRelationshipExceedsMaximumCount`.
    @available(*, deprecated, renamed: "validationRelationshipExceedsMaximumCount")
    public static var validationRelationshipExceedsMaximumCountError: CocoaError.Code { .validationRelationshipExceedsMaximumCount }

    /// The former name of `validationRelationshipDeniedDelete`.
    @available(*, deprecated, renamed: "validationRelationshipDeniedDelete")
    public static var validationRelationshipDeniedDeleteError: CocoaError.Code { .validationRelationshipDeniedDelete }

    /// The former name of `validationNumberTooLarge`.
    @available(*, deprecated, renamed: "validationNumberTooLarge")
    public static var validationNumberTooLargeError: CocoaError.Code { .validationNumberTooLarge }

    /// The former name of `validationNumberTooSmall`.
    @available(*, deprecated, renamed: "validationNumberTooSmall")
    public static var validationNumberTooSmallError: CocoaError.Code { .validationNumberTooSmall }

    /// The former name of `validationDateTooLate`.
    @available(*, deprecated, renamed: "validationDateTooLate")
    public static var validationDateTooLateError: CocoaError.Code { .validationDateTooLate }

    /// The former name of `validationDateTooSoon`.
    @available(*, deprecated, renamed: "validationDateTooSoon")
    public static var validationDateTooSoonError: CocoaError.Code { .validationDateTooSoon }

    /// The former name of `validationInvalidDate`.
    @available(*, deprecated, renamed: "validationInvalidDate")
    public static var validationInvalidDateError: CocoaError.Code { .validationInvalidDate }

    /// The former name of `validationStringTooLong`.
    @available(*, deprecated, renamed: "validationStringTooLong")
    public static var validationStringTooLongError: CocoaError.Code { .validationStringTooLong }

    /// The former name of `validationStringTooShort`.
    @available(*, deprecated, renamed: "validationStringTooShort")
    public static var validationStringTooShortError: CocoaError.Code { .validationStringTooShort }

    /// The former name of `validationStringPatternMatching`.
    @available(*, deprecated, renamed: "validationStringPatternMatching")
    public static var validationStringPatternMatchingError: CocoaError.Code { .validationStringPatternMatching }

    /// The former name of `managedObjectContextLocking`.
    @available(*, deprecated, renamed: "managedObjectContextLocking")
    public static var managedObjectContextLockingError: CocoaError.Code { .managedObjectContextLocking }

    /// The former name of `persistentStoreCoordinatorLocking`.
    @available(*, deprecated, renamed: "persistentStoreCoordinatorLocking")
    public static var persistentStoreCoordinatorLockingError: CocoaError.Code { .persistentStoreCoordinatorLocking }

    /// The former name of `managedObjectReferentialIntegrity`.
    @available(*, deprecated, renamed: "managedObjectReferentialIntegrity")
    public static var managedObjectReferentialIntegrityError: CocoaError.Code { .managedObjectReferentialIntegrity }

    /// The former name of `managedObjectExternalRelationship`.
    @available(*, deprecated, renamed: "managedObjectExternalRelationship")
    public static var managedObjectExternalRelationshipError: CocoaError.Code { .managedObjectExternalRelationship }

    /// The former name of `managedObjectMerge`.
    @available(*, deprecated, renamed: "managedObjectMerge")
    public static var managedObjectMergeError: CocoaError.Code { .managedObjectMerge }

    /// The former name of `managedObjectConstraintMerge`.
    @available(*, deprecated, renamed: "managedObjectConstraintMerge")
    public static var managedObjectConstraintMergeError: CocoaError.Code { .managedObjectConstraintMerge }

    /// The former name of `persistentStoreInvalidType`.
    @available(*, deprecated, renamed: "persistentStoreInvalidType")
    public static var persistentStoreInvalidTypeError: CocoaError.Code { .persistentStoreInvalidType }

    /// The former name of `persistentStoreTypeMismatch`.
    @available(*, deprecated, renamed: "persistentStoreTypeMismatch")
    public static var persistentStoreTypeMismatchError: CocoaError.Code { .persistentStoreTypeMismatch }

    /// The former name of `persistentStoreIncompatibleSchema`.
    @available(*, deprecated, renamed: "persistentStoreIncompatibleSchema")
    public static var persistentStoreIncompatibleSchemaError: CocoaError.Code { .persistentStoreIncompatibleSchema }

    /// The former name of `persistentStoreSave`.
    @available(*, deprecated, renamed: "persistentStoreSave")
    public static var persistentStoreSaveError: CocoaError.Code { .persistentStoreSave }

    /// The former name of `persistentStoreIncompleteSave`.
    @available(*, deprecated, renamed: "persistentStoreIncompleteSave")
    public static var persistentStoreIncompleteSaveError: CocoaError.Code { .persistentStoreIncompleteSave }

    /// The former name of `persistentStoreSaveConflicts`.
    @available(*, deprecated, renamed: "persistentStoreSaveConflicts")
    public static var persistentStoreSaveConflictsError: CocoaError.Code { .persistentStoreSaveConflicts }

    /// The former name of `coreData`.
    @available(*, deprecated, renamed: "coreData")
    public static var coreDataError: CocoaError.Code { .coreData }

    /// The former name of `persistentStoreOperation`.
    @available(*, deprecated, renamed: "persistentStoreOperation")
    public static var persistentStoreOperationError: CocoaError.Code { .persistentStoreOperation }

    /// The former name of `persistentStoreOpen`.
    @available(*, deprecated, renamed: "persistentStoreOpen")
    public static var persistentStoreOpenError: CocoaError.Code { .persistentStoreOpen }

    /// The former name of `persistentStoreTimeout`.
    @available(*, deprecated, renamed: "persistentStoreTimeout")
    public static var persistentStoreTimeoutError: CocoaError.Code { .persistentStoreTimeout }

    /// The former name of `persistentStoreUnsupportedRequestType`.
    @available(*, deprecated, renamed: "persistentStoreUnsupportedRequestType")
    public static var persistentStoreUnsupportedRequestTypeError: CocoaError.Code { .persistentStoreUnsupportedRequestType }

    /// The former name of `persistentStoreIncompatibleVersionHash`.
    @available(*, deprecated, renamed: "persistentStoreIncompatibleVersionHash")
    public static var persistentStoreIncompatibleVersionHashError: CocoaError.Code { .persistentStoreIncompatibleVersionHash }

    /// The former name of `migration`.
    @available(*, deprecated, renamed: "migration")
    public static var migrationError: CocoaError.Code { .migration }

    /// The former name of `migrationCancelled`.
    @available(*, deprecated, renamed: "migrationCancelled")
    public static var migrationCancelledError: CocoaError.Code { .migrationCancelled }

    /// The former name of `migrationMissingSourceModel`.
    @available(*, deprecated, renamed: "migrationMissingSourceModel")
    public static var migrationMissingSourceModelError: CocoaError.Code { .migrationMissingSourceModel }

    /// The former name of `migrationMissingMappingModel`.
    @available(*, deprecated, renamed: "migrationMissingMappingModel")
    public static var migrationMissingMappingModelError: CocoaError.Code { .migrationMissingMappingModel }

    /// The former name of `migrationManagerSourceStore`.
    @available(*, deprecated, renamed: "migrationManagerSourceStore")
    public static var migrationManagerSourceStoreError: CocoaError.Code { .migrationManagerSourceStore }

    /// The former name of `migrationManagerDestinationStore`.
    @available(*, deprecated, renamed: "migrationManagerDestinationStore")
    public static var migrationManagerDestinationStoreError: CocoaError.Code { .migrationManagerDestinationStore }

    /// The former name of `entityMigrationPolicy`.
    @available(*, deprecated, renamed: "entityMigrationPolicy")
    public static var entityMigrationPolicyError: CocoaError.Code { .entityMigrationPolicy }

    /// The former name of `sqlite`.
    @available(*, deprecated, renamed: "sqlite")
    public static var sqliteError: CocoaError.Code { .sqlite }

    /// The former name of `inferredMappingModel`.
    @available(*, deprecated, renamed: "inferredMappingModel")
    public static var inferredMappingModelError: CocoaError.Code { .inferredMappingModel }

    /// The former name of `externalRecordImport`.
    @available(*, deprecated, renamed: "externalRecordImport")
    public static var externalRecordImportError: CocoaError.Code { .externalRecordImport }
}
