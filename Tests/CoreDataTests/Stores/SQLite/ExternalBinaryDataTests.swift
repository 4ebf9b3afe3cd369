@testable import CoreData
import Testing

/// Binary attributes with `allowsExternalBinaryDataStorage`: large values live in files under
/// `.<store name>_SUPPORT/_EXTERNAL_DATA/<UUID>` beside the store (spec/store-format.md §2.5).
@Suite("External binary data")
struct ExternalBinaryDataTests {
    private func makeModel() -> NSManagedObjectModel {
        let blob = ModelFixtureKit.attribute("blob", .binaryDataAttributeType)
        blob.allowsExternalBinaryDataStorage = true
        return ModelFixtureKit.model([ModelFixtureKit.entity("Document", [ModelFixtureKit.attribute("name", .stringAttributeType), blob])])
    }

    /// 2 MB of deterministic, poorly compressible bytes.
    private func largeValue(seed: UInt64) -> Data {
        var state = seed
        return Data((0..<(2 * 1024 * 1024)).map { _ -> UInt8 in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: state >> 33)
        })
    }

    private func externalDirectory(_ storeURL: URL) -> URL {
        storeURL.deletingLastPathComponent()
            .appendingPathComponent(".Docs_SUPPORT", isDirectory: true)
            .appendingPathComponent("_EXTERNAL_DATA", isDirectory: true)
    }

    private func externalFiles(_ storeURL: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: externalDirectory(storeURL).path)) ?? []).sorted()
    }

    private func document(named name: String, in context: NSManagedObjectContext) throws -> NSManagedObject? {
        let request = NSFetchRequest<NSManagedObject>(entityName: "Document")
        request.predicate = NSPredicate(format: "name == %@", name)
        return try context.fetch(request).first
    }

    @Test("a 2 MB value goes to .<store>_SUPPORT/_EXTERNAL_DATA/<UUID>, small values stay inline, both round-trip")
    func largeValueIsExternal() throws {
        let directory = try SQLiteScratchDirectory("external")
        defer { directory.remove() }
        let url = directory.file("Docs.sqlite")
        let model = makeModel()
        let large = largeValue(seed: 1)
        let small = Data((0..<100).map { UInt8($0) })
        do {
            let stack = try SQLiteTestStack(model: model, url: url)
            try stack.context.performAndWait {
                let big = NSEntityDescription.insertNewObject(forEntityName: "Document", into: stack.context)
                big.setValue("big", forKey: "name")
                big.setValue(large, forKey: "blob")
                let tiny = NSEntityDescription.insertNewObject(forEntityName: "Document", into: stack.context)
                tiny.setValue("tiny", forKey: "name")
                tiny.setValue(small, forKey: "blob")
                try stack.context.save()
            }
            let files = externalFiles(url)
            #expect(files.count == 1, "only the large value is external")
            if let name = files.first {
                #expect(UUID(uuidString: name) != nil, "external files are named by a UUID")
                #expect(StoreFileProbe.bytes(externalDirectory(url).appendingPathComponent(name)) == large)
            }
            let sizes = StoreFileProbe.size(url) + StoreFileProbe.size(StoreFileProbe.sidecar(url, "-wal"))
            #expect(sizes < 200 * 1024, "the database stays small (\(sizes) bytes)")
            stack.close()
        }
        #expect(StoreFileProbe.size(url) < 200 * 1024)

        let stack = try SQLiteTestStack(model: model, url: url)
        defer { stack.close() }
        let (readLarge, readSmall) = try stack.context.performAndWait {
            (try document(named: "big", in: stack.context)?.value(forKey: "blob") as? Data,
             try document(named: "tiny", in: stack.context)?.value(forKey: "blob") as? Data)
        }
        #expect(readLarge == large)
        #expect(readSmall == small)
    }

    @Test("replacing an external value removes the old file after save")
    func replacingRemovesOldFile() throws {
        let directory = try SQLiteScratchDirectory("external-replace")
        defer { directory.remove() }
        let url = directory.file("Docs.sqlite")
        let model = makeModel()
        let first = largeValue(seed: 2)
        let second = largeValue(seed: 3)
        do {
            let stack = try SQLiteTestStack(model: model, url: url)
            try stack.context.performAndWait {
                let doc = NSEntityDescription.insertNewObject(forEntityName: "Document", into: stack.context)
                doc.setValue("doc", forKey: "name")
                doc.setValue(first, forKey: "blob")
                try stack.context.save()
            }
            stack.close()
        }
        let original = externalFiles(url)
        #expect(original.count == 1)

        // Replace it in a fresh stack, where the old value was never loaded.
        let stack = try SQLiteTestStack(model: model, url: url)
        defer { stack.close() }
        try stack.context.performAndWait {
            let doc = try #require(try document(named: "doc", in: stack.context))
            doc.setValue(second, forKey: "blob")
            try stack.context.save()
        }
        let replaced = externalFiles(url)
        #expect(replaced.count == 1, "the old file is gone and one new file holds the new value")
        #expect(Set(replaced).isDisjoint(with: original))
        if let name = replaced.first {
            #expect(StoreFileProbe.bytes(externalDirectory(url).appendingPathComponent(name)) == second)
        }
        let reread = try stack.context.performAndWait {
            stack.context.reset()
            return try document(named: "doc", in: stack.context)?.value(forKey: "blob") as? Data
        }
        #expect(reread == second)

        // Shrinking the value below the threshold moves it inline and removes the file.
        try stack.context.performAndWait {
            let doc = try #require(try document(named: "doc", in: stack.context))
            doc.setValue(Data([1, 2, 3]), forKey: "blob")
            try stack.context.save()
        }
        #expect(externalFiles(url).isEmpty)
    }

    @Test("deleting the object removes its external file after save")
    func deletingRemovesFile() throws {
        let directory = try SQLiteScratchDirectory("external-delete")
        defer { directory.remove() }
        let url = directory.file("Docs.sqlite")
        let stack = try SQLiteTestStack(model: makeModel(), url: url)
        defer { stack.close() }
        try stack.context.performAndWait {
            let doc = NSEntityDescription.insertNewObject(forEntityName: "Document", into: stack.context)
            doc.setValue("doc", forKey: "name")
            doc.setValue(largeValue(seed: 4), forKey: "blob")
            let keep = NSEntityDescription.insertNewObject(forEntityName: "Document", into: stack.context)
            keep.setValue("keep", forKey: "name")
            keep.setValue(largeValue(seed: 5), forKey: "blob")
            try stack.context.save()
        }
        #expect(externalFiles(url).count == 2)
        try stack.context.performAndWait {
            let doc = try #require(try document(named: "doc", in: stack.context))
            stack.context.delete(doc)
            // Not removed before the save commits.
            #expect(externalFiles(url).count == 2)
            try stack.context.save()
        }
        let remaining = externalFiles(url)
        #expect(remaining.count == 1)
        if let name = remaining.first {
            #expect(StoreFileProbe.bytes(externalDirectory(url).appendingPathComponent(name)) == largeValue(seed: 5))
        }
    }

    @Test("setting the external value to nil removes its file")
    func nilRemovesFile() throws {
        let directory = try SQLiteScratchDirectory("external-nil")
        defer { directory.remove() }
        let url = directory.file("Docs.sqlite")
        let stack = try SQLiteTestStack(model: makeModel(), url: url)
        defer { stack.close() }
        try stack.context.performAndWait {
            let doc = NSEntityDescription.insertNewObject(forEntityName: "Document", into: stack.context)
            doc.setValue("doc", forKey: "name")
            doc.setValue(largeValue(seed: 6), forKey: "blob")
            try stack.context.save()
            #expect(externalFiles(url).count == 1)
            doc.setValue(nil, forKey: "blob")
            try stack.context.save()
        }
        #expect(externalFiles(url).isEmpty)
    }

    @Test("destroyPersistentStore removes the support folder with the store")
    func destroyRemovesSupportFolder() throws {
        let directory = try SQLiteScratchDirectory("external-destroy")
        defer { directory.remove() }
        let url = directory.file("Docs.sqlite")
        let stack = try SQLiteTestStack(model: makeModel(), url: url)
        try stack.context.performAndWait {
            let doc = NSEntityDescription.insertNewObject(forEntityName: "Document", into: stack.context)
            doc.setValue(largeValue(seed: 7), forKey: "blob")
            try stack.context.save()
        }
        #expect(externalFiles(url).count == 1)
        try stack.coordinator.destroyPersistentStore(at: url, ofType: NSSQLiteStoreType, options: nil)
        #expect(!StoreFileProbe.exists(url))
        #expect(!StoreFileProbe.exists(directory.file(".Docs_SUPPORT")))
    }

    // MARK: Files no row refers to

    /// Saves documents with large values (seed by name) in a new store at `url`, and closes it.
    private func writeDocuments(_ seeds: [String: UInt64], to url: URL) throws {
        let stack = try SQLiteTestStack(model: makeModel(), url: url)
        defer { stack.close() }
        try stack.context.performAndWait {
            for (name, seed) in seeds {
                let doc = NSEntityDescription.insertNewObject(forEntityName: "Document", into: stack.context)
                doc.setValue(name, forKey: "name")
                doc.setValue(largeValue(seed: seed), forKey: "blob")
            }
            try stack.context.save()
        }
    }

    /// The value of each named document, read through a new stack.
    private func values(_ names: [String], at url: URL) throws -> [String: Data] {
        let stack = try SQLiteTestStack(model: makeModel(), url: url)
        defer { stack.close() }
        return try stack.context.performAndWait {
            var values: [String: Data] = [:]
            for name in names {
                values[name] = try document(named: name, in: stack.context)?.value(forKey: "blob") as? Data
            }
            return values
        }
    }

    /// Leaves in the external data folder what a process stopped mid-save leaves there, and a file
    /// that is not the store's; returns the names.
    private func leaveLeftovers(for url: URL) throws -> (leftovers: [String], foreign: String) {
        let folder = externalDirectory(url)
        let leftovers = [
            UUID().uuidString,                    // written by a save that never committed
            UUID().uuidString + ".partial",       // a write cut short
            ".dat.nosync1F2E.a1B2c3",             // a temporary file of Foundation's atomic write
        ]
        for name in leftovers {
            try Data(name.utf8).write(to: folder.appendingPathComponent(name))
        }
        let foreign = "README.txt"
        try Data("not the store's".utf8).write(to: folder.appendingPathComponent(foreign))
        return (leftovers, foreign)
    }

    @Test("opening a store removes the external files no row refers to and unfinished writes, and keeps the others")
    func openingRemovesUnreferencedFiles() throws {
        let directory = try SQLiteScratchDirectory("external-leftovers")
        defer { directory.remove() }
        let url = directory.file("Docs.sqlite")
        try writeDocuments(["a": 40, "b": 41], to: url)
        let referenced = externalFiles(url)
        #expect(referenced.count == 2)
        let (leftovers, foreign) = try leaveLeftovers(for: url)
        #expect(externalFiles(url).count == 6)

        let read = try values(["a", "b"], at: url)
        #expect(externalFiles(url) == (referenced + [foreign]).sorted())
        #expect(Set(externalFiles(url)).isDisjoint(with: leftovers))
        #expect(read["a"] == largeValue(seed: 40))
        #expect(read["b"] == largeValue(seed: 41))
    }

    @Test("a store whose support folder another store shares keeps every external file")
    func aSharedSupportFolderIsLeftAlone() throws {
        let directory = try SQLiteScratchDirectory("external-leftovers-shared")
        defer { directory.remove() }
        let url = directory.file("Docs.sqlite")
        try writeDocuments(["a": 43], to: url)
        try writeDocuments(["b": 44], to: directory.file("Docs.db"))
        let both = externalFiles(url)
        #expect(both.count == 2, "Docs.sqlite and Docs.db keep their data in .Docs_SUPPORT")
        let read = try values(["a"], at: url)
        #expect(read["a"] == largeValue(seed: 43))
        #expect(externalFiles(url) == both, "the file of Docs.db, which Docs.sqlite does not refer to, stays")
    }

    @Test("a store opened read-only keeps every external file")
    func readOnlyOpeningRemovesNothing() throws {
        let directory = try SQLiteScratchDirectory("external-leftovers-read-only")
        defer { directory.remove() }
        let url = directory.file("Docs.sqlite")
        try writeDocuments(["a": 42], to: url)
        _ = try leaveLeftovers(for: url)
        let before = externalFiles(url)
        let stack = try SQLiteTestStack(model: makeModel(), url: url, options: [NSReadOnlyPersistentStoreOption: true])
        stack.close()
        #expect(externalFiles(url) == before)
    }

    @Test("the files of a save a crash interrupted are removed when the store is opened again, and every committed one stays")
    func filesOfAnInterruptedSaveAreRemoved() throws {
        let directory = try SQLiteScratchDirectory("external-crash")
        let image = try SQLiteScratchDirectory("external-crash-image")
        defer {
            directory.remove()
            image.remove()
        }
        let url = directory.file("Docs.sqlite")
        let imageURL = image.file("Docs.sqlite")
        try writeDocuments(["kept": 50, "replaced": 51], to: url)
        let committed = externalFiles(url)

        // Copies the files as they are on disk in the middle of a save whose files are written:
        // what a process killed at that moment leaves.
        let stack = try SQLiteTestStack(model: makeModel(), url: url)
        defer { stack.close() }
        let store = try #require(stack.store as? SQLiteStore)
        var copied = false
        store.statementObserver = { sql in
            guard !copied, sql.hasPrefix("UPDATE ZDOCUMENT") else { return }
            copied = true
            let manager = FileManager.default
            for name in ["Docs.sqlite", "Docs.sqlite-wal", ".Docs_SUPPORT"] where manager.fileExists(atPath: directory.file(name).path) {
                try? manager.copyItem(at: directory.file(name), to: image.file(name))
            }
        }
        try stack.context.performAndWait {
            try #require(try document(named: "replaced", in: stack.context)).setValue(largeValue(seed: 52), forKey: "blob")
            let added = NSEntityDescription.insertNewObject(forEntityName: "Document", into: stack.context)
            added.setValue("added", forKey: "name")
            added.setValue(largeValue(seed: 53), forKey: "blob")
            try stack.context.save()
        }
        store.statementObserver = nil
        #expect(copied)
        #expect(externalFiles(imageURL).count == 4, "the copy holds the committed files and the save's two new ones")

        let read = try values(["kept", "replaced", "added"], at: imageURL)
        #expect(externalFiles(imageURL) == committed)
        #expect(read["kept"] == largeValue(seed: 50))
        #expect(read["replaced"] == largeValue(seed: 51))
        #expect(read["added"] == nil)
    }

    @Test("a coordinator that opens the store while another saves leaves that save's files alone")
    func openingDuringAnotherSaveKeepsItsFiles() throws {
        let directory = try SQLiteScratchDirectory("external-concurrent-open")
        defer { directory.remove() }
        let url = directory.file("Docs.sqlite")
        try writeDocuments(["first": 60], to: url)

        let writer = try SQLiteTestStack(model: makeModel(), url: url)
        defer { writer.close() }
        let store = try #require(writer.store as? SQLiteStore)
        var opened: SQLiteTestStack?
        store.statementObserver = { sql in
            guard opened == nil, sql.hasPrefix("UPDATE ZDOCUMENT") else { return }
            // The save's new files are written and it holds SQLite's write lock until it commits.
            opened = try? SQLiteTestStack(model: makeModel(), url: url)
        }
        try writer.context.performAndWait {
            try #require(try document(named: "first", in: writer.context)).setValue(largeValue(seed: 61), forKey: "blob")
            let second = NSEntityDescription.insertNewObject(forEntityName: "Document", into: writer.context)
            second.setValue("second", forKey: "name")
            second.setValue(largeValue(seed: 62), forKey: "blob")
            try writer.context.save()
        }
        store.statementObserver = nil
        #expect(opened != nil, "the store opens while another coordinator saves")
        opened?.close()

        let read = try values(["first", "second"], at: url)
        #expect(read["first"] == largeValue(seed: 61))
        #expect(read["second"] == largeValue(seed: 62))
        #expect(externalFiles(url).count == 2)
    }

    @Test("a large value on a full disk makes the save throw 640 (out of space) and leaves no file behind", .enabled(if: ScratchFileSystem.canMount, ScratchFileSystem.skipReason))
    func fullDisk() throws {
        let volume = try ScratchFileSystem(kibibytes: 1024)
        defer { volume.unmount() }
        let url = volume.file("Docs.sqlite")
        let stack = try SQLiteTestStack(model: makeModel(), url: url)
        defer { stack.close() }
        let caught = stack.context.performAndWait { () -> NSError? in
            let small = NSEntityDescription.insertNewObject(forEntityName: "Document", into: stack.context)
            small.setValue("small", forKey: "name")
            small.setValue(Data([1, 2, 3]), forKey: "blob")
            let large = NSEntityDescription.insertNewObject(forEntityName: "Document", into: stack.context)
            large.setValue("large", forKey: "name")
            large.setValue(largeValue(seed: 70), forKey: "blob")   // 2 MB, on a 1 MB disk
            return ctxError { try stack.context.save() }
        }
        let error = try #require(caught, "the save must fail")
        #expect(error.domain == NSCocoaErrorDomain)
        #expect(error.code == NSFileWriteOutOfSpaceError, "\(error)")
        #expect(externalFiles(url).isEmpty, "no file, whole or in part, stays")
        #expect(try RawStoreSQL.value(url, "SELECT COUNT(Z_PK) FROM ZDOCUMENT")?.integer == 0)
    }
}
