@testable import CoreData
import Testing

/// Store metadata (spec/store-format.md §2.2 Z_METADATA, §3.3, §3.4; semantics.md MIG-5, MOC-21).
@Suite("SQLite store metadata")
struct SQLiteMetadataTests {
    private func makeModel() -> NSManagedObjectModel {
        let model = MovieModel.make()
        model.versionIdentifiers = ["2.101.0"]
        return model
    }

    /// The raw Z_METADATA row: (Z_VERSION, Z_UUID, Z_PLIST).
    private func metadataRows(_ url: URL) throws -> [[SQLValue]] {
        try RawStoreSQL.rows(url, "SELECT Z_VERSION, Z_UUID, Z_PLIST FROM Z_METADATA")
    }

    private func plist(_ data: Data) throws -> [String: Any] {
        try #require(try PropertyListSerialization.propertyList(from: data, options: [], format: nil) as? [String: Any])
    }

    private func hashes(_ value: Any?) -> [String: Data]? {
        if let dictionary = value as? [String: Data] { return dictionary }
        guard let dictionary = value as? NSDictionary else { return nil }
        var result: [String: Data] = [:]
        for (key, value) in dictionary {
            guard let key = key as? String else { return nil }
            if let data = value as? Data { result[key] = data } else if let data = value as? NSData { result[key] = Data(referencing: data) } else { return nil }
        }
        return result
    }

    @Test("Z_METADATA: one row, Z_VERSION 1, uppercase UUID, binary plist with Apple's keys")
    func metadataRow() throws {
        let directory = try SQLiteScratchDirectory("metadata")
        defer { directory.remove() }
        let url = directory.file("Movies.sqlite")
        let model = makeModel()
        let stack = try SQLiteTestStack(model: model, url: url)
        defer { stack.close() }

        let rows = try metadataRows(url)
        #expect(rows.count == 1)
        let row = try #require(rows.first)
        #expect(row[0] == .integer(1))
        let uuid = try #require(row[1].text)
        #expect(UUID(uuidString: uuid) != nil)
        #expect(uuid == uuid.uppercased())
        #expect(uuid.count == 36)

        let data = try #require(row[2].blob)
        #expect(data.starts(with: Array("bplist00".utf8)), "Z_PLIST is a binary property list")
        var format = PropertyListSerialization.PropertyListFormat.xml
        _ = try PropertyListSerialization.propertyList(from: data, options: [], format: &format)
        #expect(format == .binary)

        let metadata = try plist(data)
        #expect(metadata["NSStoreType"] as? String == "SQLite")
        #expect((metadata["NSPersistenceFrameworkVersion"] as? NSNumber)?.intValue ?? 0 > 0)
        #expect((metadata["NSStoreModelVersionHashesVersion"] as? NSNumber)?.intValue == 3)
        #expect(hashes(metadata["NSStoreModelVersionHashes"]) == model.entityVersionHashesByName)
        #expect((metadata["NSStoreModelVersionIdentifiers"] as? [Any])?.compactMap { $0 as? String } == ["2.101.0"])
        let expectedHashes = model.entityVersionHashesByName
        #expect(metadata["NSStoreModelVersionHashesDigest"] as? String == VersionHash.modelDigest(expectedHashes))
        #expect((metadata["NSStoreModelVersionHashesDigest"] as? String)?.count == 88)
        #expect(metadata["NSStoreModelVersionChecksumKey"] as? String == VersionHash.modelChecksum(expectedHashes))
        #expect((metadata["NSStoreModelVersionChecksumKey"] as? String)?.count == 44)
        #expect(metadata["_NSAutoVacuumLevel"] as? String == "2")
        #expect(metadata["NSStoreUUID"] == nil, "the UUID lives only in Z_UUID")
    }

    @Test("a model without version identifiers writes an empty NSStoreModelVersionIdentifiers array")
    func emptyVersionIdentifiers() throws {
        let directory = try SQLiteScratchDirectory("metadata-ids")
        defer { directory.remove() }
        let url = directory.file("Movies.sqlite")
        let stack = try SQLiteTestStack(model: MovieModel.make(), url: url)
        defer { stack.close() }
        let data = try #require(try metadataRows(url).first?[2].blob)
        let identifiers = try plist(data)["NSStoreModelVersionIdentifiers"] as? [Any]
        #expect(identifiers != nil)
        #expect(identifiers?.isEmpty == true)
    }

    @Test("metadataForPersistentStore returns the plist keys plus NSStoreUUID and NSStoreType, and leaves the file alone")
    func metadataForPersistentStore() throws {
        let directory = try SQLiteScratchDirectory("metadata-read")
        defer { directory.remove() }
        let url = directory.file("Movies.sqlite")
        let model = makeModel()
        let uuid: String
        do {
            let stack = try SQLiteTestStack(model: model, url: url)
            uuid = try #require(stack.store.identifier)
            try stack.context.performAndWait {
                NSEntityDescription.insertNewObject(forEntityName: "Movie", into: stack.context).setValue("Alien", forKey: "title")
                try stack.context.save()
            }
            stack.close()
        }
        let before = try #require(StoreFileProbe.bytes(url))

        let metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url, options: nil)
        #expect(metadata[NSStoreUUIDKey] as? String == uuid)
        #expect(metadata[NSStoreTypeKey] as? String == NSSQLiteStoreType)
        #expect(hashes(metadata[NSStoreModelVersionHashesKey]) == model.entityVersionHashesByName)
        #expect((metadata["NSStoreModelVersionHashesVersion"] as? NSNumber)?.intValue == 3)
        #expect((metadata[NSStoreModelVersionIdentifiersKey] as? [Any])?.compactMap { $0 as? String } == ["2.101.0"])
        #expect(metadata["NSStoreModelVersionHashesDigest"] as? String == VersionHash.modelDigest(model.entityVersionHashesByName))
        #expect(metadata["NSStoreModelVersionChecksumKey"] as? String == VersionHash.modelChecksum(model.entityVersionHashesByName))
        #expect(metadata["_NSAutoVacuumLevel"] as? String == "2")
        #expect(model.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata))

        #expect(StoreFileProbe.bytes(url) == before, "reading metadata must not modify the store file")
    }

    @Test("the coordinator's metadata(for:) matches the file and the store identifier")
    func coordinatorMetadata() throws {
        let directory = try SQLiteScratchDirectory("metadata-coordinator")
        defer { directory.remove() }
        let url = directory.file("Movies.sqlite")
        let model = makeModel()
        let stack = try SQLiteTestStack(model: model, url: url)
        defer { stack.close() }
        let metadata = stack.coordinator.metadata(for: stack.store)
        let zuuid = try #require(try metadataRows(url).first?[1].text)
        #expect(metadata[NSStoreUUIDKey] as? String == zuuid)
        #expect(stack.store.identifier == zuuid)
        #expect(metadata[NSStoreTypeKey] as? String == NSSQLiteStoreType)
        #expect(hashes(metadata[NSStoreModelVersionHashesKey]) == model.entityVersionHashesByName)
        #expect(stack.store.type == NSSQLiteStoreType)
    }

    @Test("uriRepresentation: x-coredata://<Z_UUID>/<Entity>/p<Z_PK>")
    func uriRepresentation() throws {
        let directory = try SQLiteScratchDirectory("metadata-uri")
        defer { directory.remove() }
        let url = directory.file("Movies.sqlite")
        let stack = try SQLiteTestStack(model: makeModel(), url: url)
        defer { stack.close() }
        let (uri, temporary) = try stack.context.performAndWait {
            let movie = NSEntityDescription.insertNewObject(forEntityName: "Movie", into: stack.context)
            movie.setValue("Alien", forKey: "title")
            let temporary = movie.objectID.uriRepresentation()
            try stack.context.save()
            return (movie.objectID.uriRepresentation(), temporary)
        }
        let zuuid = try #require(try metadataRows(url).first?[1].text)
        let zpk = try #require(try RawStoreSQL.value(url, "SELECT Z_PK FROM ZMOVIE")?.integer)
        #expect(uri.scheme == "x-coredata")
        #expect(uri.host == zuuid)
        #expect(uri.path == "/Movie/p\(zpk)")
        #expect(temporary.host == nil || temporary.host == "")
        #expect(stack.coordinator.managedObjectID(forURIRepresentation: uri)?.uriRepresentation() == uri)
    }

    @Test("the store UUID is stable across reopen")
    func uuidStable() throws {
        let directory = try SQLiteScratchDirectory("metadata-uuid")
        defer { directory.remove() }
        let url = directory.file("Movies.sqlite")
        let model = makeModel()
        let first = try SQLiteTestStack(model: model, url: url)
        let uuid = first.store.identifier
        first.close()
        let second = try SQLiteTestStack(model: model, url: url)
        defer { second.close() }
        #expect(second.store.identifier == uuid)
        #expect(second.coordinator.metadata(for: second.store)[NSStoreUUIDKey] as? String == uuid)
    }

    @Test("setMetadata(_:for:) + save persists application keys across reopen")
    func applicationMetadataPersists() throws {
        let directory = try SQLiteScratchDirectory("metadata-app")
        defer { directory.remove() }
        let url = directory.file("Movies.sqlite")
        let model = makeModel()
        let uuid: String?
        do {
            let stack = try SQLiteTestStack(model: model, url: url)
            uuid = stack.store.identifier
            var metadata = stack.coordinator.metadata(for: stack.store)
            metadata["lastSavedVersion"] = "3.1"
            metadata["didImport"] = true
            metadata["counts"] = [1, 2, 3]
            stack.coordinator.setMetadata(metadata, for: stack.store)
            #expect(stack.coordinator.metadata(for: stack.store)["lastSavedVersion"] as? String == "3.1")
            try stack.context.performAndWait {
                NSEntityDescription.insertNewObject(forEntityName: "Movie", into: stack.context).setValue("Alien", forKey: "title")
                try stack.context.save()
            }
            stack.close()
        }
        let onDisk = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url, options: nil)
        #expect(onDisk["lastSavedVersion"] as? String == "3.1")
        #expect((onDisk["didImport"] as? NSNumber)?.boolValue == true)
        #expect((onDisk["counts"] as? [Any])?.compactMap { ($0 as? NSNumber)?.intValue } == [1, 2, 3])

        let stack = try SQLiteTestStack(model: model, url: url)
        defer { stack.close() }
        let reopened = stack.coordinator.metadata(for: stack.store)
        #expect(reopened["lastSavedVersion"] as? String == "3.1")
        #expect(reopened[NSStoreUUIDKey] as? String == uuid)
        #expect(hashes(reopened[NSStoreModelVersionHashesKey]) == model.entityVersionHashesByName)
    }

    @Test("keys the library does not know survive a metadata rewrite")
    func unknownKeysKept() throws {
        let directory = try SQLiteScratchDirectory("metadata-unknown")
        defer { directory.remove() }
        let url = directory.file("Movies.sqlite")
        let model = makeModel()
        let foreignDate = Date(timeIntervalSinceReferenceDate: 700_000_000)
        do {
            let stack = try SQLiteTestStack(model: model, url: url)
            stack.close()
        }
        // Another writer (e.g. Apple's Core Data or an app) put keys into the file.
        try NSPersistentStoreCoordinator.setMetadata(
            ["com.example.sync": ["token": Data([1, 2, 3]), "when": foreignDate] as [String: Any], "NSPersistentStoreOSCompatibility": 1500],
            forPersistentStoreOfType: NSSQLiteStoreType, at: url, options: nil
        )
        do {
            let stack = try SQLiteTestStack(model: model, url: url)
            var metadata = stack.coordinator.metadata(for: stack.store)
            metadata["appKey"] = "value"
            stack.coordinator.setMetadata(metadata, for: stack.store)
            try stack.context.performAndWait {
                NSEntityDescription.insertNewObject(forEntityName: "Movie", into: stack.context).setValue("Heat", forKey: "title")
                try stack.context.save()
            }
            stack.close()
        }
        let onDisk = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url, options: nil)
        #expect(onDisk["appKey"] as? String == "value")
        #expect((onDisk["NSPersistentStoreOSCompatibility"] as? NSNumber)?.intValue == 1500)
        let sync = onDisk["com.example.sync"] as? [String: Any]
        #expect(sync?["token"] as? Data == Data([1, 2, 3]))
        #expect(sync?["when"] as? Date == foreignDate)
        #expect(onDisk["_NSAutoVacuumLevel"] as? String == "2")
        #expect(model.isConfiguration(withName: nil, compatibleWithStoreMetadata: onDisk))
    }
}
