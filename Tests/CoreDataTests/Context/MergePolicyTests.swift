@testable import CoreData
import Testing

/// Optimistic-locking conflicts at save and how each merge policy resolves them (spec MOC-23 to
/// MOC-25): two contexts change the same movie, one saves first, then the other saves.
@Suite struct MergePolicyTests {
    /// A movie "T" (year 1, rating 1) saved, then read by context `mine`; another context renames
    /// it "Theirs" and rates it 9, and saves; `mine` renames it "Mine" and sets its year to 2.
    private struct Conflict {
        let stack: CtxStack
        let mine: NSManagedObjectContext
        let movie: NSManagedObject
    }

    private static func conflict(_ storeType: String, theirs: (NSManagedObject, NSManagedObjectContext) -> Void = { movie, _ in
        movie.setValue("Theirs", forKey: "title")
        movie.setValue(9.0, forKey: "rating")
    }, mine change: (NSManagedObject, NSManagedObjectContext) -> Void = { movie, _ in
        movie.setValue("Mine", forKey: "title")
        movie.setValue(2, forKey: "year")
    }) throws -> Conflict {
        let stack = try CtxStack(model: MovieModel.make(), storeType: storeType)
        try stack.context.performAndWait {
            ctxInsert("Movie", into: stack.context, ["title": "T", "year": 1, "rating": 1.0])
            try stack.context.save()
        }
        let mine = stack.newContext()
        let movie = try mine.performAndWait { () throws -> NSManagedObject in
            let movie = try #require(try ctxFetch("Movie", in: mine).first)
            _ = movie.value(forKey: "title")
            return movie
        }
        let other = stack.newContext()
        try other.performAndWait {
            let theirMovie = try #require(try ctxFetch("Movie", in: other).first)
            theirs(theirMovie, other)
            try other.save()
        }
        mine.performAndWait { change(movie, mine) }
        return Conflict(stack: stack, mine: mine, movie: movie)
    }

    /// The movie as the store has it now, read by a fresh context: title, year, rating; nil when gone.
    private static func stored(_ stack: CtxStack) throws -> (String?, Int?, Double?)? {
        let reader = stack.newContext()
        return try reader.performAndWait {
            guard let movie = try ctxFetch("Movie", in: reader).first else { return nil }
            return (movie.value(forKey: "title") as? String, movie.value(forKey: "year") as? Int, movie.value(forKey: "rating") as? Double)
        }
    }

    private static let storeTypes = [NSSQLiteStoreType, NSInMemoryStoreType]

    @Test(arguments: storeTypes)
    func theErrorPolicyFailsAndListsTheConflicts(storeType: String) throws {
        let conflict = try Self.conflict(storeType)
        #expect((conflict.mine.mergePolicy as? NSMergePolicy)?.mergeType == .errorMergePolicyType, "the default")
        let error = try #require(conflict.mine.performAndWait { ctxError { try conflict.mine.save() } })
        #expect(error.code == NSManagedObjectMergeError)
        let list = try #require(error.userInfo[NSPersistentStoreSaveConflictsErrorKey] as? [NSMergeConflict])
        #expect(list.count == 1)
        #expect(list.first?.sourceObject === conflict.movie)
        #expect(list.first?.oldVersionNumber == 1)
        #expect(list.first?.newVersionNumber == 2)
        // Both contexts share a coordinator: the conflict is with its cached row, not the store.
        #expect(list.first?.objectSnapshot?["title"] as? String == "T", "what this context last read")
        #expect(list.first?.cachedSnapshot?["title"] as? String == "Theirs", "what the other context saved")
        #expect(list.first?.cachedSnapshot?["rating"] as? Double == 9)
        #expect(list.first?.persistedSnapshot == nil)
        #expect(try Self.stored(conflict.stack)?.0 == "Theirs", "nothing was written")
        #expect(conflict.mine.performAndWait { conflict.mine.hasChanges }, "the context keeps its changes")
    }

    @Test func aConflictWithAnotherCoordinatorHasThePersistedSnapshot() throws {
        let stack = try CtxStack(model: MovieModel.make())
        try stack.context.performAndWait {
            ctxInsert("Movie", into: stack.context, ["title": "T", "year": 1, "rating": 1.0])
            try stack.context.save()
        }
        let movie = try stack.context.performAndWait { () throws -> NSManagedObject in
            let movie = try #require(try ctxFetch("Movie", in: stack.context).first)
            _ = movie.value(forKey: "title")
            return movie
        }
        let elsewhere = try stack.reopened()
        try elsewhere.context.performAndWait {
            let theirs = try #require(try ctxFetch("Movie", in: elsewhere.context).first)
            theirs.setValue("Theirs", forKey: "title")
            try elsewhere.context.save()
        }
        let error = try #require(stack.context.performAndWait {
            movie.setValue("Mine", forKey: "title")
            return ctxError { try stack.context.save() }
        })
        let conflict = try #require((error.userInfo[NSPersistentStoreSaveConflictsErrorKey] as? [NSMergeConflict])?.first)
        #expect(conflict.objectSnapshot?["title"] as? String == "T")
        #expect(conflict.cachedSnapshot?["title"] as? String == "T", "the coordinator had not seen the other save")
        #expect(conflict.persistedSnapshot?["title"] as? String == "Theirs")
        #expect(conflict.oldVersionNumber == 1 && conflict.newVersionNumber == 2)
    }

    @Test(arguments: storeTypes)
    func eachPolicyResolvesTheConflictAsItsNameSays(storeType: String) throws {
        let expected: [(Any, String, Int, Double)] = [
            (NSMergeByPropertyStoreTrumpMergePolicy, "Theirs", 2, 9),
            (NSMergeByPropertyObjectTrumpMergePolicy, "Mine", 2, 9),
            (NSOverwriteMergePolicy, "Mine", 2, 1),
            (NSRollbackMergePolicy, "Theirs", 1, 9),
        ]
        for (policy, title, year, rating) in expected {
            let conflict = try Self.conflict(storeType)
            try conflict.mine.performAndWait {
                conflict.mine.mergePolicy = policy
                try conflict.mine.save()
                #expect(conflict.movie.value(forKey: "title") as? String == title, "\(policy) in memory")
                #expect(!conflict.mine.hasChanges)
            }
            let stored = try #require(try Self.stored(conflict.stack))
            #expect(stored.0 == title && stored.1 == year && stored.2 == rating, "\(policy): \(stored)")
        }
    }

    @Test(arguments: storeTypes)
    func aRowDeletedElsewhereIsAConflictWithoutPersistedState(storeType: String) throws {
        let deleted = try Self.conflict(storeType, theirs: { movie, context in context.delete(movie) })
        let error = try #require(deleted.mine.performAndWait { ctxError { try deleted.mine.save() } })
        let conflict = try #require((error.userInfo[NSPersistentStoreSaveConflictsErrorKey] as? [NSMergeConflict])?.first)
        #expect(conflict.newVersionNumber == 0)
        #expect(conflict.persistedSnapshot == nil)

        let trumped = try Self.conflict(storeType, theirs: { movie, context in context.delete(movie) })
        try trumped.mine.performAndWait {
            trumped.mine.mergePolicy = NSMergePolicy.mergeByPropertyObjectTrump
            try trumped.mine.save()
        }
        #expect(try Self.stored(trumped.stack) == nil, "the object is discarded: its row is gone")
    }

    @Test(arguments: storeTypes)
    func aDeleteInConflictGoesAheadOrIsRolledBack(storeType: String) throws {
        let trumped = try Self.conflict(storeType, mine: { movie, context in context.delete(movie) })
        try trumped.mine.performAndWait {
            trumped.mine.mergePolicy = NSMergePolicy.mergeByPropertyObjectTrump
            try trumped.mine.save()
        }
        #expect(try Self.stored(trumped.stack) == nil)

        let rolledBack = try Self.conflict(storeType, mine: { movie, context in context.delete(movie) })
        try rolledBack.mine.performAndWait {
            rolledBack.mine.mergePolicy = NSMergePolicy.rollback
            try rolledBack.mine.save()
            #expect(!rolledBack.movie.isDeleted)
            #expect(rolledBack.movie.value(forKey: "title") as? String == "Theirs")
        }
        #expect(try Self.stored(rolledBack.stack)?.0 == "Theirs")
    }

    /// A subclass sees the conflicts before resolving them as its type does.
    final class RecordingPolicy: NSMergePolicy, @unchecked Sendable {
        let seen = CtxLog<NSMergeConflict>()

        override func resolve(optimisticLockingConflicts list: [NSMergeConflict]) throws {
            list.forEach(seen.append)
            try super.resolve(optimisticLockingConflicts: list)
        }
    }

    @Test func subclassesOverrideTheResolution() throws {
        let conflict = try Self.conflict(NSSQLiteStoreType)
        let policy = RecordingPolicy(merge: .mergeByPropertyObjectTrumpMergePolicyType)
        try conflict.mine.performAndWait {
            conflict.mine.mergePolicy = policy
            try conflict.mine.save()
        }
        #expect(policy.seen.elements.map(\.sourceObject) == [conflict.movie])
        #expect(try Self.stored(conflict.stack)?.0 == "Mine")
    }

    /// A subclass that hands `super` conflicts it made with the public initializer.
    final class RebuildingPolicy: NSMergePolicy, @unchecked Sendable {
        override func resolve(optimisticLockingConflicts list: [NSMergeConflict]) throws {
            try super.resolve(optimisticLockingConflicts: list.map {
                NSMergeConflict(source: $0.sourceObject, newVersion: $0.newVersionNumber, oldVersion: $0.oldVersionNumber,
                                cachedSnapshot: $0.cachedSnapshot, persistedSnapshot: $0.persistedSnapshot)
            })
        }
    }

    /// A subclass that resolves nothing.
    final class IdlePolicy: NSMergePolicy, @unchecked Sendable {
        override func resolve(optimisticLockingConflicts list: [NSMergeConflict]) throws {}
    }

    @Test func conflictsMadeWithThePublicInitializerResolveLikeTheContextsOwn() throws {
        let conflict = try Self.conflict(NSSQLiteStoreType)
        try conflict.mine.performAndWait {
            conflict.mine.mergePolicy = RebuildingPolicy(merge: .mergeByPropertyObjectTrumpMergePolicyType)
            try conflict.mine.save()
        }
        let stored = try #require(try Self.stored(conflict.stack))
        #expect(stored.0 == "Mine" && stored.2 == 9, "merged, not dropped: \(stored)")
    }

    /// A subclass that hands `super` conflicts made with the public initializer, which carry no
    /// row, while the store's movie table cannot be read: resolving them must read the row again.
    final class UnreadableRowPolicy: NSMergePolicy, @unchecked Sendable {
        var storeURL: URL?
        var brokeTheTable = false

        override func resolve(optimisticLockingConflicts list: [NSMergeConflict]) throws {
            let url = try #require(storeURL)
            try ReadErrorTests.breakTable("ZMOVIE", inStoreAt: url)
            brokeTheTable = true
            // The table is back for the rest of the save, so that only this resolution can fail it.
            defer { try? ReadErrorTests.repairTable("ZMOVIE", inStoreAt: url) }
            try super.resolve(optimisticLockingConflicts: list.map {
                NSMergeConflict(source: $0.sourceObject, newVersion: $0.newVersionNumber, oldVersion: $0.oldVersionNumber,
                                cachedSnapshot: $0.cachedSnapshot, persistedSnapshot: $0.persistedSnapshot)
            })
        }
    }

    @Test func aConflictWhoseRowCannotBeReadFailsTheSaveAndWritesNothing() throws {
        let conflict = try Self.conflict(NSSQLiteStoreType)
        let policy = UnreadableRowPolicy(merge: .mergeByPropertyObjectTrumpMergePolicyType)
        policy.storeURL = conflict.stack.storeURL
        let error = conflict.mine.performAndWait {
            ctxError {
                conflict.mine.mergePolicy = policy
                // Rows are read from the store, never from the coordinator's cache.
                conflict.mine.stalenessInterval = 0
                try conflict.mine.save()
            }
        }
        #expect(policy.brokeTheTable)
        #expect(error?.domain == NSCocoaErrorDomain, "the save throws: \(String(describing: error))")
        let reader = try conflict.stack.reopened()
        let stored = try reader.context.performAndWait { () throws -> (String?, Int?, Double?) in
            let movie = try #require(try ctxFetch("Movie", in: reader.context).first)
            return (movie.value(forKey: "title") as? String, movie.value(forKey: "year") as? Int, movie.value(forKey: "rating") as? Double)
        }
        #expect(stored.0 == "Theirs" && stored.1 == 1 && stored.2 == 9, "nothing of mine was written: \(stored)")
    }

    @Test func aPolicyThatResolvesNothingEndsInTheErrorPolicysError() throws {
        let conflict = try Self.conflict(NSSQLiteStoreType)
        let error = try #require(conflict.mine.performAndWait {
            ctxError {
                conflict.mine.mergePolicy = IdlePolicy(merge: .mergeByPropertyObjectTrumpMergePolicyType)
                try conflict.mine.save()
            }
        })
        #expect(error.code == NSManagedObjectMergeError)
        #expect((error.userInfo[NSPersistentStoreSaveConflictsErrorKey] as? [NSMergeConflict])?.count == 1)
    }

    @Test func policyTypesHaveApplesRawValues() {
        #expect(NSMergePolicyType.errorMergePolicyType.rawValue == 0)
        #expect(NSMergePolicyType.mergeByPropertyStoreTrumpMergePolicyType.rawValue == 1)
        #expect(NSMergePolicyType.mergeByPropertyObjectTrumpMergePolicyType.rawValue == 2)
        #expect(NSMergePolicyType.overwriteMergePolicyType.rawValue == 3)
        #expect(NSMergePolicyType.rollbackMergePolicyType.rawValue == 4)
        #expect((NSRollbackMergePolicy as? NSMergePolicy)?.mergeType == .rollbackMergePolicyType)
        #expect(NSMergePolicy.overwrite.mergeType == .overwriteMergePolicyType)
    }
}
