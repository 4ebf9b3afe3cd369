@testable import CoreData
import Testing

/// Edge cases of change tracking found in review: each failed before its fix.
@Suite struct ContextEdgeCaseTests {
    @Test func anObjectInsertedAgainAfterItsDeleteIsSaved() throws {
        let stack = try CtxStack(model: MovieModel.make())
        try stack.context.performAndWait {
            let movie = ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            _ = movie.objectID
            stack.context.delete(movie)
            stack.context.processPendingChanges()
            #expect(!movie.isInserted && movie.managedObjectContext == nil)
            stack.context.insert(movie)
            #expect(movie.isInserted && movie.managedObjectContext === stack.context)
            #expect(stack.context.insertedObjects.count == 1)
            try stack.context.save()
            #expect(try ctxStoredCount("Movie", in: stack.context) == 1)
            #expect(stack.context.registeredObjects.contains(movie))
        }
    }

    @Test(arguments: [NSSQLiteStoreType, NSInMemoryStoreType])
    func hugeLimitsOffsetsAndBatchSizesDoNotOverflow(storeType: String) throws {
        let stack = try CtxStack(model: MovieModel.make(), storeType: storeType)
        try stack.context.performAndWait {
            for title in ["Alien", "Aliens", "Heat"] { ctxInsert("Movie", into: stack.context, ["title": title]) }
            try stack.context.save()
            let heat = try #require(try ctxFetch("Movie", in: stack.context, "title == 'Heat'").first)
            heat.setValue("Heat (1995)", forKey: "title")
            ctxInsert("Movie", into: stack.context, ["title": "Ronin"])

            let request = NSFetchRequest<NSManagedObject>(entityName: "Movie")
            request.sortDescriptors = [NSSortDescriptor(key: "title", ascending: true)]
            request.fetchLimit = Int.max
            request.fetchOffset = 1
            #expect(try stack.context.fetch(request).count == 3)
            request.fetchOffset = Int.max
            #expect(try stack.context.fetch(request).isEmpty)
            #expect(try stack.context.count(for: request) == 0)

            let faults = NSFetchRequest<NSManagedObject>(entityName: "Movie")
            faults.includesPropertyValues = false
            faults.includesPendingChanges = false
            faults.fetchBatchSize = Int.max
            stack.context.reset()
            let titles = try stack.context.fetch(faults).compactMap { $0.value(forKey: "title") as? String }
            #expect(titles.sorted() == ["Alien", "Aliens", "Heat"])
        }
    }

    @Test func committedValuesOfAFaultReadItsRow() throws {
        let stack = try CtxStack(model: MovieModel.make())
        try stack.context.performAndWait {
            ctxInsert("Movie", into: stack.context, ["title": "Alien", "year": 1979])
            try stack.context.save()
        }
        let reopened = try stack.reopened()
        try reopened.context.performAndWait {
            let movie = try #require(try ctxFetch("Movie", in: reopened.context).first)
            #expect(movie.isFault)
            let committed = movie.committedValues(forKeys: nil)
            #expect(committed["title"] as? String == "Alien")
            #expect(committed["year"] as? Int == 1979)
        }
    }

    @Test func rollbackForgetsAValueOfTheWrongType() throws {
        let stack = try CtxStack(model: MovieModel.make())
        try stack.context.performAndWait {
            let movie = ctxInsert("Movie", into: stack.context, ["title": "Alien", "year": 1979])
            try stack.context.save()
            movie.setValue("not a number", forKey: "year")
            stack.context.rollback()
            #expect(movie.value(forKey: "year") as? Int == 1979)
            movie.setValue("Aliens", forKey: "title")
            try stack.context.save()
        }
    }

    @Test func resetForgetsInsertedObjectsWhoseIDWasNeverRead() throws {
        let stack = try CtxStack(model: MovieModel.make(), storeType: NSInMemoryStoreType)
        stack.context.performAndWait {
            let movie = ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            stack.context.reset()
            #expect(movie.managedObjectContext == nil)
            #expect(!stack.context.hasChanges)
            #expect(stack.context.insertedObjects.isEmpty)
        }
    }

    @Test func changesToAnObjectInsertedInAnEarlierEventAreReportedAsUpdates() throws {
        let stack = try CtxStack(model: MovieModel.make(), storeType: NSInMemoryStoreType)
        let recorder = CtxNotificationRecorder(.NSManagedObjectContextObjectsDidChange, object: stack.context)
        stack.context.performAndWait {
            let movie = ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            stack.context.processPendingChanges()
            movie.setValue(1979, forKey: "year")
            stack.context.processPendingChanges()
            let notifications = recorder.notifications
            #expect(notifications.count == 2)
            #expect(ctxObjects(in: notifications[0], key: NSInsertedObjectsKey) == [movie])
            #expect(ctxObjects(in: notifications[1], key: NSUpdatedObjectsKey) == [movie])
            #expect(ctxObjects(in: notifications[1], key: NSInsertedObjectsKey).isEmpty)
        }
    }

    @Test func settingTheSameDestinationsInAnotherOrderIsNoChangeForAnUnorderedRelationship() throws {
        let stack = try CtxStack(model: MovieModel.make())
        try stack.context.performAndWait {
            let movie = ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            let ripley = ctxInsert("Character", into: stack.context, ["name": "Ripley", "movie": movie])
            let dallas = ctxInsert("Character", into: stack.context, ["name": "Dallas", "movie": movie])
            try stack.context.save()
            movie.setValue(NSSet(array: [dallas, ripley]), forKey: "characters")
            #expect(movie.changedValues().isEmpty)
            #expect(!movie.hasPersistentChangedValues)
        }
    }

    @Test func aFaultWhoseRowIsGoneDoesNotBlockLaterSaves() throws {
        let stack = try CtxStack(model: MovieModel.make())
        let identifier: NSManagedObjectID = try stack.context.performAndWait {
            let movie = ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            try stack.context.save()
            return movie.objectID
        }
        let other = stack.newContext()
        try other.performAndWait {
            let movie = try #require(try ctxFetch("Movie", in: other).first)
            other.delete(movie)
            try other.save()
        }
        let reader = stack.newContext()
        try reader.performAndWait {
            let gone = reader.object(with: identifier)
            #expect(gone.value(forKey: "title") == nil)
            #expect(gone.isDeleted)
            ctxInsert("Movie", into: reader, ["title": "Arrival"])
            try reader.save()
            #expect(try ctxStoredCount("Movie", in: reader) == 1)
            #expect(gone.managedObjectContext == nil)
        }
    }
}

/// Faults see the saves of sibling contexts on the same coordinator, as Apple's row cache gives.
@Suite struct SiblingSaveTests {
    @Test func aFaultFiredAfterASiblingSaveReadsTheSavedValues() throws {
        let stack = try CtxStack(model: MovieModel.make())
        try stack.context.performAndWait {
            ctxInsert("Movie", into: stack.context, ["title": "Alien", "year": 1979])
            try stack.context.save()
        }
        let reader = stack.newContext()
        let writer = stack.newContext()
        try reader.performAndWait {
            let movie = try #require(try ctxFetch("Movie", in: reader).first)
            #expect(movie.isFault)
            try writer.performAndWait {
                let same = try #require(try ctxFetch("Movie", in: writer).first)
                same.setValue("Alien: Director's Cut", forKey: "title")
                try writer.save()
            }
            #expect(movie.value(forKey: "title") as? String == "Alien: Director's Cut")
            movie.setValue(1980, forKey: "year")
            try reader.save()
        }
    }

    @Test func aFaultWhoseRowASiblingDeletedBecomesInaccessible() throws {
        let stack = try CtxStack(model: MovieModel.make())
        try stack.context.performAndWait {
            ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            try stack.context.save()
        }
        let reader = stack.newContext()
        let writer = stack.newContext()
        try reader.performAndWait {
            let movie = try #require(try ctxFetch("Movie", in: reader).first)
            try writer.performAndWait {
                try ctxFetch("Movie", in: writer).forEach(writer.delete)
                try writer.save()
            }
            #expect(movie.value(forKey: "title") == nil)
            #expect(movie.isDeleted)
            try reader.save()
        }
    }
}

/// Fetches and counts with unsaved changes, where the store runs a shortened query.
@Suite struct PendingChangesFetchTests {
    private func tenMovies() throws -> CtxStack {
        let stack = try CtxStack(model: MovieModel.make())
        try stack.context.performAndWait {
            for year in 1970..<1980 { ctxInsert("Movie", into: stack.context, ["title": "Movie \(year)", "year": year]) }
            try stack.context.save()
        }
        return stack
    }

    @Test func limitedFetchesSeeDeletesUpdatesAndInserts() throws {
        let stack = try tenMovies()
        try stack.context.performAndWait {
            let all = try ctxFetch("Movie", in: stack.context, sortedBy: "year")
            stack.context.delete(all[0])
            all[1].setValue(1990, forKey: "year")
            ctxInsert("Movie", into: stack.context, ["title": "Early", "year": 1960])
            let request = NSFetchRequest<NSManagedObject>(entityName: "Movie")
            request.sortDescriptors = [NSSortDescriptor(key: "year", ascending: true)]
            request.fetchLimit = 3
            request.fetchOffset = 1
            let years = try stack.context.fetch(request).compactMap { $0.value(forKey: "year") as? Int }
            #expect(years == [1972, 1973, 1974])
            let counted = NSFetchRequest<NSManagedObject>(entityName: "Movie")
            counted.predicate = NSPredicate(format: "year < 1975")
            #expect(try stack.context.count(for: counted) == 4)
            counted.fetchLimit = 2
            #expect(try stack.context.count(for: counted) == 2)
        }
    }
}
