@testable import CoreData
import Foundation
import Testing

/// Reading Xcode's model files (`store-format.md` §1.1–1.2): bundles and their versions, and every
/// element and attribute of the `contents` XML as Apple's model API exposes it.
@Suite struct ModelFileReadingTests {
    // MARK: Helpers

    private func entity(_ name: String, in model: NSManagedObjectModel) throws -> NSEntityDescription {
        try #require(model.entitiesByName[name], "no entity \(name)")
    }

    private func attribute(_ entityName: String, _ name: String, in model: NSManagedObjectModel) throws -> NSAttributeDescription {
        try #require(entity(entityName, in: model).attributesByName[name], "no attribute \(entityName).\(name)")
    }

    private func relationship(_ entityName: String, _ name: String, in model: NSManagedObjectModel) throws -> NSRelationshipDescription {
        try #require(entity(entityName, in: model).relationshipsByName[name], "no relationship \(entityName).\(name)")
    }

    private func date(_ interval: TimeInterval) -> Date {
        Date(timeIntervalSinceReferenceDate: interval)
    }

    private func userInfoStrings(_ info: [AnyHashable: Any]?) -> [String: String] {
        var strings: [String: String] = [:]
        for (key, value) in info ?? [:] {
            strings["\(key)"] = value as? String ?? "<not a string: \(value)>"
        }
        return strings
    }

    // MARK: Bundle and versions

    @Test func bundleListsItsVersionDirectoriesSortedByName() throws {
        let bundle = try ModelBundle(url: ModelFileFixtures.library)
        #expect(bundle.versionURLs.map(\.lastPathComponent) == ["Library 2.xcdatamodel", "Library 3.xcdatamodel", "Library.xcdatamodel"])
    }

    @Test func currentVersionIsTheOneXCCurrentVersionNames() throws {
        let bundle = try ModelBundle(url: ModelFileFixtures.library)
        #expect(bundle.currentVersionURL.lastPathComponent == "Library 3.xcdatamodel")
    }

    @Test func loadingTheBundleReadsItsCurrentVersion() throws {
        let model = try #require(NSManagedObjectModel(contentsOf: ModelFileFixtures.library))
        #expect(model.versionIdentifiers == ["3"])
        #expect(model.entitiesByName["Member"] != nil)
        #expect(model.entitiesByName["Patron"] == nil)
    }

    @Test func allModelsReadsEveryVersionInDirectoryOrder() throws {
        let models = try ModelBundle(url: ModelFileFixtures.library).allModels()
        #expect(models.count == 3)
        #expect(models.map { $0.versionIdentifiers.map { "\($0)" } } == [["2"], ["3"], ["1"]])
    }

    @Test func compiledModelURLsReadTheSourcesBesideThem() throws {
        let momd = ModelFileFixtures.directory.appendingPathComponent("Library.momd")
        #expect(NSManagedObjectModel(contentsOf: momd)?.versionIdentifiers == ["3"])
        let mom = momd.appendingPathComponent("Library 2.mom")
        #expect(NSManagedObjectModel(contentsOf: mom)?.versionIdentifiers == ["2"])
    }

    @Test func aVersionDirectoryInsideTheBundleLoadsOnItsOwn() throws {
        let model = try #require(NSManagedObjectModel(contentsOf: ModelFileFixtures.library(version: "Library")))
        #expect(model.versionIdentifiers == ["1"])
        #expect(Set(model.entitiesByName.keys) == ["Author", "Book", "Patron"])
        #expect(try attribute("Book", "pages", in: model).attributeType == .integer32AttributeType)
    }

    @Test func secondVersionAddsAnAttributeAndRenamesOneWithElementID() throws {
        let first = try ModelFileFixtures.libraryModel(version: "Library")
        let second = try ModelFileFixtures.libraryModel(version: "Library 2")
        #expect(try entity("Book", in: first).attributesByName["isbn"] == nil)
        #expect(try attribute("Book", "isbn", in: second).attributeType == .stringAttributeType)
        #expect(try entity("Author", in: second).attributesByName["name"] == nil)
        #expect(try attribute("Author", "fullName", in: second).renamingIdentifier == "name")
        #expect(try attribute("Author", "name", in: first).renamingIdentifier == nil)
    }

    @Test func entityVersionHashesChangeOnlyWhereHashedContentChanges() throws {
        let first = try ModelFileFixtures.libraryModel(version: "Library").entityVersionHashesByName
        let second = try ModelFileFixtures.libraryModel(version: "Library 2").entityVersionHashesByName
        let third = try ModelFileFixtures.libraryModel(version: "Library 3").entityVersionHashesByName
        #expect(first["Author"] != second["Author"], "an attribute was renamed")
        #expect(first["Book"] != second["Book"], "an attribute was added")
        #expect(first["Patron"] == second["Patron"], "Patron is the same in both versions")
        #expect(second["Author"] != third["Author"])
        #expect(second["Book"] != third["Book"])
        #expect(Set(third.keys) == ["Author", "Book", "Genre", "Item", "Loan", "Member", "Periodical"])
    }

    @Test func modelVersionChecksumsDifferBetweenVersions() throws {
        let checksums = try ModelBundle(url: ModelFileFixtures.library).allModels().map(\.versionChecksum)
        #expect(Set(checksums).count == 3)
    }

    // MARK: The model element

    @Test func userDefinedModelVersionIdentifierBecomesVersionIdentifiers() throws {
        #expect(try ModelFileFixtures.libraryModel().versionIdentifiers == ["3"])
        let notes = try NSManagedObjectModel(validatingContentsOf: ModelFileFixtures.notes)
        #expect(notes.versionIdentifiers == [""])
    }

    @Test func everyEntityIsDeclaredAndTheDiagramLayoutIsIgnored() throws {
        let model = try ModelFileFixtures.libraryModel()
        #expect(model.entities.count == 7)
        #expect(Set(model.entitiesByName.keys) == ["Author", "Book", "Genre", "Item", "Loan", "Member", "Periodical"])
    }

    // MARK: Entities

    @Test func representedClassNameBecomesManagedObjectClassName() throws {
        let model = try ModelFileFixtures.libraryModel()
        #expect(try entity("Author", in: model).managedObjectClassName == "Author")
        #expect(try entity("Genre", in: model).managedObjectClassName == "Genre")
        // "Current Product Module": the leading dot is kept, as the file has it.
        #expect(try entity("Book", in: model).managedObjectClassName == ".Book")
    }

    @Test func parentEntityMakesSuperentityAndSubentities() throws {
        let model = try ModelFileFixtures.libraryModel()
        let item = try entity("Item", in: model)
        let book = try entity("Book", in: model)
        let periodical = try entity("Periodical", in: model)
        #expect(book.superentity === item)
        #expect(periodical.superentity === item)
        #expect(item.superentity == nil)
        #expect(Set(item.subentities.compactMap(\.name)) == ["Book", "Periodical"])
        #expect(try entity("Author", in: model).subentities.isEmpty)
    }

    @Test func subentitiesInheritTheirParentsPropertiesWithoutDeclaringThem() throws {
        let model = try ModelFileFixtures.libraryModel()
        let book = try entity("Book", in: model)
        #expect(book.attributesByName["title"] === (try attribute("Item", "title", in: model)))
        #expect(book.relationshipsByName["loans"] != nil)
        #expect(!book.declaredProperties.contains { $0.name == "title" })
        #expect(Set(book.declaredProperties.map(\.name)) == [
            "cover", "dimensions", "edition", "inPrint", "isbn", "pageCount", "price", "rating", "weight", "wordCount", "author", "genres",
        ])
    }

    @Test func isAbstractMarksOnlyTheAbstractEntity() throws {
        let model = try ModelFileFixtures.libraryModel()
        #expect(try entity("Item", in: model).isAbstract)
        #expect(try !entity("Book", in: model).isAbstract)
        #expect(try !entity("Periodical", in: model).isAbstract)
    }

    @Test func entityElementIDBecomesRenamingIdentifier() throws {
        let model = try ModelFileFixtures.libraryModel()
        #expect(try entity("Member", in: model).renamingIdentifier == "Patron")
        #expect(try entity("Author", in: model).renamingIdentifier == nil)
    }

    @Test func entityVersionHashModifierIsRead() throws {
        let model = try ModelFileFixtures.libraryModel()
        #expect(try entity("Periodical", in: model).versionHashModifier == "issues")
        #expect(try entity("Book", in: model).versionHashModifier == nil)
    }

    @Test func codeGenerationTypeIsClassCategoryOrManual() throws {
        let model = try ModelFileFixtures.libraryModel()
        #expect(try entity("Author", in: model).codeGenerationType == .classDefinition)
        #expect(try entity("Book", in: model).codeGenerationType == .category)
        #expect(try entity("Genre", in: model).codeGenerationType == nil)
        #expect(try entity("Periodical", in: model).codeGenerationType == nil)
    }

    @Test func entityUserInfoHoldsItsEntriesUnescaped() throws {
        let model = try ModelFileFixtures.libraryModel()
        #expect(userInfoStrings(try entity("Author", in: model).userInfo) == ["owner": "cataloguing & acquisitions", "table": "authors"])
    }

    @Test func syncableAddsNothingToUserInfo() throws {
        let model = try ModelFileFixtures.libraryModel()
        #expect(userInfoStrings(try entity("Genre", in: model).userInfo).isEmpty)
        #expect(userInfoStrings(try attribute("Genre", "name", in: model).userInfo).isEmpty)
    }

    // MARK: Attribute types

    @Test func attributeTypeNamesBecomeAttributeTypes() throws {
        let model = try ModelFileFixtures.libraryModel()
        let expected: [(String, String, NSAttributeType)] = [
            ("Item", "status", .integer16AttributeType),
            ("Book", "edition", .integer32AttributeType),
            ("Book", "wordCount", .integer64AttributeType),
            ("Book", "price", .decimalAttributeType),
            ("Book", "rating", .doubleAttributeType),
            ("Book", "weight", .floatAttributeType),
            ("Item", "title", .stringAttributeType),
            ("Book", "inPrint", .booleanAttributeType),
            ("Item", "acquiredOn", .dateAttributeType),
            ("Book", "cover", .binaryDataAttributeType),
            ("Item", "identifier", .UUIDAttributeType),
            ("Member", "homePage", .URIAttributeType),
            ("Author", "socialLinks", .transformableAttributeType),
            ("Item", "notes", .undefinedAttributeType),
            ("Book", "dimensions", .compositeAttributeType),
        ]
        for (entityName, name, type) in expected {
            #expect(try attribute(entityName, name, in: model).attributeType == type, "\(entityName).\(name)")
        }
    }

    @Test func optionalIsNoUnlessTheFileSaysYes() throws {
        let model = try ModelFileFixtures.libraryModel()
        #expect(try !attribute("Item", "title", in: model).isOptional)
        #expect(try !attribute("Item", "identifier", in: model).isOptional)
        #expect(try attribute("Item", "acquiredOn", in: model).isOptional)
        #expect(try !relationship("Loan", "item", in: model).isOptional)
        #expect(try relationship("Loan", "member", in: model).isOptional)
    }

    @Test func transientUndefinedAttributeIsTransient() throws {
        let model = try ModelFileFixtures.libraryModel()
        let notes = try attribute("Item", "notes", in: model)
        #expect(notes.isTransient)
        #expect(notes.isOptional)
        #expect(try !attribute("Item", "title", in: model).isTransient)
    }

    // MARK: Default values

    @Test func integerDefaultsAreNumbers() throws {
        let model = try ModelFileFixtures.libraryModel()
        #expect((try attribute("Item", "status", in: model).defaultValue as? NSNumber)?.int16Value == 0)
        #expect((try attribute("Book", "pageCount", in: model).defaultValue as? NSNumber)?.int32Value == 1)
        #expect((try attribute("Book", "wordCount", in: model).defaultValue as? NSNumber)?.int64Value == 0)
        #expect((try attribute("Periodical", "frequency", in: model).defaultValue as? NSNumber)?.int16Value == 12)
    }

    @Test func sloppyNOOnAnInteger32DefaultsToZero() throws {
        let model = try ModelFileFixtures.libraryModel()
        let edition = try attribute("Book", "edition", in: model)
        #expect(edition.attributeType == .integer32AttributeType)
        let value = try #require(edition.defaultValue as? NSNumber)
        #expect(value.int32Value == 0)
    }

    @Test func sloppyNOOnADecimalDefaultsToZero() throws {
        let model = try ModelFileFixtures.libraryModel()
        let fee = try #require(try attribute("Periodical", "subscriptionFee", in: model).defaultValue as? NSDecimalNumber)
        #expect(fee.decimalValue == 0)
    }

    @Test func floatingPointDefaultsAreNumbers() throws {
        let model = try ModelFileFixtures.libraryModel()
        #expect((try attribute("Book", "rating", in: model).defaultValue as? NSNumber)?.doubleValue == 2.5)
        #expect((try attribute("Book", "weight", in: model).defaultValue as? NSNumber)?.floatValue == 0.5)
    }

    @Test func decimalDefaultIsADecimalNumber() throws {
        let model = try ModelFileFixtures.libraryModel()
        let price = try #require(try attribute("Book", "price", in: model).defaultValue as? NSDecimalNumber)
        #expect(price.decimalValue == Decimal(string: "9.99"))
    }

    @Test func booleanDefaultsAreBooleanNumbers() throws {
        let model = try ModelFileFixtures.libraryModel()
        #expect((try attribute("Book", "inPrint", in: model).defaultValue as? NSNumber)?.boolValue == true)
        #expect((try attribute("Loan", "returned", in: model).defaultValue as? NSNumber)?.boolValue == false)
    }

    @Test func stringDefaultIsTheString() throws {
        let model = try ModelFileFixtures.libraryModel()
        #expect(try attribute("Genre", "name", in: model).defaultValue as? String == "Unclassified")
    }

    @Test func dateDefaultComesFromDefaultDateTimeInterval() throws {
        let model = try ModelFileFixtures.libraryModel()
        #expect(try attribute("Item", "acquiredOn", in: model).defaultValue as? Date == date(725_760_000))
    }

    @Test func uuidAndURIDefaultsAreTyped() throws {
        let model = try ModelFileFixtures.libraryModel()
        #expect(try attribute("Item", "identifier", in: model).defaultValue as? UUID == UUID(uuidString: "6F9619FF-8B86-D011-B42D-00C04FC964FF"))
        #expect(try attribute("Periodical", "website", in: model).defaultValue as? URL == URL(string: "https://example.com/periodicals"))
    }

    @Test func attributesWithoutDefaultValueStringHaveNoDefault() throws {
        let model = try ModelFileFixtures.libraryModel()
        #expect(try attribute("Item", "title", in: model).defaultValue == nil)
        #expect(try attribute("Member", "homePage", in: model).defaultValue == nil)
        #expect(try attribute("Member", "memberSince", in: model).defaultValue == nil)
        #expect(try attribute("Book", "cover", in: model).defaultValue == nil)
    }

    // MARK: Derived and transformable attributes

    @Test func derivedAttributesAreDerivedAttributeDescriptions() throws {
        let model = try ModelFileFixtures.libraryModel()
        let uppercased = try #require(try attribute("Item", "titleUppercased", in: model) as? NSDerivedAttributeDescription)
        #expect(uppercased.derivationExpression == NSExpression(format: "uppercase:(title)"))
        #expect(uppercased.attributeType == .stringAttributeType)
        let lastModified = try #require(try attribute("Item", "lastModified", in: model) as? NSDerivedAttributeDescription)
        #expect(lastModified.derivationExpression == NSExpression(format: "now()"))
        #expect(lastModified.attributeType == .dateAttributeType)
        let bookCount = try #require(try attribute("Author", "bookCount", in: model) as? NSDerivedAttributeDescription)
        #expect(bookCount.derivationExpression == NSExpression(format: "books.@count"))
    }

    @Test func plainAttributesAreNotDerived() throws {
        let model = try ModelFileFixtures.libraryModel()
        #expect(!(try attribute("Item", "title", in: model) is NSDerivedAttributeDescription))
        #expect(!(try attribute("Book", "pageCount", in: model) is NSDerivedAttributeDescription))
    }

    @Test func transformableAttributesKeepTransformerAndCustomClassName() throws {
        let model = try ModelFileFixtures.libraryModel()
        let links = try attribute("Author", "socialLinks", in: model)
        #expect(links.valueTransformerName == "NSSecureUnarchiveFromDataTransformer")
        #expect(links.attributeValueClassName == "NSDictionary")
        let color = try attribute("Member", "favoriteColor", in: model)
        #expect(color.valueTransformerName == "ColorTransformer")
        #expect(color.attributeValueClassName == "Color")
        #expect(try attribute("Member", "name", in: model).valueTransformerName == nil)
    }

    // MARK: Attribute flags

    @Test func allowsExternalBinaryDataStorageIsRead() throws {
        let model = try ModelFileFixtures.libraryModel()
        #expect(try attribute("Book", "cover", in: model).allowsExternalBinaryDataStorage)
        #expect(try !attribute("Member", "name", in: model).allowsExternalBinaryDataStorage)
    }

    @Test func preserveAfterDeletionBecomesPreservesValueInHistoryOnDeletion() throws {
        let model = try ModelFileFixtures.libraryModel()
        #expect(try attribute("Author", "fullName", in: model).preservesValueInHistoryOnDeletion)
        #expect(try !attribute("Member", "name", in: model).preservesValueInHistoryOnDeletion)
    }

    @Test func allowsCloudEncryptionIsRead() throws {
        let model = try ModelFileFixtures.libraryModel()
        #expect(try attribute("Member", "email", in: model).allowsCloudEncryption)
        #expect(try !attribute("Member", "name", in: model).allowsCloudEncryption)
    }

    @Test func spotlightIndexingEnabledBecomesIsIndexedBySpotlight() throws {
        let model = try ModelFileFixtures.libraryModel()
        #expect(try attribute("Item", "title", in: model).isIndexedBySpotlight)
        #expect(try !attribute("Member", "name", in: model).isIndexedBySpotlight)
    }

    @Test func storedInTruthFileBecomesIsStoredInExternalRecord() throws {
        let model = try ModelFileFixtures.libraryModel()
        #expect(try attribute("Member", "remarks", in: model).isStoredInExternalRecord)
        #expect(try !attribute("Member", "name", in: model).isStoredInExternalRecord)
    }

    @Test func indexedBecomesIsIndexed() throws {
        let model = try ModelFileFixtures.libraryModel()
        #expect(try attribute("Item", "title", in: model).isIndexed)
        #expect(try !attribute("Member", "name", in: model).isIndexed)
    }

    @Test func usesScalarValueTypeIsYesNoOrUnstated() throws {
        let model = try ModelFileFixtures.libraryModel()
        #expect(try attribute("Book", "pageCount", in: model).usesScalarValueType == true)
        #expect(try attribute("Book", "wordCount", in: model).usesScalarValueType == false)
        #expect(try attribute("Book", "price", in: model).usesScalarValueType == nil)
    }

    @Test func propertyVersionHashModifierIsRead() throws {
        let model = try ModelFileFixtures.libraryModel()
        #expect(try attribute("Book", "isbn", in: model).versionHashModifier == "isbn10")
        #expect(try attribute("Book", "pageCount", in: model).versionHashModifier == nil)
    }

    @Test func propertyElementIDBecomesRenamingIdentifier() throws {
        let model = try ModelFileFixtures.libraryModel()
        #expect(try attribute("Book", "pageCount", in: model).renamingIdentifier == "pages")
        #expect(try attribute("Author", "fullName", in: model).renamingIdentifier == "name")
        #expect(try relationship("Loan", "member", in: model).renamingIdentifier == "patron")
        #expect(try attribute("Book", "isbn", in: model).renamingIdentifier == nil)
    }

    @Test func attributeUserInfoIsRead() throws {
        let model = try ModelFileFixtures.libraryModel()
        #expect(userInfoStrings(try attribute("Author", "fullName", in: model).userInfo) == ["displayName": "Full name"])
    }

    // MARK: Validation rules

    @Test func numberMinimumAndMaximumBecomePredicatesWithCodes1620And1610() throws {
        let model = try ModelFileFixtures.libraryModel()
        let pageCount = try attribute("Book", "pageCount", in: model)
        #expect(pageCount.validationWarnings.map { $0 as? String } == ["1620", "1610"])
        try #require(pageCount.validationPredicates.count == 2)
        let (minimum, maximum) = (pageCount.validationPredicates[0], pageCount.validationPredicates[1])
        #expect(!minimum.evaluate(with: NSNumber(value: 0)))
        #expect(minimum.evaluate(with: NSNumber(value: 1)))
        #expect(maximum.evaluate(with: NSNumber(value: 10_000)))
        #expect(!maximum.evaluate(with: NSNumber(value: 10_001)))
    }

    @Test func aMinimumAloneGivesOnePredicate() throws {
        let model = try ModelFileFixtures.libraryModel()
        let price = try attribute("Book", "price", in: model)
        #expect(price.validationWarnings.map { $0 as? String } == ["1620"])
        try #require(price.validationPredicates.count == 1)
        #expect(!price.validationPredicates[0].evaluate(with: NSDecimalNumber(string: "-0.01")))
        #expect(price.validationPredicates[0].evaluate(with: NSDecimalNumber(string: "0")))
    }

    @Test func stringLengthMinimumAndMaximumBecomePredicatesWithCodes1670And1660() throws {
        let model = try ModelFileFixtures.libraryModel()
        let title = try attribute("Item", "title", in: model)
        #expect(title.validationWarnings.map { $0 as? String } == ["1670", "1660"])
        try #require(title.validationPredicates.count == 2)
        let (minimum, maximum) = (title.validationPredicates[0], title.validationPredicates[1])
        #expect(!minimum.evaluate(with: ""))
        #expect(minimum.evaluate(with: "A"))
        #expect(maximum.evaluate(with: String(repeating: "x", count: 200)))
        #expect(!maximum.evaluate(with: String(repeating: "x", count: 201)))
    }

    @Test func dateMinimumAndMaximumBecomePredicatesWithCodes1640And1630() throws {
        let model = try ModelFileFixtures.libraryModel()
        let acquiredOn = try attribute("Item", "acquiredOn", in: model)
        #expect(acquiredOn.validationWarnings.map { $0 as? String } == ["1640", "1630"])
        try #require(acquiredOn.validationPredicates.count == 2)
        let (minimum, maximum) = (acquiredOn.validationPredicates[0], acquiredOn.validationPredicates[1])
        #expect(minimum.evaluate(with: date(-3_187_296_000)))
        #expect(!minimum.evaluate(with: date(-3_187_296_001)))
        #expect(maximum.evaluate(with: date(3_155_587_200)))
        #expect(!maximum.evaluate(with: date(3_155_587_201)))
    }

    @Test func regularExpressionBecomesAPredicateWithCode1680() throws {
        let model = try ModelFileFixtures.libraryModel()
        let isbn = try attribute("Book", "isbn", in: model)
        #expect(isbn.validationWarnings.map { $0 as? String } == ["1680"])
        try #require(isbn.validationPredicates.count == 1)
        #expect(isbn.validationPredicates[0].evaluate(with: "044100590X"))
        #expect(!isbn.validationPredicates[0].evaluate(with: "not an ISBN"))
    }

    @Test func attributesWithoutRulesHaveNoValidationPredicates() throws {
        let model = try ModelFileFixtures.libraryModel()
        #expect(try attribute("Member", "name", in: model).validationPredicates.isEmpty)
        #expect(try attribute("Book", "weight", in: model).validationPredicates.isEmpty)
    }

    /// A value that breaks one rule of the library model, and the code validation reports.
    struct Violation: Sendable, CustomTestStringConvertible {
        let key: String
        let value: any Sendable
        let code: Int

        var testDescription: String { "\(key) = \(value) gives \(code)" }
    }

    @Test(arguments: [
        Violation(key: "pageCount", value: 0, code: NSValidationNumberTooSmallError),
        Violation(key: "pageCount", value: 10_001, code: NSValidationNumberTooLargeError),
        Violation(key: "rating", value: 5.5, code: NSValidationNumberTooLargeError),
        Violation(key: "title", value: "", code: NSValidationStringTooShortError),
        Violation(key: "title", value: String(repeating: "x", count: 201), code: NSValidationStringTooLongError),
        Violation(key: "acquiredOn", value: Date(timeIntervalSinceReferenceDate: -3_187_296_001), code: NSValidationDateTooSoonError),
        Violation(key: "acquiredOn", value: Date(timeIntervalSinceReferenceDate: 3_155_587_201), code: NSValidationDateTooLateError),
        Violation(key: "isbn", value: "not an ISBN", code: NSValidationStringPatternMatchingError),
    ])
    func insertedBookBreakingARuleOfTheFileFailsValidationWithItsCode(_ violation: Violation) throws {
        let stack = try CtxStack(model: ModelFileFixtures.storeCompatibleLibraryModel(), storeType: NSInMemoryStoreType)
        try stack.context.performAndWait {
            let book = ctxInsert("Book", into: stack.context, ["title": "The Dispossessed", "isbn": "006051275X", "pageCount": 387])
            try book.validateForInsert()
            book.setValue(violation.value, forKey: violation.key)
            let error = ctxError { try book.validateForInsert() }
            #expect(error?.domain == NSCocoaErrorDomain)
            #expect(error?.code == violation.code)
            #expect(error?.userInfo[NSValidationKeyErrorKey] as? String == violation.key)
        }
    }

    // MARK: Relationships

    @Test func relationshipsHaveTheirDestinationsAndInverses() throws {
        let model = try ModelFileFixtures.libraryModel()
        let books = try relationship("Author", "books", in: model)
        let author = try relationship("Book", "author", in: model)
        #expect(books.destinationEntity === (try entity("Book", in: model)))
        #expect(author.destinationEntity === (try entity("Author", in: model)))
        #expect(books.inverseRelationship === author)
        #expect(author.inverseRelationship === books)
        let loans = try relationship("Item", "loans", in: model)
        let item = try relationship("Loan", "item", in: model)
        #expect(loans.inverseRelationship === item)
        #expect(item.destinationEntity === (try entity("Item", in: model)))
        #expect(try relationship("Member", "loans", in: model).inverseRelationship === (try relationship("Loan", "member", in: model)))
    }

    @Test func relationshipWithoutInverseNameHasNoInverse() throws {
        let model = try ModelFileFixtures.libraryModel()
        let genres = try relationship("Book", "genres", in: model)
        #expect(genres.inverseRelationship == nil)
        #expect(genres.destinationEntity === (try entity("Genre", in: model)))
    }

    @Test func toManyAndOrderedAreRead() throws {
        let model = try ModelFileFixtures.libraryModel()
        let books = try relationship("Author", "books", in: model)
        #expect(books.isToMany)
        #expect(books.isOrdered)
        let loans = try relationship("Member", "loans", in: model)
        #expect(loans.isToMany)
        #expect(!loans.isOrdered)
        #expect(try !relationship("Book", "author", in: model).isToMany)
    }

    @Test func minAndMaxCountsAreRead() throws {
        let model = try ModelFileFixtures.libraryModel()
        let genres = try relationship("Book", "genres", in: model)
        #expect(genres.minCount == 0)
        #expect(genres.maxCount == 5)
        let item = try relationship("Loan", "item", in: model)
        #expect(item.minCount == 1)
        #expect(item.maxCount == 1)
        #expect(try relationship("Book", "author", in: model).maxCount == 1)
        #expect(try relationship("Author", "books", in: model).maxCount == 0)
    }

    @Test func deletionRulesBecomeDeleteRules() throws {
        let model = try ModelFileFixtures.libraryModel()
        #expect(try relationship("Book", "author", in: model).deleteRule == .nullifyDeleteRule)
        #expect(try relationship("Author", "books", in: model).deleteRule == .cascadeDeleteRule)
        #expect(try relationship("Item", "loans", in: model).deleteRule == .denyDeleteRule)
        #expect(try relationship("Book", "genres", in: model).deleteRule == .noActionDeleteRule)
    }

    @Test func relationshipUserInfoIsRead() throws {
        let model = try ModelFileFixtures.libraryModel()
        #expect(userInfoStrings(try relationship("Author", "books", in: model).userInfo) == ["sortKey": "title"])
    }

    // MARK: Fetched properties

    @Test func fetchedPropertyHoldsItsFetchRequest() throws {
        let model = try ModelFileFixtures.libraryModel()
        let property = try #require(try entity("Author", in: model).propertiesByName["longBooks"] as? NSFetchedPropertyDescription)
        #expect(property.isOptional)
        let request = try #require(property.fetchRequest)
        #expect(request.entity === (try entity("Book", in: model)))
        #expect(request.predicate == NSPredicate(format: "author == $FETCH_SOURCE AND pageCount > 500"))
        #expect(userInfoStrings(property.userInfo) == ["purpose": "reading lists"])
    }

    // MARK: Indexes and constraints

    @Test func fetchIndexesKeepTheirElementsAndOrder() throws {
        let model = try ModelFileFixtures.libraryModel()
        let indexes = try entity("Item", in: model).indexes
        try #require(indexes.count == 1)
        #expect(indexes[0].name == "byTitle")
        #expect(indexes[0].elements.map(\.propertyName) == ["title", "acquiredOn"])
        #expect(indexes[0].elements.map(\.isAscending) == [true, false])
        #expect(indexes[0].elements.allSatisfy { $0.collationType == .binary })
        #expect(indexes[0].elements.first?.property === (try attribute("Item", "title", in: model)))
    }

    @Test func descendingSingleElementFetchIndex() throws {
        let model = try ModelFileFixtures.libraryModel()
        let indexes = try entity("Loan", in: model).indexes
        #expect(indexes.map(\.name) == ["byDueOn"])
        #expect(indexes.first?.elements.map(\.propertyName) == ["dueOn"])
        #expect(indexes.first?.elements.map(\.isAscending) == [false])
    }

    @Test func legacyCompoundIndexBecomesFetchIndexNamedAfterItsProperties() throws {
        let model = try ModelFileFixtures.libraryModel()
        let indexes = try entity("Author", in: model).indexes
        #expect(indexes.map(\.name) == ["fullName_born"])
        #expect(indexes.first?.elements.map(\.propertyName) == ["fullName", "born"])
        #expect(indexes.first?.elements.map(\.isAscending) == [true, true])
    }

    @Test func uniquenessConstraintsKeepTheirPropertyNames() throws {
        let model = try ModelFileFixtures.libraryModel()
        func names(_ entityName: String) throws -> [[String]] {
            try entity(entityName, in: model).uniquenessConstraints.map { $0.map { "\($0)" } }
        }
        #expect(try names("Book") == [["isbn"], ["title", "edition"]])
        #expect(try names("Author") == [["fullName", "born"]])
        #expect(try names("Member") == [["cardNumber"]])
        #expect(try names("Genre").isEmpty)
    }

    // MARK: Fetch request templates

    @Test func everyFetchRequestTemplateIsRead() throws {
        let model = try ModelFileFixtures.libraryModel()
        #expect(Set(model.fetchRequestTemplatesByName.keys) == ["AllMembers", "BooksByAuthorName", "OverdueLoans"])
    }

    @Test func templateKeepsEveryRequestAttribute() throws {
        let model = try ModelFileFixtures.libraryModel()
        let request = try #require(model.fetchRequestTemplate(forName: "BooksByAuthorName"))
        #expect(request.entity === (try entity("Book", in: model)))
        #expect(request.entityName == "Book")
        #expect(request.predicate == NSPredicate(format: "author.fullName == $NAME AND pageCount >= 100 AND title != \"\""))
        #expect(request.fetchLimit == 100)
        #expect(request.fetchBatchSize == 10)
        #expect(request.resultType == .dictionaryResultType)
        #expect(request.includesSubentities)
        #expect(!request.includesPropertyValues)
        #expect(!request.includesPendingChanges)
        #expect(!request.returnsObjectsAsFaults)
        #expect(request.returnsDistinctResults)
    }

    @Test func templateWithOnlyNameAndEntityKeepsRequestDefaults() throws {
        let model = try ModelFileFixtures.libraryModel()
        let request = try #require(model.fetchRequestTemplate(forName: "AllMembers"))
        #expect(request.entityName == "Member")
        #expect(request.predicate == nil)
        #expect(request.fetchLimit == 0)
        #expect(request.fetchBatchSize == 0)
        #expect(request.resultType == .managedObjectResultType)
        #expect(request.includesSubentities)
        #expect(request.includesPropertyValues)
        #expect(request.includesPendingChanges)
        #expect(request.returnsObjectsAsFaults)
        #expect(!request.returnsDistinctResults)
    }

    @Test func escapedPredicateStringIsUnescapedBeforeParsing() throws {
        let model = try ModelFileFixtures.libraryModel()
        let request = try #require(model.fetchRequestTemplate(forName: "OverdueLoans"))
        #expect(request.predicate == NSPredicate(format: "returned == NO AND dueOn < $NOW"))
    }

    @Test func templateVariablesAreSubstituted() throws {
        let model = try ModelFileFixtures.libraryModel()
        let request = try #require(model.fetchRequestFromTemplate(withName: "BooksByAuthorName", substitutionVariables: ["NAME": "Ursula K. Le Guin"]))
        #expect(request.predicate == NSPredicate(format: "author.fullName == %@ AND pageCount >= 100 AND title != \"\"", "Ursula K. Le Guin"))
        #expect(request.fetchLimit == 100)
    }

    // MARK: Configurations

    @Test func configurationsListTheirMemberEntities() throws {
        let model = try ModelFileFixtures.libraryModel()
        #expect(Set(model.configurations) == ["Catalog", "Circulation"])
        #expect(Set(model.entities(forConfigurationName: "Catalog")?.compactMap(\.name) ?? []) == ["Author", "Book", "Genre", "Item", "Periodical"])
        #expect(Set(model.entities(forConfigurationName: "Circulation")?.compactMap(\.name) ?? []) == ["Loan", "Member"])
        #expect(model.entities(forConfigurationName: nil)?.count == 7)
    }

    // MARK: Composites

    @Test func compositeAttributeHoldsTheElementsOfItsComposite() throws {
        let model = try ModelFileFixtures.libraryModel()
        let dimensions = try #require(try attribute("Book", "dimensions", in: model) as? NSCompositeAttributeDescription)
        #expect(dimensions.compositeName == "Dimensions")
        #expect(dimensions.isOptional)
        #expect(dimensions.elements.map(\.name) == ["depth", "height", "unit", "width"])
        #expect(dimensions.elements.map(\.attributeType) == [.doubleAttributeType, .doubleAttributeType, .compositeAttributeType, .doubleAttributeType])
        #expect((dimensions.elements.first?.defaultValue as? NSNumber)?.doubleValue == 0)
        #expect(dimensions.elements.first?.usesScalarValueType == true)
    }

    @Test func compositeNestedInACompositeHoldsItsOwnElements() throws {
        let model = try ModelFileFixtures.libraryModel()
        let dimensions = try #require(try attribute("Book", "dimensions", in: model) as? NSCompositeAttributeDescription)
        let unit = try #require(dimensions.elements.first { $0.name == "unit" } as? NSCompositeAttributeDescription)
        #expect(unit.compositeName == "Unit")
        #expect(unit.elements.map(\.name) == ["name", "symbol"])
        #expect(unit.elements.map { $0.defaultValue as? String } == ["centimetre", "cm"])
    }

    // MARK: Stand-alone and legacy models

    @Test func standAloneModelIsItsOwnOnlyVersion() throws {
        let bundle = try ModelBundle(url: ModelFileFixtures.notes)
        #expect(bundle.versionURLs == [ModelFileFixtures.notes])
        #expect(bundle.currentVersionURL == ModelFileFixtures.notes)
        #expect(try bundle.allModels().count == 1)
    }

    @Test func standAloneXcode4ModelLoads() throws {
        let model = try #require(NSManagedObjectModel(contentsOf: ModelFileFixtures.notes))
        #expect(Set(model.entitiesByName.keys) == ["Note", "Tag"])
        let tags = try relationship("Note", "tags", in: model)
        #expect(tags.isToMany)
        #expect(tags.inverseRelationship === (try relationship("Tag", "notes", in: model)))
        #expect(try attribute("Note", "title", in: model).defaultValue as? String == "Untitled")
        #expect(try attribute("Note", "createdAt", in: model).attributeType == .dateAttributeType)
        #expect(userInfoStrings(try attribute("Note", "body", in: model).userInfo).isEmpty)
    }

    @Test func preXcode4ModelIsRejectedWithCorruptFileError() throws {
        let error = try #require(ctxError { _ = try NSManagedObjectModel(validatingContentsOf: ModelFileFixtures.legacy) })
        #expect(error.domain == NSCocoaErrorDomain)
        #expect(error.code == NSFileReadCorruptFileError)
        #expect(error.code == 259)
        #expect(error.localizedDescription.contains("Xcode 4"))
        #expect(NSManagedObjectModel(contentsOf: ModelFileFixtures.legacy) == nil)
    }

    @Test func missingModelIsNoSuchFileError() throws {
        let missing = ModelFileFixtures.directory.appendingPathComponent("Missing.xcdatamodeld")
        let error = try #require(ctxError { _ = try NSManagedObjectModel(validatingContentsOf: missing) })
        #expect(error.domain == NSCocoaErrorDomain)
        #expect(error.code == NSFileReadNoSuchFileError)
        #expect(NSManagedObjectModel(contentsOf: missing) == nil)
    }

    // MARK: Stores

    @Test func currentVersionWithoutUnsupportedAttributesSavesToASQLiteStore() throws {
        let stack = try CtxStack(model: ModelFileFixtures.storeCompatibleLibraryModel())
        try stack.context.performAndWait {
            let author = ctxInsert("Author", into: stack.context, ["fullName": "Ursula K. Le Guin"])
            let book = ctxInsert("Book", into: stack.context, ["title": "The Dispossessed", "isbn": "006051275X", "author": author])
            let member = ctxInsert("Member", into: stack.context, ["name": "Shevek", "cardNumber": 7])
            ctxInsert("Loan", into: stack.context, ["item": book, "member": member, "dueOn": Date(timeIntervalSinceReferenceDate: 800_000_000)])
            try stack.context.save()
        }
        let reopened = try stack.reopened()
        try reopened.context.performAndWait {
            let books = try ctxFetch("Book", in: reopened.context)
            try #require(books.count == 1)
            let book = books[0]
            #expect(book.value(forKey: "title") as? String == "The Dispossessed")
            #expect((book.value(forKey: "inPrint") as? NSNumber)?.boolValue == true, "the file's default")
            #expect(book.value(forKey: "identifier") as? UUID == UUID(uuidString: "6F9619FF-8B86-D011-B42D-00C04FC964FF"))
            #expect((book.value(forKey: "author") as? NSManagedObject)?.value(forKey: "fullName") as? String == "Ursula K. Le Guin")
            #expect(try ctxStoredCount("Item", in: reopened.context) == 1)
            #expect(try ctxStoredCount("Loan", in: reopened.context) == 1)
        }
    }

    @Test func currentVersionWithDerivedAttributesIsRefusedWithAnError() throws {
        let model = try ModelFileFixtures.libraryModel()
        let directory = try CtxTemporaryDirectory()
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        let error = try #require(ctxError {
            _ = try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: directory.url.appendingPathComponent("Library.sqlite"), options: nil)
        })
        #expect(error.domain == NSCocoaErrorDomain)
        #expect(error.explanation.contains("derived attribute"))
    }
}
