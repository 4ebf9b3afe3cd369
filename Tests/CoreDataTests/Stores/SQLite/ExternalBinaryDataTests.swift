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
}
