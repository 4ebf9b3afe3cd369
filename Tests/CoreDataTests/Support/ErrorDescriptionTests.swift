@testable import CoreData
import Testing

/// Core Data's errors read as Apple's do: the localized description Apple's Core Data gives each
/// code (in `localizedDescription` and under `NSLocalizedDescriptionKey`), and `print(error)`
/// showing `Error Domain=NSCocoaErrorDomain Code=1570 "title is a required value." UserInfo={…}`,
/// whether the error is caught as `Error`, `NSError` or `CocoaError`.
@Suite struct ErrorDescriptionTests {
    /// The localized description, checked every way a program reads it.
    private func expectDescription(_ error: any Error, _ expected: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(error.localizedDescription == expected, sourceLocation: sourceLocation)
        #expect((error as NSError).localizedDescription == expected, sourceLocation: sourceLocation)
        #expect((error as NSError).userInfo[NSLocalizedDescriptionKey] as? String == expected, sourceLocation: sourceLocation)
        #expect((error as? CocoaError)?.localizedDescription == expected, sourceLocation: sourceLocation)
    }

    // MARK: Printing

    @Test func aValidationErrorPrintsAsApplesDoes() throws {
        let (error, _) = try CoreDataFailures.missingMandatoryAttribute()
        let printed = "\(error)"
        #expect(printed.hasPrefix(#"Error Domain=NSCocoaErrorDomain Code=1570 "title is a required value." UserInfo={"#), "\(printed)")
        #expect(printed.contains("NSValidationErrorKey=title"))
        #expect(printed.contains("NSLocalizedDescription=title is a required value."))
        #expect(printed.contains("NSValidationErrorObject="))
        #expect(printed.hasSuffix("}"))
        #expect(String(describing: error as NSError) == printed)
        #expect(String(describing: try #require(error as? CocoaError)) == printed)
    }

    @Test func theXcodeTemplatesFatalErrorMessageNamesTheProblem() throws {
        let (error, _) = try CoreDataFailures.missingMandatoryAttribute()
        let nsError = error as NSError
        let message = "Unresolved error \(nsError), \(nsError.userInfo)"
        #expect(message.hasPrefix(#"Unresolved error Error Domain=NSCocoaErrorDomain Code=1570 "title is a required value.""#), "\(message)")
        #expect(!message.contains("(null)"))
    }

    @Test func theDescriptionIsQuotedAndTheUserInfoFollowsInKeyOrder() {
        let error = CoreDataError.make(NSPersistentStoreSaveError, "The store is read-only.")
        #expect("\(error)" == #"Error Domain=NSCocoaErrorDomain Code=134030 "An error occurred while saving." UserInfo={NSLocalizedDescription=An error occurred while saving., reason=The store is read-only.}"#)
    }

    // MARK: Validation errors

    @Test func aMissingMandatoryAttribute() throws {
        expectDescription(try CoreDataFailures.missingMandatoryAttribute().error, "title is a required value.")
    }

    @Test func severalValidationErrors() throws {
        let error = try CoreDataFailures.twoMissingAttributes()
        expectDescription(error, "Multiple validation errors occurred.")
        let details = (error as NSError).userInfo[NSDetailedErrorsKey] as? [NSError] ?? []
        #expect(details.map(\.localizedDescription) == ["title is a required value.", "title is a required value."])
    }

    @Test(arguments: [(1, "Too few items in players."), (4, "Too many items in players.")])
    func relationshipCounts(count: Int, description: String) throws {
        expectDescription(try CoreDataFailures.teamWithPlayers(count), description)
    }

    @Test func aDeniedDelete() throws {
        expectDescription(try CoreDataFailures.deniedDelete(), "Items cannot be deleted from roles.")
    }

    @Test func aStringTooLong() throws {
        expectDescription(try CoreDataFailures.invalidAccount("code", "toolong").error, "code is too long.")
    }

    @Test func aNumberTooLarge() throws {
        expectDescription(try CoreDataFailures.invalidAccount("score", 101).error, "score is too large.")
    }

    @Test func aValueOfTheWrongType() throws {
        expectDescription(try CoreDataFailures.invalidAccount("balance", "a lot").error, "balance is not valid.")
    }

    @Test func aValidationPredicateWithTheModelsOwnMessageUsesIt() throws {
        let error = try CoreDataFailures.invalidAccount("balance", -1).error
        expectDescription(error, CtxValidationModel.balanceWarning)
        #expect((error as NSError).code == NSManagedObjectValidationError)
    }

    @Test func anExplanationBeyondApplesTextIsTheReason() throws {
        let error = try CoreDataFailures.teamWithPlayers(1) as NSError
        #expect((error.userInfo[CoreDataError.reasonKey] as? String)?.contains("1 of at least 2") == true)
        let required = try CoreDataFailures.missingMandatoryAttribute().error as NSError
        #expect(required.userInfo[CoreDataError.reasonKey] == nil, "it would say what the description says")
    }

    // MARK: Saves, stores and fetches

    @Test func anOptimisticLockingConflict() throws {
        expectDescription(try CoreDataFailures.optimisticLockingConflict().error, "Could not merge changes.")
    }

    @Test func aUniquenessConflictHasFoundationsFallbackAsApplesHasNoText() throws {
        expectDescription(try CoreDataFailures.uniquenessConstraintConflict(), "The operation couldn’t be completed. (Cocoa error 133021.)")
    }

    @Test func anIncompatibleStore() throws {
        let error = try CoreDataFailures.incompatibleStore()
        expectDescription(error, "The managed object model version used to open the persistent store is incompatible with the one that was used to create the persistent store.")
        #expect(((error as NSError).userInfo[CoreDataError.reasonKey] as? String)?.contains("incompatible") == true)
    }

    @Test func aMissingStoreFile() throws {
        let (error, _) = try CoreDataFailures.missingStoreFile()
        expectDescription(error, "The file “Missing.sqlite” couldn’t be opened because there is no such file.")
        let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
        #expect(underlying?.domain == NSPOSIXErrorDomain)
        #expect(underlying?.code == Int(ENOENT))
    }

    @Test func anUnknownStoreType() throws {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: MovieModel.make())
        let error = try #require(ctxError { try coordinator.addPersistentStore(ofType: "NoSuchType", configurationName: nil, at: nil, options: nil) })
        #expect(error.code == NSPersistentStoreInvalidTypeError)
        expectDescription(error, "Failed to save. Unknown store type, format, or version.")
        #expect((error.userInfo[CoreDataError.reasonKey] as? String)?.contains("NoSuchType") == true)
    }

    @Test func anUnknownSortKeyIsAGeneralCoreDataErrorWhoseReasonNamesTheKey() throws {
        let error = try CoreDataFailures.unknownSortKey()
        expectDescription(error, "A Core Data error occurred.")
        #expect(((error as NSError).userInfo[CoreDataError.reasonKey] as? String)?.contains("director") == true)
    }

    // MARK: The table

    @Test func everyCoreDataCodeHasADescription() {
        for code in CocoaErrorTests.codes.map(\.0.rawValue) {
            let description = CoreDataError.localizedDescription(ofCoreDataCode: code, validationKey: "name")
            #expect(description?.isEmpty == false, "\(code)")
            #expect(description?.contains("%{PROPERTY}@") == false, "\(code)")
        }
    }

    @Test func aValidationTextWithoutAKeyFallsBackToFoundationsText() {
        #expect(CoreDataError.localizedDescription(ofCoreDataCode: 1570, validationKey: nil) == "The operation couldn’t be completed. (Cocoa error 1570.)")
    }

    @Test func foundationCodesKeepTheirOwnDescription() {
        #expect(CoreDataError.localizedDescription(ofCoreDataCode: CocoaError.Code.formatting.rawValue, validationKey: nil) == nil)
        let error = CoreDataError.make(CocoaError.Code.formatting.rawValue, "Unable to parse the format string \"a ==\"")
        #expect(error.localizedDescription == "Unable to parse the format string \"a ==\"")
        #expect(error.userInfo[CoreDataError.reasonKey] == nil)
    }
}
