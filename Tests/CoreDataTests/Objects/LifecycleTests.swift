import CoreData
import Testing

/// A Movie class that records every lifecycle hook Core Data calls on it, with the state it saw.
final class LifecycleMovie: NSManagedObject {
    var events: [String] = []

    override func awakeFromInsert() {
        super.awakeFromInsert()
        events.append("awakeFromInsert")
    }

    override func awakeFromFetch() {
        super.awakeFromFetch()
        events.append("awakeFromFetch")
    }

    override func willSave() {
        super.willSave()
        events.append("willSave(inserted: \(isInserted), updated: \(isUpdated), deleted: \(isDeleted))")
    }

    override func didSave() {
        super.didSave()
        events.append("didSave(temporaryID: \(objectID.isTemporaryID))")
    }

    override func prepareForDeletion() {
        super.prepareForDeletion()
        // The relationships are still intact: propagation has not run yet.
        events.append("prepareForDeletion(characters: \(ctxObjects(value(forKey: "characters")).count))")
    }

    override func willTurnIntoFault() {
        super.willTurnIntoFault()
        events.append("willTurnIntoFault(isFault: \(isFault))")
    }

    override func didTurnIntoFault() {
        super.didTurnIntoFault()
        events.append("didTurnIntoFault(isFault: \(isFault))")
    }
}

/// A Character class that counts prepareForDeletion calls.
final class LifecycleCharacter: NSManagedObject {
    var preparedForDeletion = 0

    override func prepareForDeletion() {
        super.prepareForDeletion()
        preparedForDeletion += 1
    }
}

/// A Movie class whose awakeFromInsert sets an initial value and whose willSave stamps a value.
final class StampingMovie: NSManagedObject {
    var willSaveCalls = 0

    override func awakeFromInsert() {
        super.awakeFromInsert()
        setValue("Untitled", forKey: "title")
    }

    override func willSave() {
        super.willSave()
        willSaveCalls += 1
        // Changing a value with the public setter only when needed, so the save settles.
        if !isDeleted, value(forKey: "rating") == nil {
            setValue(5.0, forKey: "rating")
        }
    }
}

/// Lifecycle hooks (MOC-12, MOC-18, FLT-2, FLT-6): which hooks Core Data calls, when, and in
/// which state.
@Suite struct LifecycleTests {
    private func stack<T: NSManagedObject>(_ type: T.Type) throws -> CtxStack {
        try CtxStack(model: SubclassTests.model(movieClass: NSStringFromClass(type)))
    }

    @Test func awakeFromInsertRunsOnceOnInsert() throws {
        let stack = try stack(LifecycleMovie.self)
        stack.context.performAndWait {
            let movie = ctxInsert("Movie", into: stack.context, ["title": "Alien"]) as? LifecycleMovie
            #expect(movie?.events == ["awakeFromInsert"])
        }
    }

    @Test func awakeFromInsertCanSetInitialValues() throws {
        let stack = try stack(StampingMovie.self)
        stack.context.performAndWait {
            let movie = ctxInsert("Movie", into: stack.context)
            #expect(movie.value(forKey: "title") as? String == "Untitled")
            #expect(movie.isInserted)
        }
    }

    @Test func awakeFromFetchRunsWhenTheFaultFires() throws {
        let stack = try stack(LifecycleMovie.self)
        try stack.context.performAndWait { () throws in
            ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            try stack.context.save()
        }
        let reopened = try stack.reopened()
        try reopened.context.performAndWait { () throws in
            let movie = try #require(try ctxFetch("Movie", in: reopened.context).first as? LifecycleMovie)
            #expect(movie.isFault)
            #expect(!movie.events.contains("awakeFromInsert"))
            _ = movie.value(forKey: "title")
            #expect(movie.events == ["awakeFromFetch"])
            _ = movie.value(forKey: "year")
            #expect(movie.events == ["awakeFromFetch"])
        }
    }

    @Test func willSaveAndDidSaveRunForInsertedUpdatedAndDeletedObjects() throws {
        let stack = try stack(LifecycleMovie.self)
        try stack.context.performAndWait { () throws in
            let inserted = try #require(ctxInsert("Movie", into: stack.context, ["title": "Alien"]) as? LifecycleMovie)
            let untouched = try #require(ctxInsert("Movie", into: stack.context, ["title": "Heat"]) as? LifecycleMovie)
            let doomed = try #require(ctxInsert("Movie", into: stack.context, ["title": "Doomed"]) as? LifecycleMovie)
            try stack.context.save()
            #expect(inserted.events == [
                "awakeFromInsert",
                "willSave(inserted: true, updated: false, deleted: false)",
                "didSave(temporaryID: false)",
            ])

            inserted.events = []
            untouched.events = []
            doomed.events = []
            inserted.setValue("Aliens", forKey: "title")
            stack.context.delete(doomed)
            try stack.context.save()
            #expect(inserted.events == [
                "willSave(inserted: false, updated: true, deleted: false)",
                "didSave(temporaryID: false)",
            ])
            #expect(untouched.events.isEmpty)
            #expect(doomed.events.first == "prepareForDeletion(characters: 0)")
            #expect(doomed.events.contains("willSave(inserted: false, updated: false, deleted: true)"))
            #expect(doomed.events.last?.hasPrefix("didSave") == true)
        }
    }

    @Test func willSaveChangesAreSavedAndSettle() throws {
        let stack = try stack(StampingMovie.self)
        try stack.context.performAndWait { () throws in
            let movie = try #require(ctxInsert("Movie", into: stack.context) as? StampingMovie)
            try stack.context.save()
            #expect(movie.value(forKey: "rating") as? Double == 5.0)
            #expect(!stack.context.hasChanges)
            #expect(movie.willSaveCalls >= 1)
        }
        let reopened = try stack.reopened()
        try reopened.context.performAndWait { () throws in
            let movie = try #require(try ctxFetch("Movie", in: reopened.context).first)
            #expect(movie.value(forKey: "rating") as? Double == 5.0)
            #expect(movie.value(forKey: "title") as? String == "Untitled")
        }
    }

    @Test func prepareForDeletionRunsBeforePropagationWhileRelationshipsAreIntact() throws {
        let stack = try stack(LifecycleMovie.self)
        try stack.context.performAndWait { () throws in
            let movie = try #require(ctxInsert("Movie", into: stack.context, ["title": "Alien"]) as? LifecycleMovie)
            ctxInsert("Character", into: stack.context, ["name": "Ripley", "movie": movie])
            ctxInsert("Character", into: stack.context, ["name": "Ash", "movie": movie])
            try stack.context.save()
            movie.events = []

            stack.context.delete(movie)
            stack.context.processPendingChanges()
            #expect(movie.events == ["prepareForDeletion(characters: 2)"])
            try stack.context.save()
            #expect(movie.events.filter { $0.hasPrefix("prepareForDeletion") }.count == 1)
        }
    }

    @Test func prepareForDeletionRunsWhenDeleteIsCalledEachTime() throws {
        let stack = try stack(LifecycleMovie.self)
        try stack.context.performAndWait { () throws in
            let movie = try #require(ctxInsert("Movie", into: stack.context, ["title": "Alien"]) as? LifecycleMovie)
            ctxInsert("Character", into: stack.context, ["name": "Ripley", "movie": movie])
            try stack.context.save()
            movie.events = []

            stack.context.delete(movie)
            #expect(movie.events == ["prepareForDeletion(characters: 1)"])
            stack.context.delete(movie)
            #expect(movie.events == ["prepareForDeletion(characters: 1)", "prepareForDeletion(characters: 1)"])
            try stack.context.save()
            #expect(movie.events.filter { $0.hasPrefix("prepareForDeletion") }.count == 2)
        }
    }

    @Test func prepareForDeletionRunsForCascadedObjects() throws {
        let model = MovieModel.make()
        for entity in model.entities where entity.name == "Character" {
            entity.managedObjectClassName = NSStringFromClass(LifecycleCharacter.self)
        }
        let stack = try CtxStack(model: model)
        try stack.context.performAndWait { () throws in
            let movie = ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            let ripley = try #require(ctxInsert("Character", into: stack.context, ["name": "Ripley", "movie": movie]) as? LifecycleCharacter)
            let unrelated = try #require(ctxInsert("Character", into: stack.context, ["name": "Nobody"]) as? LifecycleCharacter)
            try stack.context.save()
            stack.context.delete(movie)
            stack.context.processPendingChanges()
            #expect(ripley.preparedForDeletion == 1)
            #expect(unrelated.preparedForDeletion == 0)
        }
    }

    @Test func refreshWithoutMergingCallsTheFaultHooksInOrder() throws {
        let stack = try stack(LifecycleMovie.self)
        try stack.context.performAndWait { () throws in
            let movie = try #require(ctxInsert("Movie", into: stack.context, ["title": "Alien"]) as? LifecycleMovie)
            try stack.context.save()
            movie.events = []
            stack.context.refresh(movie, mergeChanges: false)
            #expect(movie.events == ["willTurnIntoFault(isFault: false)", "didTurnIntoFault(isFault: true)"])
            movie.events = []
            _ = movie.value(forKey: "title")
            #expect(movie.events == ["awakeFromFetch"])
        }
    }

    @Test func hooksAreNotCalledByReadsOrFetchesOfRealizedObjects() throws {
        let stack = try stack(LifecycleMovie.self)
        try stack.context.performAndWait { () throws in
            let movie = try #require(ctxInsert("Movie", into: stack.context, ["title": "Alien"]) as? LifecycleMovie)
            try stack.context.save()
            movie.events = []
            _ = movie.value(forKey: "title")
            _ = try ctxFetch("Movie", in: stack.context)
            stack.context.processPendingChanges()
            #expect(movie.events.isEmpty)
        }
    }
}
