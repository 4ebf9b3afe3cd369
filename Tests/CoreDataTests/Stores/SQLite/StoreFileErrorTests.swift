@testable import CoreData
import Testing

/// Files that are not usable stores: each gives an NSError in NSCocoaErrorDomain (never a crash),
/// and the file is left exactly as it was.
@Suite("SQLite store file errors")
struct StoreFileErrorTests {
    /// The kinds of damaged or foreign files.
    enum BadFile: String, CaseIterable, Sendable {
        case text
        case randomBytes
        case truncated4096
        case truncated50
        case zeroedHeader
        case plainSQLite
        case plainSQLiteWAL
        case garbageMetadataPlist

        /// Writes the file at `url` (other files go beside it).
        func write(to url: URL, scratch: SQLiteScratchDirectory) throws {
            switch self {
            case .text:
                try Data(String(repeating: "This is a text file, not a Core Data store.\n", count: 200).utf8).write(to: url)
            case .randomBytes:
                var generator = SplitMix64(seed: 0xC0FFEE)
                try Data((0..<16_384).map { _ in UInt8(truncatingIfNeeded: generator.next()) }).write(to: url)
            case .truncated4096, .truncated50, .zeroedHeader:
                let store = try StoreFileErrorTests.realStoreBytes(scratch: scratch)
                #expect(store.count > 4096, "the real store must be longer than the truncation")
                switch self {
                case .truncated4096: try store.prefix(4096).write(to: url)
                case .truncated50: try store.prefix(50).write(to: url)
                default:
                    var zeroed = store
                    zeroed.replaceSubrange(0..<100, with: Data(count: 100))
                    try zeroed.write(to: url)
                }
            case .plainSQLite:
                let connection = try SQLiteConnection(path: url.path, readOnly: false, create: true)
                try connection.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes (body) VALUES ('hello')")
                connection.close()
            case .plainSQLiteWAL:
                // A WAL-mode database of another application (closed cleanly, so no -wal file remains).
                let connection = try SQLiteConnection(path: url.path, readOnly: false, create: true)
                try connection.execute("PRAGMA journal_mode = WAL; CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes (body) VALUES ('hello')")
                connection.close()
            case .garbageMetadataPlist:
                let connection = try SQLiteConnection(path: url.path, readOnly: false, create: true)
                try connection.execute("""
                    CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
                    CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
                    INSERT INTO Z_METADATA VALUES (1, '753753D3-A961-4901-AB05-8CC48B1D3853', X'62706C6973743030DEADBEEF');
                    """)
                connection.close()
            }
        }
    }

    /// The bytes of a real, closed store with a few rows.
    static func realStoreBytes(scratch: SQLiteScratchDirectory) throws -> Data {
        let url = scratch.file("Real-\(UUID().uuidString).sqlite")
        let stack = try SQLiteTestStack(model: MovieModel.make(), url: url)
        try stack.context.performAndWait {
            for index in 0..<20 {
                let movie = NSEntityDescription.insertNewObject(forEntityName: "Movie", into: stack.context)
                movie.setValue("Movie \(index)", forKey: "title")
            }
            try stack.context.save()
        }
        stack.close()
        return try #require(StoreFileProbe.bytes(url))
    }

    /// The files of a directory whose names start with the store's name.
    private func storeFiles(_ url: URL) -> [String] {
        let name = url.lastPathComponent
        return ((try? FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path)) ?? [])
            .filter { $0.hasPrefix(name) }
            .sorted()
    }

    private func expectCocoaError(_ error: any Error, sourceLocation: SourceLocation = #_sourceLocation) {
        let error = error as NSError
        #expect(error.domain == NSCocoaErrorDomain, sourceLocation: sourceLocation)
        #expect(!error.localizedDescription.isEmpty, sourceLocation: sourceLocation)
        #expect(error.code != 0, sourceLocation: sourceLocation)
    }

    @Test("addPersistentStore refuses the file with an NSError and leaves it byte-identical", arguments: BadFile.allCases)
    func addPersistentStoreRefuses(kind: BadFile) throws {
        let scratch = try SQLiteScratchDirectory("bad-\(kind.rawValue)")
        defer { scratch.remove() }
        let url = scratch.file("Bad.sqlite")
        try kind.write(to: url, scratch: scratch)
        let before = try #require(StoreFileProbe.bytes(url))
        let filesBefore = storeFiles(url)

        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: MovieModel.make())
        do {
            try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url, options: nil)
            Issue.record("a \(kind) file was accepted as a store")
        } catch {
            expectCocoaError(error)
        }
        #expect(coordinator.persistentStores.isEmpty)
        #expect(StoreFileProbe.bytes(url) == before, "the file must not change")
        #expect(storeFiles(url) == filesBefore, "no -wal, -shm or -journal file may appear")
    }

    @Test("metadataForPersistentStore refuses the file with an NSError and leaves it byte-identical", arguments: BadFile.allCases)
    func metadataRefuses(kind: BadFile) throws {
        let scratch = try SQLiteScratchDirectory("bad-metadata-\(kind.rawValue)")
        defer { scratch.remove() }
        let url = scratch.file("Bad.sqlite")
        try kind.write(to: url, scratch: scratch)
        let before = try #require(StoreFileProbe.bytes(url))
        let filesBefore = storeFiles(url)
        do {
            _ = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url, options: nil)
            Issue.record("metadata was read from a \(kind) file")
        } catch {
            expectCocoaError(error)
        }
        #expect(StoreFileProbe.bytes(url) == before)
        #expect(storeFiles(url) == filesBefore)
    }

    @Test("a store URL naming a directory is refused with an NSError")
    func directoryInsteadOfFile() throws {
        let scratch = try SQLiteScratchDirectory("bad-directory")
        defer { scratch.remove() }
        let url = scratch.file("Folder.sqlite")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: MovieModel.make())
        do {
            try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url, options: nil)
            Issue.record("a directory was accepted as a store")
        } catch {
            expectCocoaError(error)
        }
        #expect(coordinator.persistentStores.isEmpty)
    }

    @Test("metadataForPersistentStore of a missing file throws an NSError and creates nothing")
    func missingFile() throws {
        let scratch = try SQLiteScratchDirectory("missing")
        defer { scratch.remove() }
        let url = scratch.file("Nothing.sqlite")
        #expect(throws: NSError.self) {
            try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url, options: nil)
        }
        #expect(scratch.listing().isEmpty)
    }

    // MARK: Version hashes

    /// The Movie model with a different version hash but the same schema.
    private func changedModel() -> NSManagedObjectModel {
        let model = MovieModel.make()
        model.entitiesByName["Movie"]?.versionHashModifier = "v2"
        return model
    }

    /// A closed store written with the Movie model, holding one movie.
    private func writeMovieStore(_ url: URL) throws {
        let stack = try SQLiteTestStack(model: MovieModel.make(), url: url)
        try stack.context.performAndWait {
            NSEntityDescription.insertNewObject(forEntityName: "Movie", into: stack.context).setValue("Alien", forKey: "title")
            try stack.context.save()
        }
        stack.close()
    }

    @Test("a model with different version hashes gives 134100 and leaves the file unchanged")
    func incompatibleVersionHashes() throws {
        let scratch = try SQLiteScratchDirectory("incompatible")
        defer { scratch.remove() }
        let url = scratch.file("Movies.sqlite")
        try writeMovieStore(url)
        let before = try #require(StoreFileProbe.bytes(url))

        let changed = changedModel()
        #expect(changed.entityVersionHashesByName != MovieModel.make().entityVersionHashesByName)
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: changed)
        do {
            try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url, options: nil)
            Issue.record("an incompatible store was opened")
        } catch {
            let error = error as NSError
            #expect(error.domain == NSCocoaErrorDomain)
            #expect(error.code == NSPersistentStoreIncompatibleVersionHashError)
            #expect(error.code == 134100)
            #expect(!error.localizedDescription.isEmpty)
        }
        #expect(coordinator.persistentStores.isEmpty)
        #expect(StoreFileProbe.bytes(url) == before, "the store file must not change")

        // The store still opens with its own model, data intact.
        let stack = try SQLiteTestStack(model: MovieModel.make(), url: url)
        defer { stack.close() }
        let titles = try stack.context.performAndWait {
            try stack.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Movie")).compactMap { $0.value(forKey: "title") as? String }
        }
        #expect(titles == ["Alien"])
    }

    @Test("a model with an extra entity is incompatible too")
    func extraEntityIncompatible() throws {
        let scratch = try SQLiteScratchDirectory("incompatible-extra")
        defer { scratch.remove() }
        let url = scratch.file("Movies.sqlite")
        try writeMovieStore(url)
        let before = try #require(StoreFileProbe.bytes(url))
        let model = MovieModel.make()
        model.entities = model.entities + [ModelFixtureKit.entity("Studio", [ModelFixtureKit.attribute("name", .stringAttributeType)])]
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        #expect {
            try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url, options: nil)
        } throws: { error in
            (error as NSError).domain == NSCocoaErrorDomain && (error as NSError).code == NSPersistentStoreIncompatibleVersionHashError
        }
        #expect(StoreFileProbe.bytes(url) == before)
    }

    @Test("NSIgnorePersistentStoreVersioningOption skips the version-hash check")
    func ignoreVersioning() throws {
        let scratch = try SQLiteScratchDirectory("ignore-versioning")
        defer { scratch.remove() }
        let url = scratch.file("Movies.sqlite")
        try writeMovieStore(url)
        let stack = try SQLiteTestStack(model: changedModel(), url: url, options: [NSIgnorePersistentStoreVersioningOption: true])
        defer { stack.close() }
        #expect(stack.coordinator.persistentStores.count == 1)
        let titles = try stack.context.performAndWait {
            try stack.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Movie")).compactMap { $0.value(forKey: "title") as? String }
        }
        #expect(titles == ["Alien"])
    }

    @Test("NSIgnorePersistentStoreVersioningOption given as an NSNumber to a container opens the store without migrating it")
    func ignoreVersioningThroughAContainer() throws {
        let scratch = try SQLiteScratchDirectory("ignore-versioning-container")
        defer { scratch.remove() }
        let url = scratch.file("Movies.sqlite")
        try writeMovieStore(url)
        let model = MovieModel.make()
        let movie = try #require(model.entitiesByName["Movie"])
        movie.properties = movie.properties + [ModelFixtureKit.attribute("studio", .stringAttributeType)]

        let container = NSPersistentContainer(name: "Movies", managedObjectModel: model)
        let description = NSPersistentStoreDescription(url: url)
        description.setOption(NSNumber(value: true), forKey: NSIgnorePersistentStoreVersioningOption)
        container.persistentStoreDescriptions = [description]
        var loadError: Error?
        container.loadPersistentStores { _, error in loadError = error }
        #expect(loadError == nil)
        #expect(container.persistentStoreCoordinator.persistentStores.count == 1)
        // Not migrated: the file has no column for the new attribute, so fetching it fails.
        let context = container.newBackgroundContext()
        let error = context.performAndWait { ctxError { _ = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Movie")) } }
        #expect(error?.domain == NSCocoaErrorDomain)
        #expect("\(error?.userInfo ?? [:])".contains("ZSTUDIO"))
    }

    @Test("a store opened with NSIgnorePersistentStoreVersioningOption records the model's version hashes at its next save")
    func ignoreVersioningRecordsTheModelsHashes() throws {
        let scratch = try SQLiteScratchDirectory("ignore-versioning-hashes")
        defer { scratch.remove() }
        let url = scratch.file("Movies.sqlite")
        try writeMovieStore(url)
        do {
            let stack = try SQLiteTestStack(model: changedModel(), url: url, options: [NSIgnorePersistentStoreVersioningOption: true])
            try stack.context.performAndWait {
                NSEntityDescription.insertNewObject(forEntityName: "Movie", into: stack.context).setValue("Heat", forKey: "title")
                try stack.context.save()
            }
            stack.close()
        }
        let stack = try SQLiteTestStack(model: changedModel(), url: url)
        defer { stack.close() }
        let titles = try stack.context.performAndWait {
            try stack.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Movie")).compactMap { $0.value(forKey: "title") as? String }
        }
        #expect(titles.sorted() == ["Alien", "Heat"])
    }

    // MARK: What the file system refuses

    /// The error adding the store at `url` throws, or nil when it opens.
    private func openingError(_ url: URL) -> NSError? {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: MovieModel.make())
        do {
            try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url, options: nil)
            return nil
        } catch {
            #expect(coordinator.persistentStores.isEmpty)
            return error as NSError
        }
    }

    /// Checks that an error is Foundation's file error `code` about the store file, with SQLite's
    /// error beneath it, as Apple's Core Data reports what the file system refused.
    private func expectFileError(_ error: NSError?, _ code: Int, url: URL, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(error?.domain == NSCocoaErrorDomain, sourceLocation: sourceLocation)
        #expect(error?.code == code, "\(error.map { "\($0)" } ?? "no error")", sourceLocation: sourceLocation)
        #expect(error?.userInfo[NSFilePathErrorKey] as? String == url.path, sourceLocation: sourceLocation)
        #expect(error?.userInfo[NSSQLiteErrorDomain] is Int, sourceLocation: sourceLocation)
        #expect((error?.userInfo[NSUnderlyingErrorKey] as? NSError)?.domain == NSSQLiteErrorDomain, sourceLocation: sourceLocation)
        #expect(error?.localizedDescription.contains("damaged") == false, sourceLocation: sourceLocation)
    }

    @Test("a store in a directory that cannot be written gives 513 (no permission), not a damaged file, and stays as it was")
    func directoryWithoutWritePermission() throws {
        let scratch = try SQLiteScratchDirectory("no-write-permission")
        defer { scratch.remove() }
        let folder = scratch.file("Locked")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent("Movies.sqlite")
        try writeMovieStore(url)
        try UnprivilegedFileAccess.giveToRunningUser(url)
        let before = try #require(StoreFileProbe.bytes(url))
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path) }

        // SQLite cannot create the -shm file beside the store: SQLITE_READONLY_DIRECTORY (1544).
        let error = UnprivilegedFileAccess.run { openingError(url) }
        expectFileError(error, NSFileWriteNoPermissionError, url: url)
        #expect(error?.localizedDescription == "You don’t have permission to save the file “Movies.sqlite” in the folder “Locked”.")
        #expect(StoreFileProbe.bytes(url) == before)
        #expect(storeFiles(url) == ["Movies.sqlite"])
    }

    @Test("a store on a read-only volume gives 642", .enabled(if: ScratchFileSystem.canMount, ScratchFileSystem.skipReason))
    func readOnlyVolume() throws {
        let volume = try ScratchFileSystem(kibibytes: 1024)
        defer { volume.unmount() }
        let url = volume.file("Movies.sqlite")
        try writeMovieStore(url)
        try volume.remountReadOnly()
        expectFileError(openingError(url), NSFileWriteVolumeReadOnlyError, url: url)
    }

    @Test("opening a store on a full disk gives 640 (out of space), not a damaged file, and leaves its files as they were", .enabled(if: ScratchFileSystem.canMount, ScratchFileSystem.skipReason))
    func fullDiskWhileOpening() throws {
        let volume = try ScratchFileSystem(kibibytes: 1024)
        defer { volume.unmount() }
        let url = volume.file("Movies.sqlite")
        try writeMovieStore(url)
        let before = try #require(StoreFileProbe.bytes(url))
        try volume.fill()

        // SQLite cannot grow the -shm file it creates: SQLITE_IOERR_SHMSIZE (4874), ENOSPC.
        let error = openingError(url)
        expectFileError(error, NSFileWriteOutOfSpaceError, url: url)
        #expect(StoreFileProbe.bytes(url) == before)
        #expect(storeFiles(url) == ["Movies.sqlite"])

        try volume.free()
        let stack = try SQLiteTestStack(model: MovieModel.make(), url: url)
        defer { stack.close() }
        let titles = try stack.context.performAndWait {
            try stack.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Movie")).compactMap { $0.value(forKey: "title") as? String }
        }
        #expect(titles == ["Alien"])
    }

    /// A small deterministic random generator (SplitMix64), so "random" files are reproducible.
    struct SplitMix64: RandomNumberGenerator {
        private var state: UInt64

        init(seed: UInt64) {
            state = seed
        }

        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }
}
