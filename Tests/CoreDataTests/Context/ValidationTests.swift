import CoreData
import Testing

/// A model with validation rules:
///
/// - `Account`: `username` (mandatory string); `code` (string, `length <= 5`, warning "1660");
///   `balance` (Integer 32, `SELF >= 0`, a plain-text warning); `score` (Integer 16,
///   `SELF <= 100`, warning "1610"); `owner` (mandatory to-one) ↔ `Owner.accounts`.
/// - `Team.players` (optional to-many, minCount 2, maxCount 3) ↔ `Player.team`.
enum CtxValidationModel {
    static let balanceWarning = "Balance must not be negative"

    static func make() -> NSManagedObjectModel {
        let account = CtxGraphModel.entity("Account")
        let owner = CtxGraphModel.entity("Owner")
        let team = CtxGraphModel.entity("Team")
        let player = CtxGraphModel.entity("Player")

        let username = CtxGraphModel.attribute("username", .stringAttributeType, optional: false)
        let code = CtxGraphModel.attribute("code", .stringAttributeType)
        code.setValidationPredicates([NSPredicate(format: "length <= 5")], withValidationWarnings: ["1660"])
        let balance = CtxGraphModel.attribute("balance", .integer32AttributeType)
        balance.setValidationPredicates([NSPredicate(format: "SELF >= 0")], withValidationWarnings: [balanceWarning])
        let score = CtxGraphModel.attribute("score", .integer16AttributeType)
        score.setValidationPredicates([NSPredicate(format: "SELF <= 100")], withValidationWarnings: ["1610"])
        let accountOwner = CtxGraphModel.relationship("owner", to: owner, toMany: false, optional: false)
        let ownerAccounts = CtxGraphModel.relationship("accounts", to: account, toMany: true)
        CtxGraphModel.link(accountOwner, ownerAccounts)
        account.properties = [username, code, balance, score, accountOwner]
        owner.properties = [CtxGraphModel.attribute("name", .stringAttributeType), ownerAccounts]

        let players = CtxGraphModel.relationship("players", to: player, toMany: true)
        players.minCount = 2
        players.maxCount = 3
        let playerTeam = CtxGraphModel.relationship("team", to: team, toMany: false)
        CtxGraphModel.link(players, playerTeam)
        team.properties = [CtxGraphModel.attribute("name", .stringAttributeType), players]
        player.properties = [CtxGraphModel.attribute("name", .stringAttributeType), playerTeam]

        let model = NSManagedObjectModel()
        model.entities = [account, owner, team, player]
        return model
    }
}

/// Validation at save (MOC-13, MOC-14, MOC-15, MOC-18): Apple's codes, the userInfo keys of each
/// error, 1560 with NSDetailedErrorsKey for several failures, and a context left unchanged by a
/// failed save.
@Suite struct ValidationTests {
    private func stack() throws -> CtxStack {
        try CtxStack(model: CtxValidationModel.make())
    }

    /// A valid account with an owner, to which a test adds one problem.
    private func validAccount(in context: NSManagedObjectContext) -> NSManagedObject {
        let owner = ctxInsert("Owner", into: context, ["name": "O"])
        return ctxInsert("Account", into: context, ["username": "u", "owner": owner])
    }

    private func details(of error: NSError?) -> [NSError] {
        (error?.userInfo[NSDetailedErrorsKey] as? [NSError])
            ?? (error?.userInfo[NSDetailedErrorsKey] as? [Any])?.compactMap { $0 as? NSError }
            ?? []
    }

    // MARK: Mandatory properties

    @Test func missingMandatoryAttributeIs1570() throws {
        let stack = try CtxStack(model: MovieModel.make())
        stack.context.performAndWait {
            let movie = ctxInsert("Movie", into: stack.context, ["year": 1979])
            let error = ctxError { try stack.context.save() }
            #expect(error?.domain == NSCocoaErrorDomain)
            #expect(error?.code == NSValidationMissingMandatoryPropertyError)
            #expect(error?.code == 1570)
            #expect(error?.userInfo[NSValidationKeyErrorKey] as? String == "title")
            #expect(error?.userInfo[NSValidationObjectErrorKey] as? NSManagedObject === movie)
            #expect(error?.userInfo[NSValidationValueErrorKey] == nil)
        }
    }

    @Test func missingMandatoryToOneIs1570() throws {
        let stack = try stack()
        stack.context.performAndWait {
            let account = ctxInsert("Account", into: stack.context, ["username": "u"])
            let error = ctxError { try stack.context.save() }
            #expect(error?.code == 1570)
            #expect(error?.userInfo[NSValidationKeyErrorKey] as? String == "owner")
            #expect(error?.userInfo[NSValidationObjectErrorKey] as? NSManagedObject === account)
        }
    }

    @Test func anEmptyStringIsNotMissing() throws {
        let stack = try CtxStack(model: MovieModel.make())
        try stack.context.performAndWait { () throws in
            ctxInsert("Movie", into: stack.context, ["title": ""])
            try stack.context.save()
        }
    }

    @Test func severalFailuresAre1560WithDetailedErrors() throws {
        let stack = try CtxStack(model: MovieModel.make())
        stack.context.performAndWait {
            let first = ctxInsert("Movie", into: stack.context)
            let second = ctxInsert("Movie", into: stack.context)
            let error = ctxError { try stack.context.save() }
            #expect(error?.domain == NSCocoaErrorDomain)
            #expect(error?.code == NSValidationMultipleErrorsError)
            #expect(error?.code == 1560)
            let details = details(of: error)
            #expect(details.count == 2)
            #expect(details.allSatisfy { $0.code == 1570 && $0.domain == NSCocoaErrorDomain })
            let objects = details.compactMap { $0.userInfo[NSValidationObjectErrorKey] as? NSManagedObject }
            #expect(Set(objects) == Set([first, second]))
        }
    }

    @Test func severalFailuresOfOneObjectAre1560() throws {
        let stack = try stack()
        stack.context.performAndWait {
            ctxInsert("Account", into: stack.context)
            let error = ctxError { try stack.context.save() }
            #expect(error?.code == 1560)
            let keys = Set(details(of: error).compactMap { $0.userInfo[NSValidationKeyErrorKey] as? String })
            #expect(keys == ["username", "owner"])
            #expect(details(of: error).allSatisfy { $0.code == 1570 })
        }
    }

    // MARK: Relationship counts

    @Test(arguments: [(1, 1580), (4, 1590)])
    func toManyCountsOutsideTheBounds(count: Int, code: Int) throws {
        let stack = try stack()
        stack.context.performAndWait {
            let team = ctxInsert("Team", into: stack.context, ["name": "T"])
            let players = (0..<count).map { ctxInsert("Player", into: stack.context, ["name": "p\($0)"]) }
            team.setValue(NSSet(array: players), forKey: "players")
            let error = ctxError { try stack.context.save() }
            #expect(error?.domain == NSCocoaErrorDomain)
            #expect(error?.code == code)
            #expect(error?.userInfo[NSValidationKeyErrorKey] as? String == "players")
            #expect(error?.userInfo[NSValidationObjectErrorKey] as? NSManagedObject === team)
        }
    }

    @Test(arguments: [0, 2, 3])
    func toManyCountsWithinTheBoundsOrEmptyAndOptional(count: Int) throws {
        let stack = try stack()
        try stack.context.performAndWait { () throws in
            let team = ctxInsert("Team", into: stack.context, ["name": "T"])
            let players = (0..<count).map { ctxInsert("Player", into: stack.context, ["name": "p\($0)"]) }
            team.setValue(NSSet(array: players), forKey: "players")
            try stack.context.save()
        }
    }

    @Test func countsAreCheckedOnUpdatesToo() throws {
        let stack = try stack()
        try stack.context.performAndWait { () throws in
            let team = ctxInsert("Team", into: stack.context, ["name": "T"])
            let players = (0..<2).map { ctxInsert("Player", into: stack.context, ["name": "p\($0)"]) }
            team.setValue(NSSet(array: players), forKey: "players")
            try stack.context.save()
            players[0].setValue(nil, forKey: "team")
            #expect(ctxError { try stack.context.save() }?.code == 1580)
        }
    }

    @Test func deletingTheDestinationOfAMandatoryToOneFailsTheSaveWith1570() throws {
        let stack = try stack()
        try stack.context.performAndWait { () throws in
            let account = validAccount(in: stack.context)
            try stack.context.save()
            let owner = try #require(account.value(forKey: "owner") as? NSManagedObject)
            // Owner.accounts nullifies: the account loses its mandatory owner.
            stack.context.delete(owner)
            let error = ctxError { try stack.context.save() }
            #expect(error?.code == 1570)
            #expect(error?.userInfo[NSValidationKeyErrorKey] as? String == "owner")
            #expect(error?.userInfo[NSValidationObjectErrorKey] as? NSManagedObject === account)
        }
    }

    // MARK: Types

    @Test func aStringInAnIntegerAttributeIs1550() throws {
        let stack = try stack()
        stack.context.performAndWait {
            let account = validAccount(in: stack.context)
            account.setValue("a lot", forKey: "balance")
            let error = ctxError { try stack.context.save() }
            #expect(error?.code == NSManagedObjectValidationError)
            #expect(error?.code == 1550)
            #expect(error?.userInfo[NSValidationKeyErrorKey] as? String == "balance")
            #expect(error?.userInfo[NSValidationValueErrorKey] as? String == "a lot")
            #expect(error?.userInfo[NSValidationObjectErrorKey] as? NSManagedObject === account)
        }
    }

    // MARK: Validation predicates

    @Test func aStringBoundWithACodeWarningGivesThatCode() throws {
        let stack = try stack()
        stack.context.performAndWait {
            let account = validAccount(in: stack.context)
            account.setValue("toolong", forKey: "code")
            let error = ctxError { try stack.context.save() }
            #expect(error?.code == NSValidationStringTooLongError)
            #expect(error?.code == 1660)
            #expect(error?.userInfo[NSValidationKeyErrorKey] as? String == "code")
            #expect(error?.userInfo[NSValidationValueErrorKey] as? String == "toolong")
            #expect(error?.userInfo[NSValidationObjectErrorKey] as? NSManagedObject === account)
            let predicate = error?.userInfo[NSValidationPredicateErrorKey] as? NSPredicate
            #expect(predicate != nil)
            #expect(predicate?.predicateFormat == NSPredicate(format: "length <= 5").predicateFormat)
        }
    }

    @Test func aStringWithinTheBoundSaves() throws {
        let stack = try stack()
        try stack.context.performAndWait { () throws in
            validAccount(in: stack.context).setValue("abcde", forKey: "code")
            try stack.context.save()
        }
    }

    @Test func aNumberBoundWithATextWarningGives1550() throws {
        let stack = try stack()
        stack.context.performAndWait {
            let account = validAccount(in: stack.context)
            account.setValue(-1, forKey: "balance")
            let error = ctxError { try stack.context.save() }
            #expect(error?.code == 1550)
            #expect(error?.userInfo[NSValidationKeyErrorKey] as? String == "balance")
            #expect((error?.userInfo[NSValidationValueErrorKey] as? NSNumber)?.intValue == -1)
            #expect(error?.userInfo[NSValidationPredicateErrorKey] is NSPredicate)
        }
    }

    @Test func aNumberBoundWithACodeWarningGivesThatCode() throws {
        let stack = try stack()
        stack.context.performAndWait {
            validAccount(in: stack.context).setValue(101, forKey: "score")
            let error = ctxError { try stack.context.save() }
            #expect(error?.code == NSValidationNumberTooLargeError)
            #expect(error?.code == 1610)
            #expect(error?.userInfo[NSValidationKeyErrorKey] as? String == "score")
        }
    }

    @Test func numbersWithinTheirBoundsSave() throws {
        let stack = try stack()
        try stack.context.performAndWait { () throws in
            let account = validAccount(in: stack.context)
            account.setValue(0, forKey: "balance")
            account.setValue(100, forKey: "score")
            try stack.context.save()
        }
    }

    @Test func nilSkipsTheValidationPredicatesOfAnOptionalAttribute() throws {
        let stack = try stack()
        try stack.context.performAndWait { () throws in
            _ = validAccount(in: stack.context)
            try stack.context.save()
        }
    }

    // MARK: Validating directly

    @Test func validateForInsertUpdateAndDeleteCanBeCalledDirectly() throws {
        let stack = try CtxStack(model: MovieModel.make())
        try stack.context.performAndWait { () throws in
            let movie = ctxInsert("Movie", into: stack.context)
            #expect(ctxError { try movie.validateForInsert() }?.code == 1570)
            movie.setValue("Alien", forKey: "title")
            try movie.validateForInsert()

            let actor = ctxInsert("Actor", into: stack.context, ["name": "Sigourney Weaver"])
            ctxInsert("Character", into: stack.context, ["name": "Ripley", "movie": movie, "actor": actor])
            try stack.context.save()

            movie.setValue(nil, forKey: "title")
            #expect(ctxError { try movie.validateForUpdate() }?.code == 1570)
            movie.setValue("Alien", forKey: "title")
            try movie.validateForUpdate()

            let denied = ctxError { try actor.validateForDelete() }
            #expect(denied?.code == 1600)
            #expect(denied?.userInfo[NSValidationKeyErrorKey] as? String == "roles")
            try movie.validateForDelete()
        }
    }

    @Test func validateValueChecksOneValueAgainstTheModel() throws {
        let stack = try stack()
        try stack.context.performAndWait { () throws in
            let account = validAccount(in: stack.context)
            var tooLong: AnyObject? = NSString(string: "toolong")
            let error = ctxError { try account.validateValue(&tooLong, forKey: "code") }
            #expect(error?.code == 1660)
            #expect(error?.userInfo[NSValidationKeyErrorKey] as? String == "code")

            var fine: AnyObject? = NSString(string: "ok")
            try account.validateValue(&fine, forKey: "code")

            var missing: AnyObject? = nil
            #expect(ctxError { try account.validateValue(&missing, forKey: "username") }?.code == 1570)

            var wrongType: AnyObject? = NSString(string: "ten")
            #expect(ctxError { try account.validateValue(&wrongType, forKey: "balance") }?.code == 1550)

            // validateValue does not change the object.
            #expect(account.value(forKey: "code") == nil)
            #expect(account.value(forKey: "username") as? String == "u")
        }
    }

    @Test func toOnePredicatesTestTheDestinationOfAFetchedObject() throws {
        // The fetched pet's owner slot holds the owner's ID until read; the predicate must see the owner.
        let model = CtxGraphModel.make { entities in
            let owner = entities["Pet"]!.relationshipsByName["owner"]!
            owner.setValidationPredicates([NSPredicate(format: "name BEGINSWITH 'A'")], withValidationWarnings: ["1610"])
        }
        let stack = try CtxStack(model: model)
        try stack.context.performAndWait {
            ctxInsert("Pet", into: stack.context, ["name": "Rex", "owner": ctxInsert("Person", into: stack.context, ["name": "Ann"])])
            try stack.context.save()
        }
        let reopened = try stack.reopened()
        try reopened.context.performAndWait {
            let pet = try #require(try ctxFetch("Pet", in: reopened.context).first)
            pet.setValue("Rex II", forKey: "name")
            try reopened.context.save()
        }
    }

    @Test func validationHappensOnlyAtSave() throws {
        let stack = try CtxStack(model: MovieModel.make())
        stack.context.performAndWait {
            let movie = ctxInsert("Movie", into: stack.context)
            movie.setValue("not a year", forKey: "year")
            stack.context.processPendingChanges()
            #expect(movie.isInserted)
            #expect(movie.value(forKey: "title") == nil)
        }
    }

    // MARK: Failed saves

    @Test func aFailedSaveLeavesTheContextUnchanged() throws {
        let stack = try CtxStack(model: MovieModel.make())
        try stack.context.performAndWait { () throws in
            let saved = ctxInsert("Movie", into: stack.context, ["title": "Saved"])
            let doomed = ctxInsert("Movie", into: stack.context, ["title": "Doomed"])
            try stack.context.save()

            let invalid = ctxInsert("Movie", into: stack.context)
            let valid = ctxInsert("Actor", into: stack.context, ["name": "Valid"])
            saved.setValue("Saved, edited", forKey: "title")
            stack.context.delete(doomed)

            #expect(ctxError { try stack.context.save() }?.code == 1570)
            #expect(stack.context.hasChanges)
            #expect(invalid.isInserted)
            #expect(valid.isInserted)
            #expect(invalid.objectID.isTemporaryID)
            #expect(valid.objectID.isTemporaryID)
            #expect(stack.context.insertedObjects == Set([invalid, valid]))
            #expect(stack.context.updatedObjects == [saved])
            #expect(stack.context.deletedObjects == [doomed])
            #expect(saved.value(forKey: "title") as? String == "Saved, edited")
            #expect(saved.changedValues()["title"] as? String == "Saved, edited")
        }
        // Nothing was written.
        let reopened = try stack.reopened()
        try reopened.context.performAndWait { () throws in
            let titles = Set(try ctxFetch("Movie", in: reopened.context).compactMap { $0.value(forKey: "title") as? String })
            #expect(titles == ["Saved", "Doomed"])
            #expect(try ctxStoredCount("Actor", in: reopened.context) == 0)
        }
    }

    @Test func fixingTheProblemLetsTheNextSaveSucceed() throws {
        let stack = try CtxStack(model: MovieModel.make())
        try stack.context.performAndWait { () throws in
            let movie = ctxInsert("Movie", into: stack.context)
            ctxInsert("Actor", into: stack.context, ["name": "Valid"])
            #expect(ctxError { try stack.context.save() } != nil)
            movie.setValue("Fixed", forKey: "title")
            try stack.context.save()
            #expect(!stack.context.hasChanges)
            #expect(!movie.objectID.isTemporaryID)
        }
        #expect(try stack.storedCountAfterReopening("Movie") == 1)
        #expect(try stack.storedCountAfterReopening("Actor") == 1)
    }
}
