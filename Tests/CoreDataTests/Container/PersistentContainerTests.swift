import CoreData
import Testing

/// NSPersistentContainer and NSPersistentStoreDescription.
///
/// The container's `viewContext` is a main-queue context; tests do not run on the main thread
/// and the main queue is not serviced while they run, so the view context is only inspected,
/// never used. Work goes through `newBackgroundContext()` and `performBackgroundTask`.
@Suite struct PersistentContainerTests {
    /// A container whose only store description points into a scratch directory.
    private func container(named name: String = "Movies", in directory: CtxTemporaryDirectory, type: String = NSSQLiteStoreType) -> NSPersistentContainer {
        let container = NSPersistentContainer(name: name, managedObjectModel: MovieModel.make())
        let description = NSPersistentStoreDescription(url: directory.url.appendingPathComponent("\(name).sqlite"))
        description.type = type
        container.persistentStoreDescriptions = [description]
        return container
    }

    /// Loads the stores and returns the errors reported, one entry per description.
    private func load(_ container: NSPersistentContainer) -> [Error?] {
        let results = CtxLog<Error?>()
        container.loadPersistentStores { _, error in results.append(error) }
        return results.elements
    }

    // MARK: Setting up

    @Test func initWithNameAndModel() {
        let model = MovieModel.make()
        let container = NSPersistentContainer(name: "Movies", managedObjectModel: model)
        #expect(container.name == "Movies")
        #expect(container.managedObjectModel === model)
        #expect(container.persistentStoreCoordinator.managedObjectModel === model)
        #expect(container.persistentStoreCoordinator.persistentStores.isEmpty)
    }

    @Test func theDefaultDescriptionIsASQLiteFileNamedAfterTheContainer() {
        let container = NSPersistentContainer(name: "Movies", managedObjectModel: MovieModel.make())
        #expect(container.persistentStoreDescriptions.count == 1)
        let description = container.persistentStoreDescriptions[0]
        #expect(description.type == NSSQLiteStoreType)
        #expect(description.url?.lastPathComponent == "Movies.sqlite")
        #expect(description.url?.deletingLastPathComponent().standardizedFileURL.path
            == NSPersistentContainer.defaultDirectoryURL().standardizedFileURL.path)
    }

    @Test func defaultDirectoryHonoursXDGDataHome() {
        // The environment is only read: parallel tests must not change it.
        let directory = NSPersistentContainer.defaultDirectoryURL()
        if let dataHome = ProcessInfo.processInfo.environment["XDG_DATA_HOME"], !dataHome.isEmpty {
            #expect(directory.standardizedFileURL.path == URL(fileURLWithPath: dataHome).standardizedFileURL.path)
        } else {
            let expected = FileManager.default.homeDirectoryForCurrentUser
                .appendingPathComponent(".local").appendingPathComponent("share")
            #expect(directory.standardizedFileURL.path == expected.standardizedFileURL.path)
        }
        #expect(directory.isFileURL)
    }

    @Test func loadPersistentStoresAddsTheDescribedStore() throws {
        let directory = try CtxTemporaryDirectory()
        let container = container(in: directory)
        let errors = load(container)
        #expect(errors.count == 1)
        #expect(errors.allSatisfy { $0 == nil })
        let stores = container.persistentStoreCoordinator.persistentStores
        #expect(stores.count == 1)
        #expect(stores.first?.type == NSSQLiteStoreType)
        #expect(stores.first?.url?.standardizedFileURL == directory.url.appendingPathComponent("Movies.sqlite").standardizedFileURL)
        #expect(FileManager.default.fileExists(atPath: directory.url.appendingPathComponent("Movies.sqlite").path))
    }

    @Test func completionHandlerReceivesTheDescription() throws {
        let directory = try CtxTemporaryDirectory()
        let container = container(in: directory)
        let expected = container.persistentStoreDescriptions[0]
        let received = CtxLog<NSPersistentStoreDescription>()
        container.loadPersistentStores { description, _ in received.append(description) }
        #expect(received.elements.count == 1)
        #expect(received.elements.first?.url == expected.url)
    }

    @Test func everyDescriptionIsLoadedAndReported() throws {
        let directory = try CtxTemporaryDirectory()
        let container = NSPersistentContainer(name: "Two", managedObjectModel: MovieModel.make())
        let first = NSPersistentStoreDescription(url: directory.url.appendingPathComponent("A.sqlite"))
        let second = NSPersistentStoreDescription()
        second.type = NSInMemoryStoreType
        container.persistentStoreDescriptions = [first, second]
        let errors = load(container)
        #expect(errors.count == 2)
        #expect(errors.allSatisfy { $0 == nil })
        #expect(container.persistentStoreCoordinator.persistentStores.count == 2)
    }

    @Test func aStoreThatCannotBeOpenedIsReportedAsAnError() throws {
        let directory = try CtxTemporaryDirectory()
        let url = directory.url.appendingPathComponent("Movies.sqlite")
        try Data("this is not a database, just some text that is long enough".utf8).write(to: url)
        let container = container(in: directory)
        let errors = load(container)
        #expect(errors.count == 1)
        #expect(errors.first.flatMap { $0 } != nil)
        #expect(container.persistentStoreCoordinator.persistentStores.isEmpty)
    }

    @Test func aContainerWithoutAModelReportsItWhenLoadingInsteadOfCrashing() {
        let container = NSPersistentContainer(name: "NoSuchModel")
        var reported: NSError?
        container.loadPersistentStores { _, error in reported = error as NSError? }
        #expect(reported?.domain == NSCocoaErrorDomain)
        #expect(reported?.code == NSCoreDataError)
        #expect(reported?.explanation.contains("NoSuchModel") == true)
        #expect(container.persistentStoreCoordinator.persistentStores.isEmpty)
    }

    @Test func asynchronousLoadingCompletesLater() async throws {
        let directory = try CtxTemporaryDirectory()
        let container = container(in: directory)
        container.persistentStoreDescriptions[0].shouldAddStoreAsynchronously = true
        let error: Error? = await withCheckedContinuation { continuation in
            container.loadPersistentStores { _, error in
                continuation.resume(returning: error)
            }
        }
        #expect(error == nil)
        #expect(container.persistentStoreCoordinator.persistentStores.count == 1)
    }

    // MARK: Contexts

    @Test func viewContextIsOneMainQueueContextOnTheCoordinator() throws {
        let directory = try CtxTemporaryDirectory()
        let container = container(in: directory)
        _ = load(container)
        let view = container.viewContext
        #expect(view.concurrencyType == .mainQueueConcurrencyType)
        #expect(view.persistentStoreCoordinator === container.persistentStoreCoordinator)
        #expect(container.viewContext === view)
    }

    @Test func newBackgroundContextsArePrivateAndDistinct() throws {
        let directory = try CtxTemporaryDirectory()
        let container = container(in: directory)
        _ = load(container)
        let a = container.newBackgroundContext()
        let b = container.newBackgroundContext()
        #expect(a !== b)
        #expect(a.concurrencyType == .privateQueueConcurrencyType)
        #expect(a.persistentStoreCoordinator === container.persistentStoreCoordinator)
        #expect(a !== container.viewContext)

        try a.performAndWait { () throws in
            ctxInsert("Movie", into: a, ["title": "Alien"])
            try a.save()
        }
        let titles = try b.performAndWait { () throws in
            try ctxFetch("Movie", in: b).compactMap { $0.value(forKey: "title") as? String }
        }
        #expect(titles == ["Alien"])
    }

    @Test func performBackgroundTaskRunsOnAPrivateContext() async throws {
        let directory = try CtxTemporaryDirectory()
        let container = container(in: directory)
        _ = load(container)
        let outcome = await withCheckedContinuation { (continuation: CheckedContinuation<(NSManagedObjectContextConcurrencyType, Bool, Error?), Never>) in
            container.performBackgroundTask { context in
                ctxInsert("Movie", into: context, ["title": "Alien"])
                let error = ctxError { try context.save() }
                continuation.resume(returning: (context.concurrencyType, context.persistentStoreCoordinator === container.persistentStoreCoordinator, error))
            }
        }
        #expect(outcome.0 == .privateQueueConcurrencyType)
        #expect(outcome.1)
        #expect(outcome.2 == nil)
        let count = try await container.performBackgroundTask { context in
            try ctxStoredCount("Movie", in: context)
        }
        #expect(count == 1)
    }

    @Test func asyncPerformBackgroundTaskReturnsAndRethrows() async throws {
        let directory = try CtxTemporaryDirectory()
        let container = container(in: directory)
        _ = load(container)
        let title = try await container.performBackgroundTask { context -> String? in
            ctxInsert("Movie", into: context, ["title": "Heat"])
            try context.save()
            return try ctxFetch("Movie", in: context).first?.value(forKey: "title") as? String
        }
        #expect(title == "Heat")

        await #expect(throws: (any Error).self) {
            try await container.performBackgroundTask { context in
                ctxInsert("Movie", into: context)
                try context.save()
            }
        }
    }

    @Test func dataSurvivesANewContainerOnTheSameFile() throws {
        let directory = try CtxTemporaryDirectory()
        do {
            let container = container(in: directory)
            _ = load(container)
            let context = container.newBackgroundContext()
            try context.performAndWait { () throws in
                ctxInsert("Movie", into: context, ["title": "Alien"])
                try context.save()
            }
        }
        let container = container(in: directory)
        #expect(load(container).allSatisfy { $0 == nil })
        let context = container.newBackgroundContext()
        let count = try context.performAndWait { () throws in try ctxStoredCount("Movie", in: context) }
        #expect(count == 1)
    }

    // MARK: NSPersistentStoreDescription

    @Test func descriptionDefaults() {
        let description = NSPersistentStoreDescription()
        #expect(description.type == NSSQLiteStoreType)
        #expect(description.type == "SQLite")
        #expect(description.url == nil)
        #expect(description.configuration == nil)
        #expect(description.shouldMigrateStoreAutomatically)
        #expect(description.shouldInferMappingModelAutomatically)
        #expect(!description.shouldAddStoreAsynchronously)
        #expect(!description.isReadOnly)
        #expect(description.options.isEmpty)
        #expect(description.sqlitePragmas.isEmpty)

        let url = URL(fileURLWithPath: "/tmp/x.sqlite")
        let located = NSPersistentStoreDescription(url: url)
        #expect(located.url == url)
        #expect(located.type == NSSQLiteStoreType)
    }

    @Test func setOptionAddsAndRemovesOptions() {
        let description = NSPersistentStoreDescription()
        description.setOption(NSNumber(value: true), forKey: NSReadOnlyPersistentStoreOption)
        #expect((description.options[NSReadOnlyPersistentStoreOption] as? NSNumber)?.boolValue == true)
        #expect(description.isReadOnly)
        description.setOption(nil, forKey: NSReadOnlyPersistentStoreOption)
        #expect(description.options[NSReadOnlyPersistentStoreOption] == nil)
        #expect(!description.isReadOnly)

        description.isReadOnly = true
        #expect((description.options[NSReadOnlyPersistentStoreOption] as? NSNumber)?.boolValue == true)
        description.setOption(NSNumber(value: true), forKey: NSPersistentHistoryTrackingKey)
        #expect(description.options.count == 2)
    }

    @Test func sqlitePragmas() {
        let description = NSPersistentStoreDescription()
        description.setValue(NSString(string: "WAL"), forPragmaNamed: "journal_mode")
        description.setValue(NSNumber(value: 1), forPragmaNamed: "secure_delete")
        #expect((description.sqlitePragmas["journal_mode"] as? NSString)?.description == "WAL")
        #expect((description.sqlitePragmas["secure_delete"] as? NSNumber)?.intValue == 1)
        #expect(description.sqlitePragmas.count == 2)
        #expect(description.options[NSSQLitePragmasOption] != nil)
        description.setValue(nil, forPragmaNamed: "secure_delete")
        #expect(description.sqlitePragmas.count == 1)
        #expect(description.sqlitePragmas["secure_delete"] == nil)
    }

    @Test func copiesAreIndependent() throws {
        let description = NSPersistentStoreDescription(url: URL(fileURLWithPath: "/tmp/a.sqlite"))
        description.shouldMigrateStoreAutomatically = false
        description.setOption(NSNumber(value: true), forKey: NSReadOnlyPersistentStoreOption)
        let copy = try #require(description.copy() as? NSPersistentStoreDescription)
        #expect(copy !== description)
        #expect(copy.url == description.url)
        #expect(copy.type == description.type)
        #expect(!copy.shouldMigrateStoreAutomatically)
        #expect(copy.isReadOnly)
        copy.url = URL(fileURLWithPath: "/tmp/b.sqlite")
        copy.isReadOnly = false
        #expect(description.url?.lastPathComponent == "a.sqlite")
        #expect(description.isReadOnly)
    }

    @Test func aReadOnlyDescriptionRefusesSaves() throws {
        let directory = try CtxTemporaryDirectory()
        do {
            let container = container(in: directory)
            _ = load(container)
            let context = container.newBackgroundContext()
            try context.performAndWait { () throws in
                ctxInsert("Movie", into: context, ["title": "Alien"])
                try context.save()
            }
        }
        let container = container(in: directory)
        container.persistentStoreDescriptions[0].isReadOnly = true
        #expect(load(container).allSatisfy { $0 == nil })
        #expect(container.persistentStoreCoordinator.persistentStores.first?.isReadOnly == true)
        let context = container.newBackgroundContext()
        context.performAndWait {
            ctxInsert("Movie", into: context, ["title": "Heat"])
            #expect(ctxError { try context.save() } != nil)
        }
    }
}
