@testable import CoreData
import Testing

/// `fetchBatchSize`, the lazy `fetchBatched(_:)`, `relationshipKeyPathsForPrefetching` and
/// `shouldRefreshRefetchedObjects`, with the SQLite statements each one runs counted.
@Suite struct BatchedFetchTests {
    private static func stack(movies: Int, charactersEach: Int = 0) throws -> CtxStack {
        let stack = try CtxStack(model: MovieModel.make())
        try stack.context.performAndWait {
            let actor = ctxInsert("Actor", into: stack.context, ["name": "Everyone"])
            for index in 0..<movies {
                let movie = ctxInsert("Movie", into: stack.context, ["title": "Movie \(index)", "year": 1900 + index])
                for role in 0..<charactersEach {
                    ctxInsert("Character", into: stack.context, ["name": "Role \(index).\(role)", "movie": movie, "actor": actor])
                }
            }
            try stack.context.save()
        }
        return try stack.reopened()
    }

    private static func request(batchSize: Int) -> NSFetchRequest<NSManagedObject> {
        let request = NSFetchRequest<NSManagedObject>(entityName: "Movie")
        request.fetchBatchSize = batchSize
        request.sortDescriptors = [NSSortDescriptor(key: "year", ascending: true)]
        return request
    }

    @Test func aBatchSizeFetchesIDsThenLoadsOneBatchPerQuery() throws {
        let stack = try Self.stack(movies: 25)
        try stack.context.performAndWait {
            var movies: [NSManagedObject] = []
            let fetching = try ctxStatements(in: stack) { movies = try stack.context.fetch(Self.request(batchSize: 10)) }
            #expect(fetching.count == 1)
            #expect(fetching.first?.hasPrefix("SELECT t0.Z_PK, t0.Z_ENT FROM") == true, "only IDs at first")
            #expect(movies.count == 25)
            #expect(movies.allSatisfy { $0.isFault && $0.snapshot == nil })
            let reading = try ctxStatements(in: stack) {
                for movie in movies { _ = movie.value(forKey: "title") }
            }
            #expect(reading.count == 3, "one query per batch of 10")
            #expect(movies.map { $0.value(forKey: "year") as? Int } == (0..<25).map { 1900 + $0 })
        }
    }

    @Test func theLazyCollectionMakesOneBatchOfObjectsAtATime() throws {
        let stack = try Self.stack(movies: 95)
        try stack.context.performAndWait {
            let results = try stack.context.fetchBatched(Self.request(batchSize: 20))
            #expect(results.count == 95)
            #expect(results.batchSize == 20)
            #expect(stack.context.registeredObjects.isEmpty, "nothing is made before it is read")
            var years: [Int] = []
            var largestRegistered = 0
            let queries = try ctxStatements(in: stack) {
                for movie in results {
                    years.append(movie.value(forKey: "year") as? Int ?? -1)
                    largestRegistered = max(largestRegistered, stack.context.registeredObjects.count)
                }
            }
            #expect(years == (0..<95).map { 1900 + $0 })
            #expect(queries.count == 5, "one query per batch")
            #expect(largestRegistered <= 40, "objects of earlier batches are released: \(largestRegistered)")
            #expect(results[3] === results[3], "an object is the same while its batch is held")
            #expect(results[94].value(forKey: "title") as? String == "Movie 94")
        }
    }

    @Test func theLazyCollectionOverlaysUnsavedChanges() throws {
        let stack = try Self.stack(movies: 5)
        try stack.context.performAndWait {
            let inserted = ctxInsert("Movie", into: stack.context, ["title": "New", "year": 1850])
            let results = try stack.context.fetchBatched(Self.request(batchSize: 2))
            #expect(results.count == 6)
            #expect(results.first === inserted)
            #expect(results.map { $0.value(forKey: "year") as? Int } == [1850, 1900, 1901, 1902, 1903, 1904])
        }
    }

    @Test func theLazyCollectionRefusesOtherResultTypes() throws {
        let stack = try Self.stack(movies: 1)
        let error = stack.context.performAndWait {
            ctxError {
                let request = NSFetchRequest<NSManagedObject>(entityName: "Movie")
                request.resultType = .managedObjectIDResultType
                _ = try stack.context.fetchBatched(request)
            }
        }
        #expect(error?.domain == NSCocoaErrorDomain)
    }

    @Test func theLazyCollectionRefusesObjectsRegisteredWithAnotherClass() throws {
        let stack = try SortDescriptorKeyPathTests.stack()
        let error = try stack.context.performAndWait { () throws -> NSError? in
            let entity = try #require(stack.model.entitiesByName["Book"])
            let plain = NSManagedObject(entity: entity, insertInto: stack.context)
            plain.setValue("Plain", forKey: "title")
            try stack.context.save()
            return withExtendedLifetime(plain) {
                ctxError { _ = try stack.context.fetchBatched(NSFetchRequest<SortKeyPathBook>(entityName: "Book")) }
            }
        }
        #expect(error?.domain == NSCocoaErrorDomain, "an error, never a wrong downcast")
    }

    @Test func prefetchingReadsTheRowsAgainOnEveryFetch() throws {
        let stack = try Self.stack(movies: 1, charactersEach: 1)
        let reader = stack.newContext()
        let request = NSFetchRequest<NSManagedObject>(entityName: "Movie")
        request.relationshipKeyPathsForPrefetching = ["characters"]
        try reader.performAndWait { _ = try reader.fetch(request) }
        try stack.context.performAndWait {
            for character in try ctxFetch("Character", in: stack.context) { character.setValue("Renamed", forKey: "name") }
            try stack.context.save()
        }
        try reader.performAndWait {
            let movie = try #require(try reader.fetch(request).first)
            let characters = movie.value(forKey: "characters") as? Set<NSManagedObject> ?? []
            #expect(characters.first?.value(forKey: "name") as? String == "Renamed")
        }
    }

    @Test func batchedFetchesRefreshRefetchedObjectsWhenAsked() throws {
        let stack = try Self.stack(movies: 1)
        try stack.context.performAndWait {
            let movie = try #require(try ctxFetch("Movie", in: stack.context).first)
            #expect(movie.value(forKey: "title") as? String == "Movie 0")
            let other = stack.newContext()
            try other.performAndWait {
                try ctxFetch("Movie", in: other).first?.setValue("Renamed", forKey: "title")
                try other.save()
            }
            let request = Self.request(batchSize: 10)
            request.shouldRefreshRefetchedObjects = true
            _ = try stack.context.fetch(request)
            #expect(movie.value(forKey: "title") as? String == "Renamed")
        }
    }

    @Test func prefetchingRunsOneQueryPerRelationshipNotPerObject() throws {
        let stack = try Self.stack(movies: 30, charactersEach: 3)
        try stack.context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Movie")
            request.relationshipKeyPathsForPrefetching = ["characters", "characters.actor"]
            var movies: [NSManagedObject] = []
            let fetching = try ctxStatements(in: stack) { movies = try stack.context.fetch(request) }
            #expect(fetching.count <= 5, "the movies, their characters' keys and rows, the actors' rows: \(fetching.count)")
            let reading = try ctxStatements(in: stack) {
                for movie in movies {
                    let characters = movie.value(forKey: "characters") as? Set<NSManagedObject> ?? []
                    #expect(characters.count == 3)
                    for character in characters { #expect(character.value(forKeyPath: "actor.name") as? String == "Everyone") }
                }
            }
            #expect(reading.isEmpty, "every row was prefetched: \(reading)")
        }
    }

    @Test func prefetchingCoversOwnersWithoutDestinations() throws {
        let stack = try Self.stack(movies: 3)
        try stack.context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Movie")
            request.relationshipKeyPathsForPrefetching = ["characters"]
            let movies = try stack.context.fetch(request)
            let reading = try ctxStatements(in: stack) {
                #expect(movies.allSatisfy { ctxObjects($0.value(forKey: "characters")).isEmpty })
            }
            #expect(reading.isEmpty, "an owner without destinations was prefetched too: \(reading)")
        }
    }

    @Test func prefetchingAnOrderedRelationshipGivesEachOwnerItsDestinationsInOrder() throws {
        let stack = try CtxStack(model: CtxGraphModel.make())
        let titles = [["c", "a", "b"], ["z", "x", "y"]]
        try stack.context.performAndWait {
            let playlists = titles.indices.map { ctxInsert("Playlist", into: stack.context, ["name": "List \($0)"]) }
            // Inserted in turns, so that the two playlists' songs alternate in the table.
            for position in titles[0].indices {
                for (playlist, names) in zip(playlists, titles) {
                    let song = ctxInsert("Song", into: stack.context, ["title": names[position]])
                    playlist.mutableOrderedSetValue(forKey: "songs").add(song)
                }
            }
            try stack.context.save()
        }
        let reopened = try stack.reopened()
        try reopened.context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Playlist")
            request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
            request.relationshipKeyPathsForPrefetching = ["songs"]
            let playlists = try reopened.context.fetch(request)
            var read: [[String]] = []
            let reading = try ctxStatements(in: reopened) {
                read = playlists.map { ctxObjects($0.value(forKey: "songs")).compactMap { $0.value(forKey: "title") as? String } }
            }
            #expect(read == titles)
            #expect(reading.isEmpty, "every playlist's songs were prefetched: \(reading)")
        }
    }

    @Test func firingAToManyFaultReadsTheDestinationsRowsInOneQuery() throws {
        let stack = try Self.stack(movies: 2, charactersEach: 5)
        try stack.context.performAndWait {
            let movie = try #require(try ctxFetch("Movie", in: stack.context, sortedBy: "year").first)
            var names: [String] = []
            let queries = try ctxStatements(in: stack) {
                let characters = movie.value(forKey: "characters") as? Set<NSManagedObject> ?? []
                names = characters.compactMap { $0.value(forKey: "name") as? String }
            }
            #expect(names.count == 5)
            #expect(queries.count == 1, "the destinations' rows through the foreign key: \(queries)")
        }
    }

    @Test func prefetchingAnUnknownKeyPathFailsNamingIt() throws {
        let stack = try Self.stack(movies: 1)
        let error = stack.context.performAndWait {
            ctxError {
                let request = NSFetchRequest<NSManagedObject>(entityName: "Movie")
                request.relationshipKeyPathsForPrefetching = ["characters.sidekick"]
                _ = try stack.context.fetch(request)
            }
        }
        #expect(error?.explanation.contains("characters.sidekick") == true)
        #expect(error?.explanation.contains("Movie") == true)
    }

    @Test func refetchedObjectsTakeTheStoresValuesWhenAsked() throws {
        let stack = try Self.stack(movies: 2)
        try stack.context.performAndWait {
            let movies = try ctxFetch("Movie", in: stack.context, sortedBy: "year")
            #expect(movies[0].value(forKey: "title") as? String == "Movie 0")
            movies[1].setValue(1, forKey: "rating")
            let other = stack.newContext()
            try other.performAndWait {
                for movie in try ctxFetch("Movie", in: other) { movie.setValue("Renamed", forKey: "title") }
                try other.save()
            }
            _ = try stack.context.fetch(Self.request(batchSize: 0))
            #expect(movies[0].value(forKey: "title") as? String == "Movie 0", "kept by default")
            let refreshing = Self.request(batchSize: 0)
            refreshing.shouldRefreshRefetchedObjects = true
            _ = try stack.context.fetch(refreshing)
            #expect(movies[0].value(forKey: "title") as? String == "Renamed")
            #expect(movies[1].value(forKey: "title") as? String == "Renamed")
            #expect(movies[1].value(forKey: "rating") as? Double == 1, "unsaved changes are kept")
        }
    }

    @Test func countingAWholeEntityIsSQLitesBareCount() throws {
        let stack = try Self.stack(movies: 3)
        try stack.context.performAndWait {
            var count = 0
            let queries = try ctxStatements(in: stack) { count = try stack.context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Movie")) }
            #expect(count == 3)
            #expect(queries == ["SELECT COUNT(*) FROM ZMOVIE t0"], "no WHERE clause, so that SQLite counts in one instruction")
            #expect(stack.context.registeredObjects.isEmpty)
        }
    }

    @Test func theSQLDebugSwitchReadsAppleLaunchArgumentOrTheEnvironment() {
        let argument = "-com.apple.CoreData.SQLDebug"
        #expect(DebugSwitch.level(launchArgument: argument, environment: "X", arguments: ["app", argument, "1"], environment: [:]) == 1)
        #expect(DebugSwitch.level(launchArgument: argument, environment: "X", arguments: ["app"], environment: ["X": "3"]) == 3)
        #expect(DebugSwitch.level(launchArgument: argument, environment: "X", arguments: ["app", argument], environment: [:]) == 0)
    }
}
