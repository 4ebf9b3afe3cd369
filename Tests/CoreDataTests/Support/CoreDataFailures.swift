@testable import CoreData
import Testing

/// Real failures of Core Data on real stores, each giving the error it threw and the objects the
/// error is about, for the tests of how errors are caught and printed.
enum CoreDataFailures {
    /// Saving a movie that has no title, a mandatory attribute: 1570.
    static func missingMandatoryAttribute() throws -> (error: any Error, movie: NSManagedObject) {
        let stack = try CtxStack(model: MovieModel.make())
        return try stack.context.performAndWait {
            let movie = ctxInsert("Movie", into: stack.context, ["year": 1979])
            return (try #require(thrownError { try stack.context.save() }), movie)
        }
    }

    /// Saving two movies without titles: 1560, the two 1570s under `NSDetailedErrorsKey`.
    static func twoMissingAttributes() throws -> any Error {
        let stack = try CtxStack(model: MovieModel.make())
        return try stack.context.performAndWait {
            ctxInsert("Movie", into: stack.context)
            ctxInsert("Movie", into: stack.context)
            return try #require(thrownError { try stack.context.save() })
        }
    }

    /// Saving an account whose value breaks one of its attribute's validation predicates, or has
    /// the wrong type (`CtxValidationModel`): `code` "toolong" gives 1660, `score` 101 gives
    /// 1610, `balance` -1 gives 1550 with the model's own message, `balance` "a lot" gives 1550.
    static func invalidAccount(_ key: String, _ value: Any) throws -> (error: any Error, account: NSManagedObject) {
        let stack = try CtxStack(model: CtxValidationModel.make())
        return try stack.context.performAndWait {
            let owner = ctxInsert("Owner", into: stack.context, ["name": "O"])
            let account = ctxInsert("Account", into: stack.context, ["username": "u", "owner": owner, key: value])
            return (try #require(thrownError { try stack.context.save() }), account)
        }
    }

    /// Saving a team with `count` players where 2 to 3 are allowed: 1580 or 1590.
    static func teamWithPlayers(_ count: Int) throws -> any Error {
        let stack = try CtxStack(model: CtxValidationModel.make())
        return try stack.context.performAndWait {
            let team = ctxInsert("Team", into: stack.context, ["name": "T"])
            let players = (0..<count).map { ctxInsert("Player", into: stack.context, ["name": "p\($0)"]) }
            team.setValue(NSSet(array: players), forKey: "players")
            return try #require(thrownError { try stack.context.save() })
        }
    }

    /// Saving the delete of an actor who still has roles, a relationship with the deny rule: 1600.
    static func deniedDelete() throws -> any Error {
        let stack = try CtxStack(model: MovieModel.make())
        return try stack.context.performAndWait {
            let movie = ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            let actor = ctxInsert("Actor", into: stack.context, ["name": "Sigourney Weaver"])
            ctxInsert("Character", into: stack.context, ["name": "Ripley", "movie": movie, "actor": actor])
            try stack.context.save()
            stack.context.delete(actor)
            return try #require(thrownError { try stack.context.save() })
        }
    }

    /// Saving a change to a movie that another context changed since this one read it, under the
    /// error merge policy: 133020.
    static func optimisticLockingConflict() throws -> (error: any Error, movie: NSManagedObject) {
        let stack = try CtxStack(model: MovieModel.make())
        try stack.context.performAndWait {
            ctxInsert("Movie", into: stack.context, ["title": "Alien", "year": 1979])
            try stack.context.save()
        }
        let reader = stack.newContext()
        let movie = try reader.performAndWait { () throws -> NSManagedObject in
            let movie = try ctxFetch("Movie", in: reader)[0]
            _ = movie.value(forKey: "year")  // read now: the fault would otherwise read the newer row
            return movie
        }
        let writer = stack.newContext()
        try writer.performAndWait {
            try ctxFetch("Movie", in: writer)[0].setValue(Int16(1980), forKey: "year")
            try writer.save()
        }
        return try reader.performAndWait {
            movie.setValue(Int16(1981), forKey: "year")
            return (try #require(thrownError { try reader.save() }), movie)
        }
    }

    /// Saving a second tag named "swift" where tag names are unique, under the error merge
    /// policy: 133021.
    static func uniquenessConstraintConflict() throws -> any Error {
        let tag = ModelFixtureKit.entity("Tag", [ModelFixtureKit.attribute("name", .stringAttributeType)])
        tag.uniquenessConstraints = [["name"]]
        let stack = try CtxStack(model: ModelFixtureKit.model([tag]))
        return try stack.context.performAndWait {
            ctxInsert("Tag", into: stack.context, ["name": "swift"])
            try stack.context.save()
            ctxInsert("Tag", into: stack.context, ["name": "swift"])
            return try #require(thrownError { try stack.context.save() })
        }
    }

    /// Opening a store written with the Movie model with a model whose Movie hashes differently:
    /// 134100.
    static func incompatibleStore() throws -> any Error {
        let stack = try CtxStack(model: MovieModel.make())
        let changed = MovieModel.make()
        changed.entitiesByName["Movie"]?.versionHashModifier = "v2"
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: changed)
        return try #require(thrownError {
            try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: stack.storeURL, options: nil)
        })
    }

    /// Reading the metadata of a store file that does not exist: Foundation's 260.
    static func missingStoreFile() throws -> (error: any Error, url: URL) {
        let directory = try CtxTemporaryDirectory()
        let url = directory.url.appendingPathComponent("Missing.sqlite")
        let error = try #require(thrownError {
            _ = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url)
        })
        return (error, url)
    }

    /// Fetching movies sorted by a key the entity does not have: 134060.
    static func unknownSortKey() throws -> any Error {
        let stack = try CtxStack(model: MovieModel.make())
        return try stack.context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Movie")
            request.sortDescriptors = [NSSortDescriptor(key: "director", ascending: true)]
            return try #require(thrownError { _ = try stack.context.fetch(request) })
        }
    }

    /// The error `body` throws, as thrown (not converted), or nil.
    private static func thrownError(_ body: () throws -> Void) -> (any Error)? {
        do {
            try body()
            return nil
        } catch {
            return error
        }
    }
}
