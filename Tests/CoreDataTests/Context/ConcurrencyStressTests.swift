import CoreData
import Testing

/// Real threads on one coordinator and one SQLite file: background contexts saving at the same
/// time, while other contexts read, fire faults and merge the saves. Each scenario checks an
/// invariant that a lost update, a torn read or a lost merge would break, and `.ci/run` also runs
/// this suite under ThreadSanitizer.
///
/// Every worker runs on its own private-queue context (each such queue gets a thread of its own);
/// a gate releases them together so that they really overlap. The waits are deterministic: a
/// worker's `perform` block signals a group when it is done, and merges are enqueued on the
/// merging context's queue before the saving context's `save()` returns, so a block enqueued on
/// that queue afterwards runs after every merge.
@Suite struct ConcurrencyStressTests {
    /// How long a group of workers may take before the test reports a probable deadlock instead
    /// of hanging CI. Not a performance bound: the workers need a few seconds in a debug build
    /// under ThreadSanitizer on two cores.
    private static let deadlockWatchdog: TimeInterval = 300

    /// At most this many problems are quoted in a failure message.
    private static let quotedProblems = 10

    // MARK: a. Concurrent inserts while a merging reader fetches

    @Test func concurrentInsertingSavesAllLandWhileAMergingReaderFetches() throws {
        let writers = 8, savesPerWriter = 5, insertsPerSave = 20
        let expectedCount = writers * savesPerWriter * insertsPerSave
        let stack = try CtxStack(model: MovieModel.make())
        let problems = CtxLog<String>()

        // The reader fetches in many short blocks so that the merges of the writers' saves,
        // queued on its queue, run between them.
        let reader = stack.newContext()
        reader.name = "reader"
        reader.automaticallyMergesChangesFromParent = true
        let writersDone = Latch()
        let readerDone = DispatchGroup()
        let lastCount = CtxLog<Int>()
        readerDone.enter()
        // A serial queue of its own gets a thread at once; a global queue's work may wait for
        // a free worker until the writers are done.
        DispatchQueue(label: "reader loop").async {
            var previous = 0
            while true {
                let finished = writersDone.isSet
                reader.performAndWait {
                    do {
                        let movies = try ctxFetch("Movie", in: reader)
                        // Saves are atomic and only insert, so a fetch sees whole saves, never fewer than before.
                        if movies.count < previous { problems.append("reader saw \(movies.count) movies after \(previous)") }
                        if movies.count % insertsPerSave != 0 { problems.append("reader saw \(movies.count) movies: part of a save") }
                        previous = movies.count
                        for movie in movies where (movie.value(forKey: "title") as? String)?.hasPrefix("w") != true {
                            problems.append("reader read \(movie.objectID) with title \(String(describing: movie.value(forKey: "title")))")
                        }
                    } catch {
                        problems.append("reader fetch failed: \(error)")
                    }
                }
                if finished { break }
            }
            lastCount.append(previous)
            readerDone.leave()
        }

        let contexts = (0..<writers).map { _ in stack.newContext() }
        try Self.runTogether(contexts, "the inserting writers") { writer, context in
            for save in 0..<savesPerWriter {
                for index in 0..<insertsPerSave {
                    ctxInsert("Movie", into: context, ["title": "w\(writer)-s\(save)-\(index)", "year": writer])
                }
                do {
                    try context.save()
                } catch {
                    problems.append("writer \(writer), save \(save): \(error)")
                }
            }
        }
        writersDone.set()
        try Self.wait(for: readerDone, "the reader")

        Self.expectNone(problems)
        #expect(lastCount.elements == [expectedCount], "the reader's last fetch, made after every save returned")
        let titles = try stack.context.performAndWait { () throws in
            try ctxFetch("Movie", in: stack.context).compactMap { $0.value(forKey: "title") as? String }
        }
        let expected = (0..<writers).flatMap { writer in
            (0..<savesPerWriter).flatMap { save in (0..<insertsPerSave).map { "w\(writer)-s\(save)-\($0)" } }
        }
        #expect(titles.count == expectedCount)
        #expect(Set(titles) == Set(expected), "missing: \(Set(expected).subtracting(titles).sorted().prefix(Self.quotedProblems))")
        #expect(try stack.storedCountAfterReopening("Movie") == expectedCount, "rows in the file, read by a new coordinator")
    }

    // MARK: b. No lost updates

    @Test func concurrentIncrementsWithTheErrorPolicyAndRetryLoseNoUpdate() throws {
        let workers = 8, incrementsPerWorker = 12
        let stack = try CtxStack(model: MovieModel.make())
        let counterID = try Self.seedCounter(in: stack)
        let problems = CtxLog<String>()
        let increments = CtxLog<Int>()
        let conflicts = CtxLog<Int>()

        let contexts = (0..<workers).map { _ in stack.newContext() }
        try Self.runTogether(contexts, "the incrementing workers") { worker, context in
            // The default error policy: a save that would overwrite another worker's increment
            // fails with 133020, and the worker reads the counter again and retries.
            guard (context.mergePolicy as? NSMergePolicy)?.mergeType == .errorMergePolicyType else {
                problems.append("worker \(worker): the default merge policy is not the error policy")
                return
            }
            guard let counter = try? context.existingObject(with: counterID) else {
                problems.append("worker \(worker) could not read the counter")
                return
            }
            for _ in 0..<incrementsPerWorker {
                var attempts = 0
                while true {
                    attempts += 1
                    // A refreshed object is a fault: the next read loads the row the store has now.
                    context.refresh(counter, mergeChanges: false)
                    let value = counter.value(forKey: "year") as? Int ?? -1_000
                    counter.setValue(value + 1, forKey: "year")
                    do {
                        try context.save()
                        increments.append(worker)
                        break
                    } catch let error as NSError where error.code == NSManagedObjectMergeError && attempts < 10_000 {
                        conflicts.append(worker)
                        context.rollback()
                    } catch {
                        problems.append("worker \(worker), attempt \(attempts): \(error)")
                        context.rollback()
                        return
                    }
                }
            }
        }

        Self.expectNone(problems)
        let total = workers * incrementsPerWorker
        #expect(increments.elements.count == total, "successful increments; \(conflicts.elements.count) conflicts were retried")
        let final = try Self.storedValue("year", of: counterID, in: stack) as? Int
        #expect(final == increments.elements.count,
                "the counter is \(String(describing: final)) after \(increments.elements.count) successful increments (\(conflicts.elements.count) conflicts retried): updates were lost")
    }

    /// Each worker owns one property of the same row and never re-reads the row: the property
    /// merge policies must keep every worker's property and take the others' from the store.
    @Test(arguments: [NSMergePolicyType.mergeByPropertyStoreTrumpMergePolicyType, .mergeByPropertyObjectTrumpMergePolicyType])
    func propertyMergePoliciesKeepEachWorkersOwnPropertyUnderConcurrentSaves(policy: NSMergePolicyType) throws {
        let rounds = 30
        let stack = try CtxStack(model: MovieModel.make())
        let counterID = try Self.seedCounter(in: stack)
        let problems = CtxLog<String>()
        let gaveUp = CtxLog<String>()
        let updates: [(key: String, value: @Sendable (Int) -> Any)] = [
            ("year", { $0 }),
            ("rating", { Double($0) }),
            ("title", { "round \($0)" }),
        ]

        let contexts = updates.map { _ in stack.newContext() }
        try Self.runTogether(contexts, "the property writers") { worker, context in
            context.mergePolicy = NSMergePolicy(merge: policy)
            guard let row = try? context.existingObject(with: counterID) else {
                problems.append("worker \(worker) could not read the row")
                return
            }
            for round in 1...rounds {
                row.setValue(updates[worker].value(round), forKey: updates[worker].key)
                // A failed save keeps the context's changes, so saving again retries them.
                for attempt in 1... {
                    do {
                        try context.save()
                        break
                    } catch let error as NSError where error.code == NSManagedObjectMergeError && attempt < 1_000 {
                        gaveUp.append("\(updates[worker].key) writer, round \(round), attempt \(attempt)")
                    } catch {
                        problems.append("\(updates[worker].key) writer, round \(round): \(error)")
                        break
                    }
                }
            }
        }

        Self.expectNone(problems)
        #expect(try Self.storedValue("year", of: counterID, in: stack) as? Int == rounds)
        #expect(try Self.storedValue("rating", of: counterID, in: stack) as? Double == Double(rounds))
        #expect(try Self.storedValue("title", of: counterID, in: stack) as? String == "round \(rounds)")
        // As with Apple's Core Data, a save under a merge policy other than the error policy
        // does not fail with 133020 because siblings keep saving: the stores stay locked from
        // the conflict check to the commit.
        #expect(gaveUp.elements.isEmpty, "\(gaveUp.elements.count) saves failed with 133020 despite the merge policy: \(gaveUp.elements.prefix(Self.quotedProblems))")
    }

    // MARK: c. A view context merging while writers save

    /// Tests do not run on the main thread, but the main queue is served while they run, so the
    /// main-queue case has its merges delivered by `DispatchQueue.main` like an app's view context.
    @Test(arguments: [NSManagedObjectContextConcurrencyType.privateQueueConcurrencyType, .mainQueueConcurrencyType])
    func aMergingViewContextEndsWithTheWritersFinalValues(viewType: NSManagedObjectContextConcurrencyType) async throws {
        let writers = 4, rowsPerWriter = 10, rounds = 8
        let stack = try CtxStack(model: MovieModel.make())
        let rowIDs = try stack.context.performAndWait { () throws -> [NSManagedObjectID] in
            let movies = (0..<writers * rowsPerWriter).map { ctxInsert("Movie", into: stack.context, ["title": "m\($0)", "year": 0, "rating": 0.0]) }
            try stack.context.save()
            return movies.map(\.objectID)
        }

        let view = NSManagedObjectContext(concurrencyType: viewType)
        view.persistentStoreCoordinator = stack.coordinator
        view.name = "view"
        view.automaticallyMergesChangesFromParent = true
        let changes = CtxNotificationRecorder(.NSManagedObjectContextObjectsDidChange, object: view)
        defer { changes.stop() }
        // The view holds its objects, materialized, the way a UI would; only its queue touches them.
        let held = Confined<[NSManagedObject]>([])
        try await view.perform(schedule: .enqueued) {
            held.value = try rowIDs.map { try view.existingObject(with: $0) }
            held.value.forEach { _ = $0.value(forKey: "rating") }
            // An unsaved change of the view's own, which the merges must keep.
            held.value[0].setValue("edited in the view", forKey: "title")
        }

        // Writer w updates rows w*rowsPerWriter..<(w+1)*rowsPerWriter each round, inserts a movie
        // each round, and deletes its last row in the last round.
        let inserted = CtxLog<NSManagedObjectID>()
        let problems = CtxLog<String>()
        let contexts = (0..<writers).map { _ in stack.newContext() }
        try Self.runTogether(contexts, "the writers") { writer, context in
            do {
                let rows = try rowIDs[writer * rowsPerWriter..<(writer + 1) * rowsPerWriter].map { try context.existingObject(with: $0) }
                for round in 1...rounds {
                    for row in rows {
                        row.setValue(round, forKey: "year")
                        row.setValue(Double(round), forKey: "rating")
                    }
                    let movie = ctxInsert("Movie", into: context, ["title": "new w\(writer) r\(round)"])
                    if round == rounds { context.delete(rows[rows.count - 1]) }
                    try context.save()
                    inserted.append(movie.objectID)
                }
            } catch {
                problems.append("writer \(writer): \(error)")
            }
        }
        Self.expectNone(problems)

        // Every writer's save has returned, so every merge is already queued on the view's queue;
        // an enqueued block runs after them.
        let deletedIDs = Set((0..<writers).map { rowIDs[($0 + 1) * rowsPerWriter - 1] })
        let outcome = await view.perform(schedule: .enqueued) { () -> [String] in
            var problems: [String] = []
            for (index, movie) in held.value.enumerated() {
                if deletedIDs.contains(rowIDs[index]) {
                    if !movie.isDeleted { problems.append("m\(index), deleted by its writer, is not deleted in the view") }
                    continue
                }
                let title = index == 0 ? "edited in the view" : "m\(index)"
                let values = (movie.value(forKey: "title") as? String, movie.value(forKey: "year") as? Int, movie.value(forKey: "rating") as? Double)
                if values.0 != title || values.1 != rounds || values.2 != Double(rounds) {
                    problems.append("m\(index) in the view: \(values), expected (\(title), \(rounds), \(Double(rounds)))")
                }
            }
            if !(held.value[0].hasChanges) { problems.append("the view lost its unsaved change") }
            let notifications = changes.notifications
            let reportedInserts = Set(notifications.flatMap { ctxObjectIDs(in: $0, key: NSInsertedObjectsKey) + ctxObjects(in: $0, key: NSInsertedObjectsKey).map(\.objectID) })
            let missedInserts = Set(inserted.elements).subtracting(reportedInserts)
            if !missedInserts.isEmpty { problems.append("\(missedInserts.count) inserted movies were never reported to the view") }
            let reportedDeletes = Set(notifications.flatMap { ctxObjects(in: $0, key: NSDeletedObjectsKey).map(\.objectID) })
            if reportedDeletes != deletedIDs { problems.append("deletes reported to the view: \(reportedDeletes.count), expected \(deletedIDs.count)") }
            return problems
        }
        #expect(outcome.isEmpty, "\(outcome.prefix(Self.quotedProblems).joined(separator: "\n"))")
    }

    // MARK: d. Many readers firing faults while one context writes

    @Test func manyReadersFiringFaultsSeeWholeAndNeverOlderRowsWhileOneContextWrites() throws {
        let rows = 60, rounds = 20, readers = 6
        let stack = try CtxStack(model: MovieModel.make())
        try stack.context.performAndWait {
            for index in 0..<rows {
                let movie = ctxInsert("Movie", into: stack.context, ["title": "m\(index)", "year": 0, "rating": 0.0])
                for role in 0..<2 {
                    ctxInsert("Character", into: stack.context, ["name": "m\(index)-c\(role)", "movie": movie])
                }
            }
            try stack.context.save()
        }
        let problems = CtxLog<String>()
        let writerDone = Latch()

        // Context 0 writes: each save moves every movie's year and rating to the round number.
        // The other contexts read until the writer is done, then once more.
        let contexts = (0...readers).map { _ in stack.newContext() }
        try Self.runTogether(contexts, "the writer and the readers") { index, context in
            if index == 0 {
                defer { writerDone.set() }
                do {
                    let movies = try ctxFetch("Movie", in: context)
                    for round in 1...rounds {
                        for movie in movies {
                            movie.setValue(round, forKey: "year")
                            movie.setValue(Double(round), forKey: "rating")
                        }
                        try context.save()
                    }
                } catch {
                    problems.append("writer: \(error)")
                }
                return
            }
            var seen: [String: Int] = [:]
            var round = 0
            while true {
                let finished = writerDone.isSet
                round += 1
                // Refreshing turns the registered objects back into faults, so that this round's
                // reads go to the store; every other round fetches bare faults.
                context.refreshAllObjects()
                let request = NSFetchRequest<NSManagedObject>(entityName: "Movie")
                request.includesPropertyValues = round % 2 == 0
                do {
                    let movies = try context.fetch(request)
                    if movies.count != rows { problems.append("reader \(index), round \(round): \(movies.count) movies") }
                    for movie in movies {
                        let title = movie.value(forKey: "title") as? String ?? "nil"
                        let year = movie.value(forKey: "year") as? Int ?? -1
                        let rating = movie.value(forKey: "rating") as? Double ?? -1
                        // Both values come from one save, so a row read whole has them equal.
                        if Double(year) != rating { problems.append("reader \(index), round \(round), \(title): year \(year), rating \(rating)") }
                        if year < seen[title, default: 0] { problems.append("reader \(index), round \(round), \(title): year \(year) after \(seen[title, default: 0])") }
                        if finished && year != rounds { problems.append("reader \(index), after the writer, \(title): year \(year)") }
                        seen[title] = year
                        let names = ctxObjects(movie.value(forKey: "characters")).compactMap { $0.value(forKey: "name") as? String }
                        if names.sorted() != ["\(title)-c0", "\(title)-c1"] { problems.append("reader \(index), round \(round), \(title): characters \(names)") }
                    }
                } catch {
                    problems.append("reader \(index), round \(round): \(error)")
                }
                if finished { break }
            }
        }
        Self.expectNone(problems)
    }

    // MARK: Support

    /// Runs `work(index, context)` for every context on that context's queue, releasing them
    /// together, and returns when all are done.
    private static func runTogether(_ contexts: [NSManagedObjectContext], _ what: String,
                                    _ work: @escaping @Sendable (Int, NSManagedObjectContext) -> Void) throws {
        let gate = DispatchGroup()
        gate.enter()
        let finished = DispatchGroup()
        for (index, context) in contexts.enumerated() {
            finished.enter()
            context.perform {
                gate.wait()
                work(index, context)
                finished.leave()
            }
        }
        gate.leave()
        try wait(for: finished, what)
    }

    private static func wait(for group: DispatchGroup, _ what: String) throws {
        let outcome = group.wait(timeout: .now() + deadlockWatchdog)
        try #require(outcome == .success, "\(what) did not finish within \(Int(deadlockWatchdog)) s: probably a deadlock")
    }

    /// Fails with the first problems the workers recorded, if any.
    private static func expectNone(_ problems: CtxLog<String>, sourceLocation: SourceLocation = #_sourceLocation) {
        let list = problems.elements
        #expect(list.isEmpty, "\(list.count) problems:\n\(list.prefix(quotedProblems).joined(separator: "\n"))", sourceLocation: sourceLocation)
    }

    /// A saved movie whose year, starting at 0, the workers change.
    private static func seedCounter(in stack: CtxStack) throws -> NSManagedObjectID {
        try stack.context.performAndWait { () throws in
            let movie = ctxInsert("Movie", into: stack.context, ["title": "counter", "year": 0, "rating": 0.0])
            try stack.context.save()
            return movie.objectID
        }
    }

    /// A value of a row as the store has it, read by a new context.
    private static func storedValue(_ key: String, of objectID: NSManagedObjectID, in stack: CtxStack) throws -> Any? {
        let reader = stack.newContext()
        return try reader.performAndWait { () throws in try reader.existingObject(with: objectID).value(forKey: key) }
    }
}

/// A flag set once by one thread and read by others.
private final class Latch: @unchecked Sendable {
    private let lock = NSLock()
    private var flag = false

    var isSet: Bool {
        lock.withLock { flag }
    }

    func set() {
        lock.withLock { flag = true }
    }
}

/// A value that only one context's queue touches, handed to that queue's blocks.
private final class Confined<Value>: @unchecked Sendable {
    var value: Value

    init(_ value: Value) {
        self.value = value
    }
}
