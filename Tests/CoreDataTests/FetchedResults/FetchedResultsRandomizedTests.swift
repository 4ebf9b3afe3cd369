import Foundation
@testable import CoreData
import Testing

/// The proof that a fetched results controller's callbacks keep a table view right: thousands of
/// seeded random rounds of inserts, deletes, sort-key changes, section-key changes, changes to
/// the owners a list may be sectioned by (`owner.name`) and unrelated changes, made in the
/// controller's context or saved by a background context and merged (at once, or late: after
/// further saves, after the controller fetched again, after changes of its own), each followed by
/// a check that the table simulated with UIKit's batch rules (`TableViewSimulator`) equals a
/// fresh fetch, and that the controller's own sections and index paths do too. Every update must
/// be a change of the object itself, or change what its cell shows.
///
/// A failure names its configuration, seed and round and lists the round's changes and the last
/// batch of callbacks. Set `FRC_RANDOM_SEED` to replay a seed (the changes are the same; the order
/// of callbacks within a batch can differ, as Swift seeds its sets' hashing per process), and
/// `FRC_TRACE` to a configuration's description to print all of its rounds.
@Suite struct FetchedResultsRandomizedTests {
    static let roundsPerConfiguration = 250

    @Test(arguments: RandomizedTrackingConfiguration.all)
    func theSimulatedTableEqualsAFreshFetchAfterEveryRound(_ configuration: RandomizedTrackingConfiguration) throws {
        let seed = ProcessInfo.processInfo.environment["FRC_RANDOM_SEED"].flatMap { UInt64($0) } ?? configuration.defaultSeed
        let run = try RandomizedTrackingRun(configuration, seed: seed)
        let tracing = ProcessInfo.processInfo.environment["FRC_TRACE"] == configuration.testDescription
        for round in 1...Self.roundsPerConfiguration {
            let problems: [String]
            do {
                problems = try run.playRound(checkingIndexPaths: round % 3 == 0)
            } catch {
                problems = ["the round threw \(error)"]
            }
            let batches = run.table.takeBatchLogs().map { $0.joined(separator: "\n") }.joined(separator: "\n--\n")
            if tracing {
                print("round \(round):\n\(run.journal.joined(separator: "\n"))\ncallbacks:\n\(batches)\n")
            }
            guard problems.isEmpty else {
                Issue.record("""
                    \(configuration.testDescription), seed \(seed) (FRC_RANDOM_SEED=\(seed) replays it), round \(round):
                    \(problems.joined(separator: "\n"))
                    The round's changes:
                    \(run.journal.joined(separator: "\n"))
                    The round's batches of callbacks:
                    \(batches)
                    """)
                return
            }
        }
        // The rounds must have exercised every kind of change.
        #expect(run.table.batchCount > Self.roundsPerConfiguration / 2, "most rounds change the results")
        for type in [NSFetchedResultsChangeType.insert, .delete, .move, .update] {
            #expect(run.table.objectChangeCounts[type, default: 0] > 10, "object changes of type \(type): \(run.table.objectChangeCounts)")
        }
        if configuration.sections != .none {
            for type in [NSFetchedResultsChangeType.insert, .delete] {
                #expect(run.table.sectionChangeCounts[type, default: 0] > 0, "section changes of type \(type): \(run.table.sectionChangeCounts)")
            }
        }
    }
}

/// How the randomized rounds set up their controller.
struct RandomizedTrackingConfiguration: Sendable, CustomTestStringConvertible {
    enum Merge: Sendable {
        /// The test calls `mergeChanges(fromContextDidSave:)` on the controller's context's queue.
        case explicit
        /// The controller's context has `automaticallyMergesChangesFromParent` set.
        case automatic
    }

    /// What divides the results into sections: nothing, the item's `group`, or its owner's name.
    enum Sections: Sendable {
        case none, group, ownerName

        var keyPath: String? {
            switch self {
            case .none: nil
            case .group: "group"
            case .ownerName: "owner.name"
            }
        }
    }

    let sections: Sections
    /// The request's `fetchBatchSize` (0 for none).
    let batchSize: Int
    /// Whether the request has the predicate `score >= 3`, which changes move objects across.
    let filtered: Bool
    let merge: Merge
    let defaultSeed: UInt64

    var testDescription: String {
        [sections.keyPath.map { "sections by \($0)" } ?? "no sections", batchSize > 0 ? "fetchBatchSize \(batchSize)" : "no batch size",
         filtered ? "score >= 3" : "no predicate", merge == .explicit ? "mergeChanges(fromContextDidSave:)" : "automaticallyMergesChangesFromParent"]
            .joined(separator: ", ")
    }

    /// Every sectioning with and without a batch size and a predicate; each of these merges one
    /// way, so that every sectioning meets both ways, with and without either (pairs, not the
    /// whole product, which would take twice the time for little more).
    static let all: [RandomizedTrackingConfiguration] = {
        var configurations: [RandomizedTrackingConfiguration] = []
        for sections in [Sections.none, .group, .ownerName] {
            for batchSize in [0, 7] {
                for filtered in [false, true] {
                    let merge: Merge = (batchSize > 0) == filtered ? .explicit : .automatic
                    let seed = 0x5EED_F2C0 + UInt64(configurations.count)
                    configurations.append(.init(sections: sections, batchSize: batchSize, filtered: filtered, merge: merge, defaultSeed: seed))
                }
            }
        }
        return configurations
    }()

    /// The controller's request: unsectioned by score then serial, sectioned by the section key
    /// path, score (descending, for variety) then serial. `serial` is unique, so a fetch's order
    /// is certain.
    func request(batchSize: Int? = nil) -> NSFetchRequest<NSManagedObject> {
        let request = NSFetchRequest<NSManagedObject>(entityName: "RankedItem")
        request.sortDescriptors = sections.keyPath.map {
            [NSSortDescriptor(key: $0, ascending: true), NSSortDescriptor(key: "score", ascending: false), NSSortDescriptor(key: "serial", ascending: true)]
        } ?? [NSSortDescriptor(key: "score", ascending: true), NSSortDescriptor(key: "serial", ascending: true)]
        if filtered { request.predicate = NSPredicate(format: "score >= 3") }
        request.fetchBatchSize = batchSize ?? self.batchSize
        return request
    }

    /// What a cell shows for an item: with its owner's name when the owner names its section.
    var render: @Sendable (NSManagedObject) -> String {
        if case .ownerName = sections { return { RankedItemModel.renderWithOwner($0) } }
        return { RankedItemModel.render($0) }
    }

    /// Objects in the request's order by the values the context holds, which a store sorts by
    /// its own values (an owner renamed and not saved yet).
    func sortedAsHeld(_ objects: [NSManagedObject]) -> [NSManagedObject] {
        func key(_ object: NSManagedObject) -> (section: String, score: Int16, serial: Int64) {
            (sections.keyPath.flatMap { object.value(forKeyPath: $0) as? String } ?? "",
             object.value(forKey: "score") as? Int16 ?? -1, object.value(forKey: "serial") as? Int64 ?? -1)
        }
        return objects.map { ($0, key($0)) }.sorted { lhs, rhs in
            if lhs.1.section != rhs.1.section { return lhs.1.section < rhs.1.section }
            if lhs.1.score != rhs.1.score { return sections == .none ? lhs.1.score < rhs.1.score : lhs.1.score > rhs.1.score }
            return lhs.1.serial < rhs.1.serial
        }.map(\.0)
    }

    /// The section names objects may have.
    func isValidSectionName(_ name: String) -> Bool {
        switch sections {
        case .none: name.isEmpty
        case .group: RankedItemModel.groups.contains(name)
        case .ownerName: RankedItemModel.ownerNames.contains(name)
        }
    }
}

/// SplitMix64: a small generator whose sequence is fixed by its seed.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}

/// One configuration's store, controller and simulated table, and the rounds played on them.
final class RandomizedTrackingRun {
    private enum Change: CaseIterable {
        case insert, delete, changeScore, changeGroup, changeNote, setSameScore, changeOwner, renameOwner, touchLabel
    }

    let configuration: RandomizedTrackingConfiguration
    /// Deletes the store when the run ends.
    private let directory: CtxTemporaryDirectory
    private let coordinator: NSPersistentStoreCoordinator
    /// The controller's context.
    private let context: NSManagedObjectContext
    /// A context that only reads, to tell whether an object's row is still stored.
    private let checker: NSManagedObjectContext
    private let controller: NSFetchedResultsController<NSManagedObject>
    let table: TableViewSimulator
    /// The objects the controller's context listed as changed during the current round, with
    /// their entity's name.
    private let listed = CtxLog<(object: ObjectIdentifier, entity: String)>()
    private var listedObserver: (any NSObjectProtocol)?
    private var generator: SeededGenerator
    private var nextSerial: Int64 = 1
    /// The number of items the rounds steer towards. It goes down to none and back up to 40
    /// every 80 rounds, so that runs see empty results, sections that come and go, and long
    /// sections.
    private var targetCount = 0
    private var roundsPlayed = 0
    /// The changes of the current round, for a failure's message.
    private(set) var journal: [String] = []

    init(_ configuration: RandomizedTrackingConfiguration, seed: UInt64) throws {
        self.configuration = configuration
        generator = SeededGenerator(seed: seed)
        // An SQLite store, where fetchBatchSize fetches IDs and then rows in batches; without
        // syncing to disk at each save, which only costs time here.
        directory = try CtxTemporaryDirectory()
        coordinator = NSPersistentStoreCoordinator(managedObjectModel: RankedItemModel.make())
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: directory.url.appendingPathComponent("Ranked.sqlite"),
                                           options: [NSSQLitePragmasOption: ["synchronous": "OFF"]])
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        self.context = context
        let checker = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        checker.persistentStoreCoordinator = coordinator
        self.checker = checker
        table = TableViewSimulator(render: configuration.render, sectionNameIsValid: configuration.isValidSectionName) { object in
            let objectID = object.objectID
            guard !objectID.isTemporaryID else { return false }
            return checker.performAndWait { (try? checker.existingObject(with: objectID)) == nil }
        }
        controller = NSFetchedResultsController(fetchRequest: configuration.request(), managedObjectContext: context,
                                                sectionNameKeyPath: configuration.sections.keyPath, cacheName: nil)
        // Unsaved changes of this context meet merged saves of background contexts: this context's
        // values win at its next save, as in an app that edits while it imports.
        context.mergePolicy = NSMergeByPropertyObjectTrumpMergePolicy
        context.automaticallyMergesChangesFromParent = configuration.merge == .automatic
        let listed = self.listed
        listedObserver = NotificationCenter.default.addObserver(forName: .NSManagedObjectContextObjectsDidChange, object: context, queue: nil) { notification in
            for key in [NSInsertedObjectsKey, NSUpdatedObjectsKey, NSRefreshedObjectsKey, NSDeletedObjectsKey, NSInvalidatedObjectsKey] {
                for object in ctxObjects(in: notification, key: key) { listed.append((ObjectIdentifier(object), object.entity.name ?? "")) }
            }
        }
        try context.performAndWait {
            for name in RankedItemModel.ownerNames.dropLast() { ctxInsert("Owner", into: context, ["name": name]) }
            var owners = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Owner"))
            owners.sort { ($0.value(forKey: "name") as? String ?? "") < ($1.value(forKey: "name") as? String ?? "") }
            for _ in 0..<24 { insertItem(into: context, owners: owners) }
            try context.save()
            controller.delegate = table
            try controller.performFetch()
            table.reloadData(from: controller)
        }
        journal = []
    }

    deinit {
        if let listedObserver { NotificationCenter.default.removeObserver(listedObserver) }
    }

    /// Makes one round of changes, in the controller's context or in a background context, and
    /// returns what disagrees afterwards (nothing when the table and controller are right).
    ///
    /// - Parameter checkingIndexPaths: Whether to check `indexPath(forObject:)` for every object
    ///   and a new controller's `performFetch()` too (slow in debug builds, so not every round).
    func playRound(checkingIndexPaths: Bool) throws -> [String] {
        journal = []
        listed.removeAll()
        let batchesBefore = table.batchCount
        roundsPlayed += 1
        let phase = (roundsPlayed + 16) % 80
        targetCount = phase < 40 ? 40 - phase : phase - 40
        // A few rounds change only objects the controller does not fetch. They must not make the
        // controller call its delegate, unless the context lists objects that lead to the results
        // too (a merge keeps unsaved changes by setting them again, a save that resolves a
        // conflict sets values again, and the context reports those at its next event).
        let onlyUnrelated = Int.random(in: 0..<100, using: &generator) < 6
        switch Int.random(in: 0..<10, using: &generator) {
        case 0..<4:
            try context.performAndWait { try changeInControllerContext(onlyUnrelated: onlyUnrelated, processing: true) }
        case 4..<6:
            try changeInBackgroundAndMerge(onlyUnrelated: onlyUnrelated)
        case 6..<8:
            try changeInBackgroundAndMergeLate(onlyUnrelated: onlyUnrelated)
        default:
            // The merge comes while the context has changes it has not processed yet.
            try context.performAndWait { try changeInControllerContext(onlyUnrelated: onlyUnrelated, processing: false) }
            try changeInBackgroundAndMerge(onlyUnrelated: onlyUnrelated)
            journal.append("processPendingChanges()")
            context.performAndWait { context.processPendingChanges() }
        }
        var problems = table.takeProblems()
        let followedEntities: Set<String> = configuration.sections == .ownerName ? ["RankedItem", "Owner"] : ["RankedItem"]
        if onlyUnrelated, !listed.elements.contains(where: { followedEntities.contains($0.entity) }), table.batchCount != batchesBefore {
            problems.append("changes to other entities only, yet the controller reported a batch (FRC-28)")
        }
        let listedObjects = Set(listed.elements.map(\.object))
        for object in table.takeUnchangedUpdates() where !listedObjects.contains(ObjectIdentifier(object)) {
            let text = context.performAndWait { configuration.render(object) }
            problems.append("update of [\(text)], which did not change and whose cell shows the same: only objects related to it changed")
        }
        return problems + (try problemsAgainstFreshFetch(checkingIndexPaths: checkingIndexPaths))
    }

    // MARK: Changes

    /// Changes items in the controller's context (call it on the context's queue); then, when
    /// `processing`, processes the changes or saves (which processes them too).
    private func changeInControllerContext(onlyUnrelated: Bool, processing: Bool) throws {
        makeChanges(onlyUnrelated: onlyUnrelated, in: context)
        guard processing else {
            journal.append("changes left pending")
            return
        }
        switch Int.random(in: 0..<10, using: &generator) {
        case 0..<6:
            journal.append("processPendingChanges()")
            context.processPendingChanges()
        case 6..<9:
            journal.append("save()")
            try context.save()
        default:
            journal.append("processPendingChanges(), save()")
            context.processPendingChanges()
            try context.save()
        }
    }

    /// Changes items in a new background context and saves it; returns its did-save notification.
    private func saveInBackground(onlyUnrelated: Bool, insertsAndDeletesOnly: Bool = false) throws -> Notification? {
        let background = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        background.persistentStoreCoordinator = coordinator
        let saves = CtxLog<Notification>()
        try background.performAndWait {
            makeChanges(onlyUnrelated: onlyUnrelated, insertsAndDeletesOnly: insertsAndDeletesOnly, in: background)
            let observer = NotificationCenter.default.addObserver(forName: .NSManagedObjectContextDidSave, object: background, queue: nil) {
                saves.append($0)
            }
            defer { NotificationCenter.default.removeObserver(observer) }
            try background.save()
        }
        return saves.elements.first
    }

    private func changeInBackgroundAndMerge(onlyUnrelated: Bool) throws {
        let saved = try saveInBackground(onlyUnrelated: onlyUnrelated)
        switch configuration.merge {
        case .automatic:
            journal.append("background save(), merged automatically")
            // The save queued the merge on the context's queue: this block runs after it.
            context.performAndWait {}
        case .explicit:
            journal.append("background save(), mergeChanges(fromContextDidSave:)")
            guard let saved else { return }
            context.performAndWait { context.mergeChanges(fromContextDidSave: saved) }
        }
    }

    /// Saves one to three times in background contexts while the controller's context is busy,
    /// which meanwhile fetches again or makes changes of its own; the merges arrive afterwards,
    /// in order, for rows the context may already have read.
    ///
    /// Before a fetch, the saves only insert and delete items: a fetch finds the objects a
    /// context holds with the values it holds, so that objects another context changed and this
    /// one has not merged yet would be sorted by their new values and sectioned by their old
    /// ones (Apple's controller, too, then finds its sections out of order).
    private func changeInBackgroundAndMergeLate(onlyUnrelated: Bool) throws {
        try context.performAndWait {
            let meanwhile = Int.random(in: 0..<3, using: &generator)
            var saves: [Notification] = []
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                journal.append("background save(), merged later")
                if let saved = try saveInBackground(onlyUnrelated: onlyUnrelated, insertsAndDeletesOnly: meanwhile == 0) { saves.append(saved) }
            }
            switch meanwhile {
            case 0:
                journal.append("performFetch(), reloadData()")
                try controller.performFetch()
                table.reloadData(from: controller)
            case 1:
                try changeInControllerContext(onlyUnrelated: onlyUnrelated, processing: true)
            default:
                break
            }
            guard configuration.merge == .explicit else {
                journal.append("the merges arrive")
                return
            }
            journal.append("mergeChanges(fromContextDidSave:) of each")
            for saved in saves { context.mergeChanges(fromContextDidSave: saved) }
        }
        // Automatic merges were queued behind the block above: this one runs after them.
        context.performAndWait {}
    }

    /// One to six random changes in a context.
    private func makeChanges(onlyUnrelated: Bool, insertsAndDeletesOnly: Bool = false, in context: NSManagedObjectContext) {
        var items = (try? context.fetch(NSFetchRequest<NSManagedObject>(entityName: "RankedItem"))) ?? []
        let owners = (try? context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Owner"))) ?? []
        for _ in 0..<Int.random(in: 1...6, using: &generator) {
            let change = onlyUnrelated ? .touchLabel : randomChange(count: items.count, insertsAndDeletesOnly: insertsAndDeletesOnly)
            make(change, to: &items, owners: owners, in: context)
        }
    }

    /// A change, more often an insert when there are fewer items than the target, a delete when
    /// there are more.
    private func randomChange(count: Int, insertsAndDeletesOnly: Bool) -> Change {
        let weights: [(Change, Int)] = insertsAndDeletesOnly ? [(.insert, count < targetCount ? 35 : 10), (.delete, count > targetCount ? 35 : 10)] : [
            (.insert, count < targetCount ? 35 : 10), (.delete, count > targetCount ? 35 : 10), (.changeScore, 25), (.changeGroup, 15),
            (.changeNote, 15), (.setSameScore, 4), (.changeOwner, 8), (.renameOwner, 5), (.touchLabel, 6),
        ]
        var pick = Int.random(in: 0..<weights.reduce(0) { $0 + $1.1 }, using: &generator)
        for (change, weight) in weights {
            if pick < weight { return change }
            pick -= weight
        }
        return .changeNote
    }

    /// Makes a change to a random item, owner or label, and keeps `items` the list of live items.
    private func make(_ change: Change, to items: inout [NSManagedObject], owners: [NSManagedObject], in context: NSManagedObjectContext) {
        let place = context === self.context ? "here" : "background"
        let render = configuration.render
        let needsItem = ![.insert, .touchLabel, .renameOwner].contains(change)
        guard !needsItem || !items.isEmpty else {
            items.append(insertItem(into: context, owners: owners))
            journal.append("\(place): insert \(render(items[items.count - 1]))")
            return
        }
        switch change {
        case .insert:
            items.append(insertItem(into: context, owners: owners))
            journal.append("\(place): insert \(render(items[items.count - 1]))")
        case .delete:
            let item = items.remove(at: items.indices.randomElement(using: &generator)!)
            journal.append("\(place): delete \(render(item))")
            context.delete(item)
        case .changeScore:
            let item = items.randomElement(using: &generator)!
            let score = Int16.random(in: RankedItemModel.scores, using: &generator)
            journal.append("\(place): score of \(render(item)) to \(score)")
            item.setValue(score, forKey: "score")
        case .changeGroup:
            let item = items.randomElement(using: &generator)!
            let group = RankedItemModel.groups.randomElement(using: &generator)!
            journal.append("\(place): group of \(render(item)) to \(group)")
            item.setValue(group, forKey: "group")
        case .changeNote:
            let item = items.randomElement(using: &generator)!
            let note = "n\(Int.random(in: 0..<100, using: &generator))"
            journal.append("\(place): note of \(render(item)) to \(note)")
            item.setValue(note, forKey: "note")
        case .setSameScore:
            let item = items.randomElement(using: &generator)!
            journal.append("\(place): score of \(render(item)) set to the same value")
            item.setValue(item.value(forKey: "score"), forKey: "score")
        case .changeOwner:
            let item = items.randomElement(using: &generator)!
            let owner = owners.randomElement(using: &generator)!
            journal.append("\(place): owner of \(render(item)) to \(owner.value(forKey: "name") as? String ?? "-")")
            item.setValue(owner, forKey: "owner")
        case .renameOwner:
            let owner = owners.randomElement(using: &generator)!
            let name = RankedItemModel.ownerNames.randomElement(using: &generator)!
            journal.append("\(place): owner \(owner.value(forKey: "name") as? String ?? "-") renamed \(name)")
            owner.setValue(name, forKey: "name")
        case .touchLabel:
            if Bool.random(using: &generator) {
                journal.append("\(place): insert a Label")
                ctxInsert("Label", into: context, ["text": "new"])
            } else {
                let request = NSFetchRequest<NSManagedObject>(entityName: "Label")
                request.fetchLimit = 3
                let labels = (try? context.fetch(request)) ?? []
                journal.append("\(place): change \(labels.count) Labels")
                for label in labels { label.setValue("changed \(Int.random(in: 0..<100, using: &generator))", forKey: "text") }
            }
        }
    }

    @discardableResult
    private func insertItem(into context: NSManagedObjectContext, owners: [NSManagedObject]) -> NSManagedObject {
        defer { nextSerial += 1 }
        return ctxInsert("RankedItem", into: context, [
            "serial": nextSerial,
            "score": Int16.random(in: RankedItemModel.scores, using: &generator),
            "group": RankedItemModel.groups.randomElement(using: &generator)!,
            "note": "n\(Int.random(in: 0..<100, using: &generator))",
            "owner": owners.randomElement(using: &generator)!,
        ])
    }

    // MARK: Checks

    /// What the table, the controller and a new controller get wrong, compared with a fetch of
    /// the same request made now in the controller's context.
    private func problemsAgainstFreshFetch(checkingIndexPaths: Bool) throws -> [String] {
        try context.performAndWait {
            var problems: [String] = []
            let expected = sections(of: configuration.sortedAsHeld(try context.fetch(configuration.request(batchSize: 0))))
            let render = configuration.render
            func text(_ sections: [(name: String, objects: [NSManagedObject])]) -> String {
                sections.map { "'\($0.name)': " + $0.objects.map(render).joined(separator: ", ") }.joined(separator: "\n  ")
            }
            var expectedText: String { text(expected) }

            // The table: the same objects in the same sections, each cell showing current values.
            let shown = table.rows
            let tableAgrees = shown.count == expected.count && zip(shown, expected).allSatisfy { shownSection, expectedSection in
                shownSection.name == expectedSection.name && shownSection.cells.count == expectedSection.objects.count
                    && zip(shownSection.cells, expectedSection.objects).allSatisfy { $0.object === $1 && $0.content == render($1) }
            }
            if !tableAgrees {
                let tableText = shown.map { "'\($0.name)': " + $0.cells.map(\.content).joined(separator: ", ") }.joined(separator: "\n  ")
                problems.append("the simulated table differs from a fresh fetch\n table:\n  \(tableText)\n fetch:\n  \(expectedText)")
            }

            // The controller's sections, fetched objects and index paths.
            let controllerSections = (controller.sections ?? []).map { ($0.name, ($0.objects ?? []).compactMap { $0 as? NSManagedObject }) }
            if !Self.same(controllerSections, expected) {
                problems.append("the controller's sections differ from a fresh fetch\n controller:\n  \(text(controllerSections))\n fetch:\n  \(expectedText)")
            }
            let flat = expected.flatMap(\.objects)
            let fetchedObjects = controller.fetchedObjects ?? []
            if fetchedObjects.count != flat.count || !zip(fetchedObjects, flat).allSatisfy(===) {
                problems.append("the controller's fetchedObjects differ from a fresh fetch")
            }
            guard checkingIndexPaths else { return problems }
            for (sectionIndex, section) in expected.enumerated() {
                for (row, object) in section.objects.enumerated() where controller.indexPath(forObject: object) != IndexPath(row: row, section: sectionIndex) {
                    problems.append("indexPath(forObject: \(render(object))) is \(controller.indexPath(forObject: object).map { "\($0)" } ?? "nil"), not [\(sectionIndex), \(row)]")
                }
            }
            if configuration.filtered {
                let included = Set(flat.map(ObjectIdentifier.init))
                for object in try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "RankedItem")) where !included.contains(ObjectIdentifier(object)) {
                    if let path = controller.indexPath(forObject: object) {
                        problems.append("indexPath(forObject: \(render(object))) is \(path) for an object outside the results")
                    }
                }
            }

            // A new controller's first fetch.
            let fresh = NSFetchedResultsController(fetchRequest: configuration.request(), managedObjectContext: context,
                                                   sectionNameKeyPath: configuration.sections.keyPath, cacheName: nil)
            try fresh.performFetch()
            let freshSections = (fresh.sections ?? []).map { ($0.name, ($0.objects ?? []).compactMap { $0 as? NSManagedObject }) }
            if !Self.same(freshSections, expected) {
                problems.append("a new controller's performFetch() differs from a plain fetch\n controller:\n  \(text(freshSections))\n fetch:\n  \(expectedText)")
            }
            return problems
        }
    }

    /// A fetch's objects split into the sections a controller should have: by the section key
    /// path's value (the fetch is sorted by it), else one section, even when empty.
    private func sections(of objects: [NSManagedObject]) -> [(name: String, objects: [NSManagedObject])] {
        guard let keyPath = configuration.sections.keyPath else { return [("", objects)] }
        var sections: [(name: String, objects: [NSManagedObject])] = []
        for object in objects {
            let name = object.value(forKeyPath: keyPath) as? String ?? ""
            if sections.last?.name == name {
                sections[sections.count - 1].objects.append(object)
            } else {
                sections.append((name, [object]))
            }
        }
        return sections
    }

    private static func same(_ lhs: [(String, [NSManagedObject])], _ rhs: [(name: String, objects: [NSManagedObject])]) -> Bool {
        lhs.count == rhs.count && zip(lhs, rhs).allSatisfy { $0.0 == $1.name && $0.1.count == $1.objects.count && zip($0.1, $1.objects).allSatisfy(===) }
    }
}
