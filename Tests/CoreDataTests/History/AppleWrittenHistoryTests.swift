@testable import CoreData
import Foundation
import Testing

// The persistent history of the iOS Notes app's store, written by Apple's Core Data (framework
// 977), read back: `NoteStoreHistory.sqlite` is that store with its notes removed and its history
// cut to 288 transactions, `NoteStore.xcdatamodel` the model its Z_MODELCACHE holds
// (AppleStores/README.md says how both were made). Every expected value below was read from the
// fixture with Python's sqlite3 module, not with this library.

/// The fixture copied into a scratch directory, so that no test changes the committed file.
private struct NoteStoreFixture {
    let directory: SQLiteScratchDirectory
    let url: URL
    let model: NSManagedObjectModel

    static var historyOptions: [AnyHashable: Any] { [NSPersistentHistoryTrackingKey: true, NSReadOnlyPersistentStoreOption: true] }

    init() throws {
        let fixtures = try #require(Bundle.module.url(forResource: "AppleStores", withExtension: nil))
        directory = try SQLiteScratchDirectory("apple-history")
        url = directory.file("NoteStore.sqlite")
        try FileManager.default.copyItem(at: fixtures.appendingPathComponent("NoteStoreHistory.sqlite"), to: url)
        model = try NSManagedObjectModel(validatingContentsOf: fixtures.appendingPathComponent("NoteStore.xcdatamodel"))
    }

    /// Opens the copy with `options`, runs `body` with the stack, and closes it.
    func open<T>(options: [AnyHashable: Any] = historyOptions, _ body: (SQLiteTestStack) throws -> T) throws -> T {
        let stack = try SQLiteTestStack(model: model, url: url, options: options)
        defer { stack.close() }
        return try body(stack)
    }
}

private extension SQLiteTestStack {
    /// The transactions after a token (all of them for nil), with their changes.
    func history(after token: NSPersistentHistoryToken? = nil) throws -> [NSPersistentHistoryTransaction] {
        try context.performAndWait {
            let result = try context.execute(NSPersistentHistoryChangeRequest.fetchHistory(after: token)) as? NSPersistentHistoryResult
            return try #require(result?.result as? [NSPersistentHistoryTransaction])
        }
    }
}

private extension [NSPersistentHistoryTransaction] {
    /// The change with a change ID (`ACHANGE.Z_PK`).
    func change(_ changeID: Int64) throws -> NSPersistentHistoryChange {
        try #require(lazy.compactMap(\.changes).joined().first { $0.changeID == changeID })
    }
}

private extension NSPersistentHistoryChange {
    var entityAndKey: String { "\(changedObjectID.entity.name ?? "?") \(changedObjectID.primaryKey ?? -1)" }
    var updatedNames: Set<String>? { updatedProperties.map { Set($0.map(\.name)) } }
}

@Suite("A persistent history written by Apple's Core Data")
struct AppleWrittenHistoryTests {
    static let migrationAuthor = "com.apple.coredata.schemamigrator: lightweight migration from model with digest { Dv3/j6Celip+JhbQx4PhkQmbx0JlJ0da+nMiXHTpNFnLuhXycQdakAfyWrIn/wyAkq27iiMn5SHTsXsHVflKJw== }"

    @Test("the model read from Z_MODELCACHE has the store's entity numbers and version hashes")
    func theModelIsTheStoresModel() throws {
        let fixture = try NoteStoreFixture()
        defer { fixture.directory.remove() }
        let metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: fixture.url)
        #expect(fixture.model.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata))
        #expect(metadata[NSStoreModelVersionHashesKey] as? [String: Data] == fixture.model.entityVersionHashesByName)
        // The digest the lightweight migration's transaction names as its author.
        let digest = VersionHash.modelDigest(fixture.model.entityVersionHashesByName)
        #expect(metadata["NSStoreModelVersionHashesDigest"] as? String == digest)
        #expect(Self.migrationAuthor.contains("{ \(digest) }"))
        let numbered = try RawStoreSQL.rows(fixture.url, "SELECT Z_NAME, Z_ENT FROM Z_PRIMARYKEY WHERE Z_ENT < 16000")
        let stored = Dictionary(uniqueKeysWithValues: numbered.map { ($0[0].text ?? "", $0[1].integer ?? 0) })
        #expect(stored.count == 16)
        #expect(SQLSchema.appleNumbering(fixture.model.entities) == stored)
    }

    @Test("every transaction reads back with Apple's strings, timestamps and changes")
    func transactionsReadBack() throws {
        let fixture = try NoteStoreFixture()
        defer { fixture.directory.remove() }
        try fixture.open { stack in
            #expect(stack.store.isReadOnly)
            let transactions = try stack.history()
            #expect(transactions.count == 288)
            #expect(transactions.map(\.transactionNumber) == Array(1...200) + [1288] + Array(8800...8886))
            let changes = transactions.compactMap(\.changes).joined()
            #expect(changes.count == 607)
            #expect(changes.filter { $0.changeType == .insert }.count == 28)
            #expect(changes.filter { $0.changeType == .update }.count == 549)
            #expect(changes.filter { $0.changeType == .delete }.count == 30)
            #expect(transactions.allSatisfy { $0.storeID == stack.store.identifier })
            #expect(transactions.filter { $0.bundleID == "com.apple.Notes" }.count == 286)
            #expect(transactions.filter { $0.author == nil }.count == 195)
            #expect(transactions.filter { $0.contextName == nil }.count == 196)
            #expect(transactions.filter { $0.author == "1803" }.count == 75)

            let first = transactions[0]
            #expect(first.bundleID == "com.apple.accountsd")
            #expect(first.processID == "accountsd")
            #expect(first.author == nil)
            #expect(first.contextName == nil)
            #expect(first.timestamp == Date(timeIntervalSinceReferenceDate: 615700084.515615))
            #expect(first.changes?.map(\.changeType) == Array(repeating: .insert, count: 8))
            #expect(first.changes?.map(\.entityAndKey) == [
                "ICCloudState 3", "ICAccount 4", "ICCloudState 2", "ICCloudState 1",
                "ICDeviceMigrationState 1", "ICFolder 3", "ICCloudState 4", "ICFolder 2",
            ])
            #expect(first.changes?.allSatisfy { $0.updatedProperties == nil && $0.tombstone == nil } == true)

            let second = transactions[1]
            #expect(second.bundleID == "com.apple.Notes")
            #expect(second.processID == "Notes")
            #expect(second.author == "1803")
            #expect(second.contextName == "ViewContext")
            #expect(second.changes?.map(\.changeType) == [.insert, .insert, .insert, .update, .update])
            #expect(second.changes?.map(\.entityAndKey) == ["ICCloudState 5", "ICNote 5", "ICNoteData 1", "ICFolder 3", "ICAccount 4"])

            let migration = try #require(transactions.first { $0.transactionNumber == 1288 })
            #expect(migration.author == Self.migrationAuthor)
            #expect(migration.bundleID == "com.apple.accountsd")
            #expect(migration.processID == "accountsd")
            #expect(migration.contextName == nil)
            #expect(migration.timestamp == Date(timeIntervalSinceReferenceDate: 615715403.650035))
            #expect(migration.changes?.isEmpty == true)

            let deletes = try #require(transactions.first { $0.transactionNumber == 26 }?.changes)
            #expect(deletes.map(\.changeType) == [.insert, .insert, .update, .update, .delete, .delete, .delete, .delete, .delete, .delete])
            #expect(deletes.suffix(6).map(\.entityAndKey) == ["ICCloudState 9", "ICAccount 9", "ICFolder 8", "ICCloudState 8", "ICFolder 7", "ICCloudState 7"])
            #expect(deletes.suffix(6).allSatisfy { $0.updatedProperties == nil })
        }
    }

    /// The `ZCOLUMNS` bitmaps of updates, each read as the properties it names. The names follow
    /// from what Notes does (a sync stores the CloudKit record; an edit dates the note), and the
    /// dates the full store keeps match the transactions that set them.
    @Test("the updated-properties bitmaps name what Notes changed", arguments: [
        (53, "ICCloudState 5", ["currentLocalVersion", "localVersionDate"]),  // 0x24
        (35, "ICCloudState 1", ["latestVersionSyncedToCloud"]),  // 0x08
        (39, "ICCloudState 2", ["inCloud", "latestVersionSyncedToCloud"]),  // 0x18
        (98, "ICNoteData 2", ["data"]),  // 0x10
        (41, "ICServerChangeToken 2", ["ckServerChangeTokenData"]),  // 0x40
        (19539, "ICNote 149", ["modificationDate"]),  // bit 39
        (38, "ICNote 5", ["identifier", "needsToSaveUserSpecificRecord", "userSpecificServerRecordData"]),  // bits 13, 19, 24
        (75, "ICNote 5", ["folder", "identifier", "markedForDeletion", "needsToSaveUserSpecificRecord", "folderModificationDate"]),
        (19592, "ICNote 149", ["attachments"]),  // bit 49, a to-many
        (19637, "ICFolder 10", ["parent", "parentModificationDate"]),  // bits 3, 35
        (19638, "ICFolder 35", ["children"]),  // bit 37
        (15, "ICAccount 4", ["identifier", "folders"]),  // bits 11, 37
        (19621, "ICAttachment 151", ["previewUpdateDate"]),  // bit 60
        (19629, "ICAttachment 151", ["serverRecordData"]),  // bit 22: six to-ones come first
        (19622, "ICAttachmentPreviewImage 153", ["modifiedDate"]),  // bit 29
        (19653, "ICAccountData 14", ["serverRecordData"]),  // bit 18: two to-ones come first
        (40, "ICDeviceMigrationState 1", ["identifier", "serverRecordData"]),  // bits 10, 18
    ] as [(Int64, String, Set<String>)])
    func updatedProperties(changeID: Int64, object: String, names: Set<String>) throws {
        let fixture = try NoteStoreFixture()
        defer { fixture.directory.remove() }
        try fixture.open { stack in
            let change = try stack.history().change(changeID)
            #expect(change.changeType == .update)
            #expect(change.entityAndKey == object)
            #expect(change.updatedNames == names)
        }
    }

    /// Updates saved here on Notes' model get the bitmaps Apple wrote for the same changes:
    /// `ICAccount.accountData` is bit 2 (after the inherited `cloudState` and `owner`), as in
    /// Apple's transaction 2218 (`2000000008C0`, with three to-many relationships).
    @Test("updates saved on Notes' model record Apple's bitmaps")
    func writtenBitmapsAreApples() throws {
        let fixture = try NoteStoreFixture()
        defer { fixture.directory.remove() }
        let objects = try fixture.open(options: [NSPersistentHistoryTrackingKey: true]) { stack in
            let context = stack.context
            return try context.performAndWait {
                let account = NSEntityDescription.insertNewObject(forEntityName: "ICAccount", into: context)
                account.setValue(account, forKey: "owner")
                let accountData = NSEntityDescription.insertNewObject(forEntityName: "ICAccountData", into: context)
                let cloudState = NSEntityDescription.insertNewObject(forEntityName: "ICCloudState", into: context)
                try context.save()
                accountData.setValue(account, forKey: "account")
                cloudState.setValue(3, forKey: "currentLocalVersion")
                cloudState.setValue(Date(), forKey: "localVersionDate")
                try context.save()
                return [account, accountData, cloudState].map(\.objectID)
            }
        }
        let updates = try RawStoreSQL.rows(fixture.url, "SELECT ZENTITYPK, ZCOLUMNS FROM ACHANGE WHERE ZTRANSACTIONID = 8888 ORDER BY ZENTITY")
        // ICCloudState (1), ICAccountData (3), ICAccount (11).
        #expect(updates.map { $0[0].integer } == [objects[2].primaryKey, objects[1].primaryKey, objects[0].primaryKey])
        #expect(updates.map { $0[1].blob } == [Data([0x24]), Data([0x40, 0x00, 0x00]), Data([0x20, 0x00, 0x00, 0x00, 0x00, 0x00])])
    }

    @Test("a transaction's token reads what follows it, across the purged gaps, and survives archiving")
    func tokens() throws {
        let fixture = try NoteStoreFixture()
        defer { fixture.directory.remove() }
        try fixture.open { stack in
            let transactions = try stack.history()
            let migration = try #require(transactions.first { $0.transactionNumber == 1288 })
            let data = try NSKeyedArchiver.archivedData(withRootObject: migration.token, requiringSecureCoding: true)
            let token = try #require(try NSKeyedUnarchiver.unarchivedObject(ofClass: NSPersistentHistoryToken.self, from: data))
            #expect(token == migration.token)
            let after = try stack.history(after: token)
            #expect(after.map(\.transactionNumber) == Array(8800...8886))
            #expect(after.compactMap(\.changes).joined().count == 158)
            let last = try #require(after.last)
            #expect(try stack.history(after: last.token).isEmpty)
            let current = try #require(stack.coordinator.currentPersistentHistoryToken(fromStores: nil))
            #expect(current == last.token)
        }
    }

    @Test("without NSPersistentHistoryTrackingKey the store opens read-only, as Apple's does")
    func withoutTheOptionTheStoreIsReadOnly() throws {
        let fixture = try NoteStoreFixture()
        defer { fixture.directory.remove() }
        try fixture.open(options: [:]) { stack in
            #expect(stack.store.isReadOnly)
        }
    }

    @Test("opening it for writing with history keeps Apple's _NSStoreAncillaryModelVersionHashesMetadataKey")
    func writingKeepsApplesAncillaryHashes() throws {
        let fixture = try NoteStoreFixture()
        defer { fixture.directory.remove() }
        let key = "_NSStoreAncillaryModelVersionHashesMetadataKey"
        let before = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: fixture.url)
        let apples = try #require(before[key] as? [String: [String: Data]])
        #expect(apples[NSPersistentHistoryTrackingKey]?.keys.sorted() == ["CHANGE", "TRANSACTION", "TRANSACTIONSTRING"])
        try fixture.open(options: [NSPersistentHistoryTrackingKey: true]) { stack in
            #expect(!stack.store.isReadOnly)
            let transactions = try stack.history()
            #expect(transactions.count == 288)
        }
        let after = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: fixture.url)
        #expect(after[key] as? [String: [String: Data]] == apples)
    }
}
