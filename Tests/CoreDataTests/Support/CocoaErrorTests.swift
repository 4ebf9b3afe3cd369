@testable import CoreData
import Testing

/// Core Data's members of `CocoaError` and `CocoaError.Code` (Apple's Swift surface): the codes
/// with Apple's raw values (`CoreDataErrors.h`, spec B.11), the userInfo accessors, and Core
/// Data's errors caught as `CocoaError` and as `NSError`.
@Suite struct CocoaErrorTests {
    /// Each code as `CocoaError.Code` and as `CocoaError`'s static member, with Apple's raw value.
    static let codes: [(CocoaError.Code, CocoaError.Code, Int)] = [
        (.managedObjectValidation, CocoaError.managedObjectValidation, 1550),
        (.validationMultipleErrors, CocoaError.validationMultipleErrors, 1560),
        (.validationMissingMandatoryProperty, CocoaError.validationMissingMandatoryProperty, 1570),
        (.validationRelationshipLacksMinimumCount, CocoaError.validationRelationshipLacksMinimumCount, 1580),
        (.validationRelationshipExceedsMaximumCount, CocoaError.validationRelationshipExceedsMaximumCount, 1590),
        (.validationRelationshipDeniedDelete, CocoaError.validationRelationshipDeniedDelete, 1600),
        (.validationNumberTooLarge, CocoaError.validationNumberTooLarge, 1610),
        (.validationNumberTooSmall, CocoaError.validationNumberTooSmall, 1620),
        (.validationDateTooLate, CocoaError.validationDateTooLate, 1630),
        (.validationDateTooSoon, CocoaError.validationDateTooSoon, 1640),
        (.validationInvalidDate, CocoaError.validationInvalidDate, 1650),
        (.validationStringTooLong, CocoaError.validationStringTooLong, 1660),
        (.validationStringTooShort, CocoaError.validationStringTooShort, 1670),
        (.validationStringPatternMatching, CocoaError.validationStringPatternMatching, 1680),
        (.managedObjectContextLocking, CocoaError.managedObjectContextLocking, 132000),
        (.persistentStoreCoordinatorLocking, CocoaError.persistentStoreCoordinatorLocking, 132010),
        (.managedObjectReferentialIntegrity, CocoaError.managedObjectReferentialIntegrity, 133000),
        (.managedObjectExternalRelationship, CocoaError.managedObjectExternalRelationship, 133010),
        (.managedObjectMerge, CocoaError.managedObjectMerge, 133020),
        (.managedObjectConstraintMerge, CocoaError.managedObjectConstraintMerge, 133021),
        (.persistentStoreInvalidType, CocoaError.persistentStoreInvalidType, 134000),
        (.persistentStoreTypeMismatch, CocoaError.persistentStoreTypeMismatch, 134010),
        (.persistentStoreIncompatibleSchema, CocoaError.persistentStoreIncompatibleSchema, 134020),
        (.persistentStoreSave, CocoaError.persistentStoreSave, 134030),
        (.persistentStoreIncompleteSave, CocoaError.persistentStoreIncompleteSave, 134040),
        (.persistentStoreSaveConflicts, CocoaError.persistentStoreSaveConflicts, 134050),
        (.coreData, CocoaError.coreData, 134060),
        (.persistentStoreOperation, CocoaError.persistentStoreOperation, 134070),
        (.persistentStoreOpen, CocoaError.persistentStoreOpen, 134080),
        (.persistentStoreTimeout, CocoaError.persistentStoreTimeout, 134090),
        (.persistentStoreUnsupportedRequestType, CocoaError.persistentStoreUnsupportedRequestType, 134091),
        (.persistentStoreIncompatibleVersionHash, CocoaError.persistentStoreIncompatibleVersionHash, 134100),
        (.migration, CocoaError.migration, 134110),
        (.migrationCancelled, CocoaError.migrationCancelled, 134120),
        (.migrationMissingSourceModel, CocoaError.migrationMissingSourceModel, 134130),
        (.migrationMissingMappingModel, CocoaError.migrationMissingMappingModel, 134140),
        (.migrationManagerSourceStore, CocoaError.migrationManagerSourceStore, 134150),
        (.migrationManagerDestinationStore, CocoaError.migrationManagerDestinationStore, 134160),
        (.entityMigrationPolicy, CocoaError.entityMigrationPolicy, 134170),
        (.sqlite, CocoaError.sqlite, 134180),
        (.inferredMappingModel, CocoaError.inferredMappingModel, 134190),
        (.externalRecordImport, CocoaError.externalRecordImport, 134200),
    ]

    @Test(arguments: codes)
    func eachCodeHasApplesRawValue(code: CocoaError.Code, member: CocoaError.Code, rawValue: Int) {
        #expect(code.rawValue == rawValue)
        #expect(member == code)
    }

    @available(*, deprecated, message: "reads Apple's deprecated names on purpose")
    @Test func theDeprecatedNamesEndingInErrorAreTheSameCodes() {
        let codes: [(CocoaError.Code, CocoaError.Code, Int)] = [
            (.managedObjectValidationError, CocoaError.managedObjectValidationError, 1550),
            (.validationMultipleErrorsError, CocoaError.validationMultipleErrorsError, 1560),
            (.validationMissingMandatoryPropertyError, CocoaError.validationMissingMandatoryPropertyError, 1570),
            (.validationRelationshipLacksMinimumCountError, CocoaError.validationRelationshipLacksMinimumCountError, 1580),
            (.validationRelationshipExceedsMaximumCountError, CocoaError.validationRelationshipExceedsMaximumCountError, 1590),
            (.validationRelationshipDeniedDeleteError, CocoaError.validationRelationshipDeniedDeleteError, 1600),
            (.validationNumberTooLargeError, CocoaError.validationNumberTooLargeError, 1610),
            (.validationNumberTooSmallError, CocoaError.validationNumberTooSmallError, 1620),
            (.validationDateTooLateError, CocoaError.validationDateTooLateError, 1630),
            (.validationDateTooSoonError, CocoaError.validationDateTooSoonError, 1640),
            (.validationInvalidDateError, CocoaError.validationInvalidDateError, 1650),
            (.validationStringTooLongError, CocoaError.validationStringTooLongError, 1660),
            (.validationStringTooShortError, CocoaError.validationStringTooShortError, 1670),
            (.validationStringPatternMatchingError, CocoaError.validationStringPatternMatchingError, 1680),
            (.managedObjectContextLockingError, CocoaError.managedObjectContextLockingError, 132000),
            (.persistentStoreCoordinatorLockingError, CocoaError.persistentStoreCoordinatorLockingError, 132010),
            (.managedObjectReferentialIntegrityError, CocoaError.managedObjectReferentialIntegrityError, 133000),
            (.managedObjectExternalRelationshipError, CocoaError.managedObjectExternalRelationshipError, 133010),
            (.managedObjectMergeError, CocoaError.managedObjectMergeError, 133020),
            (.managedObjectConstraintMergeError, CocoaError.managedObjectConstraintMergeError, 133021),
            (.persistentStoreInvalidTypeError, CocoaError.persistentStoreInvalidTypeError, 134000),
            (.persistentStoreTypeMismatchError, CocoaError.persistentStoreTypeMismatchError, 134010),
            (.persistentStoreIncompatibleSchemaError, CocoaError.persistentStoreIncompatibleSchemaError, 134020),
            (.persistentStoreSaveError, CocoaError.persistentStoreSaveError, 134030),
            (.persistentStoreIncompleteSaveError, CocoaError.persistentStoreIncompleteSaveError, 134040),
            (.persistentStoreSaveConflictsError, CocoaError.persistentStoreSaveConflictsError, 134050),
            (.coreDataError, CocoaError.coreDataError, 134060),
            (.persistentStoreOperationError, CocoaError.persistentStoreOperationError, 134070),
            (.persistentStoreOpenError, CocoaError.persistentStoreOpenError, 134080),
            (.persistentStoreTimeoutError, CocoaError.persistentStoreTimeoutError, 134090),
            (.persistentStoreUnsupportedRequestTypeError, CocoaError.persistentStoreUnsupportedRequestTypeError, 134091),
            (.persistentStoreIncompatibleVersionHashError, CocoaError.persistentStoreIncompatibleVersionHashError, 134100),
            (.migrationError, CocoaError.migrationError, 134110),
            (.migrationCancelledError, CocoaError.migrationCancelledError, 134120),
            (.migrationMissingSourceModelError, CocoaError.migrationMissingSourceModelError, 134130),
            (.migrationMissingMappingModelError, CocoaError.migrationMissingMappingModelError, 134140),
            (.migrationManagerSourceStoreError, CocoaError.migrationManagerSourceStoreError, 134150),
            (.migrationManagerDestinationStoreError, CocoaError.migrationManagerDestinationStoreError, 134160),
            (.entityMigrationPolicyError, CocoaError.entityMigrationPolicyError, 134170),
            (.sqliteError, CocoaError.sqliteError, 134180),
            (.inferredMappingModelError, CocoaError.inferredMappingModelError, 134190),
            (.externalRecordImportError, CocoaError.externalRecordImportError, 134200),
        ]
        #expect(codes.count == Self.codes.count)
        for (code, member, rawValue) in codes {
            #expect(code.rawValue == rawValue)
            #expect(member == code)
        }
    }

    // MARK: Caught as CocoaError

    @Test func aMissingMandatoryAttributeIsCaughtAsCocoaErrorWithItsKeyObjectAndValue() throws {
        let (error, movie) = try CoreDataFailures.missingMandatoryAttribute()
        do {
            throw error
        } catch let error as CocoaError where error.code == .validationMissingMandatoryProperty {
            #expect(error.validationKey == "title")
            #expect(error.validationObject as? NSManagedObject === movie)
            #expect(error.validationValue == nil)
            #expect(error.validationPredicate == nil)
        } catch {
            Issue.record("not caught as CocoaError: \(error)")
        }
    }

    @Test func aMissingMandatoryAttributeIsStillCaughtAsNSError() throws {
        let (error, movie) = try CoreDataFailures.missingMandatoryAttribute()
        do {
            throw error
        } catch let error as NSError {
            #expect(error.domain == NSCocoaErrorDomain)
            #expect(error.code == NSValidationMissingMandatoryPropertyError)
            #expect(error.userInfo[NSValidationKeyErrorKey] as? String == "title")
            #expect(error.userInfo[NSValidationObjectErrorKey] as? NSManagedObject === movie)
        }
    }

    @Test func aCodeMatchesTheErrorAsAPattern() throws {
        let (error, _) = try CoreDataFailures.missingMandatoryAttribute()
        do {
            throw error
        } catch CocoaError.validationMissingMandatoryProperty {
            // Apple's `~=` of a code against an error matches it.
        } catch {
            Issue.record("the code did not match: \(error)")
        }
    }

    @Test func aBrokenValidationPredicateGivesThePredicateAndTheValue() throws {
        let (error, account) = try CoreDataFailures.invalidAccount("code", "toolong")
        let cocoaError = try #require(error as? CocoaError)
        #expect(cocoaError.code == .validationStringTooLong)
        #expect(cocoaError.validationKey == "code")
        #expect(cocoaError.validationValue as? String == "toolong")
        #expect(cocoaError.validationObject as? NSManagedObject === account)
        #expect(cocoaError.validationPredicate?.predicateFormat == NSPredicate(format: "length <= 5").predicateFormat)
    }

    @Test func severalFailuresAreValidationMultipleErrors() throws {
        let cocoaError = try #require(try CoreDataFailures.twoMissingAttributes() as? CocoaError)
        #expect(cocoaError.code == .validationMultipleErrors)
        let details = cocoaError.userInfo[NSDetailedErrorsKey] as? [NSError] ?? []
        #expect(details.map(\.code) == [1570, 1570])
        #expect(details.compactMap { ($0 as any Error) as? CocoaError }.map(\.validationKey) == ["title", "title"])
    }

    @Test func anOptimisticLockingConflictGivesItsMergeConflictsAndObjects() throws {
        let (error, movie) = try CoreDataFailures.optimisticLockingConflict()
        let cocoaError = try #require(error as? CocoaError)
        #expect(cocoaError.code == .managedObjectMerge)
        let conflicts = try #require(cocoaError.persistentStoreSaveConflicts)
        #expect(conflicts.map(\.sourceObject) == [movie])
        #expect(cocoaError.affectedObjects?.count == 1)
        #expect(cocoaError.affectedObjects?.first === movie)
    }

    @Test func aUniquenessConflictIsNotAMergeConflict() throws {
        let cocoaError = try #require(try CoreDataFailures.uniquenessConstraintConflict() as? CocoaError)
        #expect(cocoaError.code == .managedObjectConstraintMerge)
        #expect(cocoaError.persistentStoreSaveConflicts == nil, "its conflicts are NSConstraintConflicts")
        #expect(cocoaError.userInfo[NSPersistentStoreSaveConflictsErrorKey] is [NSConstraintConflict])
        #expect(cocoaError.affectedObjects?.count == 1)
    }

    @Test func anIncompatibleStoreIsPersistentStoreIncompatibleVersionHash() throws {
        let cocoaError = try #require(try CoreDataFailures.incompatibleStore() as? CocoaError)
        #expect(cocoaError.code == .persistentStoreIncompatibleVersionHash)
        #expect(cocoaError.userInfo["metadata"] is [String: Any])
    }

    @Test func aMissingStoreFileIsFoundationsFileReadNoSuchFile() throws {
        let (error, url) = try CoreDataFailures.missingStoreFile()
        let cocoaError = try #require(error as? CocoaError)
        #expect(cocoaError.code == .fileReadNoSuchFile)
        #expect(cocoaError.userInfo[NSFilePathErrorKey] as? String == url.path)
        #expect(cocoaError.userInfo[NSURLErrorKey] as? URL == url)
    }

    @Test func affectedStoresReadsTheStoresOfTheError() throws {
        let stack = try CtxStack(model: MovieModel.make())
        let error = CocoaError(.persistentStoreOperation, userInfo: [NSAffectedStoresErrorKey: [stack.store]])
        #expect(error.affectedStores?.count == 1)
        #expect(error.affectedStores?.first === stack.store)
        #expect(CocoaError(.persistentStoreOperation).affectedStores == nil)
    }
}
