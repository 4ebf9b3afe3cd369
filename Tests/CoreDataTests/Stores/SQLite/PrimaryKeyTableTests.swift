@testable import CoreData
import Testing

/// A damaged Z_PRIMARYKEY table is refused with an error and the file left unchanged.
@Suite("SQLite store: Z_PRIMARYKEY damage")
struct PrimaryKeyTableTests {
    @Test("invalid entity numbers, or an entity listed twice, make opening fail with 134080", arguments: [
        "UPDATE Z_PRIMARYKEY SET Z_ENT = -7 WHERE Z_NAME = 'Movie'",
        "UPDATE Z_PRIMARYKEY SET Z_ENT = 3000000000 WHERE Z_NAME = 'Movie'",
        "INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (4000, 'Movie', 0, 0)",
    ])
    func invalidEntityNumbers(damage: String) throws {
        let directory = try SQLiteScratchDirectory("primarykey-damage")
        defer { directory.remove() }
        let url = directory.file("Movies.sqlite")
        try SQLiteTestStack(model: MovieModel.make(), url: url).close()
        let connection = try SQLiteConnection(path: url.path, readOnly: false, create: false)
        try connection.execute(damage)
        try connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        connection.close()
        let before = StoreFileProbe.bytes(url)
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: MovieModel.make())
        #expect {
            try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url, options: [NSIgnorePersistentStoreVersioningOption: true])
        } throws: { ($0 as NSError).code == NSPersistentStoreOpenError }
        #expect(StoreFileProbe.bytes(url) == before)
    }
}
