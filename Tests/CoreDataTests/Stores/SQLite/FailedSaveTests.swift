@testable import CoreData
import Testing

/// A save that fails validation writes nothing and leaves the context dirty (semantics.md MOC-14, MOC-15).
@Suite("Failed saves leave the SQLite store untouched")
struct FailedSaveTests {
    @Test("a validation failure leaves the .sqlite and -wal bytes and the rows unchanged, and the context dirty")
    func validationFailure() throws {
        let directory = try SQLiteScratchDirectory("failed-save")
        defer { directory.remove() }
        let url = directory.file("Movies.sqlite")
        let stack = try SQLiteTestStack(model: MovieModel.make(), url: url)
        defer { stack.close() }
        let alien = try stack.context.performAndWait {
            let movie = NSEntityDescription.insertNewObject(forEntityName: "Movie", into: stack.context)
            movie.setValue("Alien", forKey: "title")
            movie.setValue(1979, forKey: "year")
            try stack.context.save()
            return movie
        }
        let wal = StoreFileProbe.sidecar(url, "-wal")
        let mainBefore = StoreFileProbe.bytes(url)
        let walBefore = StoreFileProbe.bytes(wal)
        let rowsBefore = try RawStoreSQL.rows(url, "SELECT Z_PK, Z_OPT, ZTITLE, ZYEAR FROM ZMOVIE ORDER BY Z_PK")
        let zmaxBefore = try RawStoreSQL.rows(url, "SELECT Z_ENT, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT")

        let (untitled, caught) = stack.context.performAndWait { () -> (NSManagedObject, NSError?) in
            alien.setValue(1980, forKey: "year")                 // a valid update…
            let untitled = NSEntityDescription.insertNewObject(forEntityName: "Movie", into: stack.context)
            untitled.setValue(2000, forKey: "year")              // …and an insert missing its required title
            do {
                try stack.context.save()
                return (untitled, nil)
            } catch {
                return (untitled, error as NSError)
            }
        }
        let error = try #require(caught, "the save must fail")
        #expect(error.domain == NSCocoaErrorDomain)
        #expect(error.code == NSValidationMissingMandatoryPropertyError)
        #expect(error.userInfo[NSValidationKeyErrorKey] as? String == "title")

        #expect(StoreFileProbe.bytes(url) == mainBefore, "the .sqlite file must not change")
        #expect(StoreFileProbe.bytes(wal) == walBefore, "the -wal file must not change")
        #expect(try RawStoreSQL.rows(url, "SELECT Z_PK, Z_OPT, ZTITLE, ZYEAR FROM ZMOVIE ORDER BY Z_PK") == rowsBefore)
        #expect(try RawStoreSQL.rows(url, "SELECT Z_ENT, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT") == zmaxBefore)

        stack.context.performAndWait {
            #expect(stack.context.hasChanges)
            #expect(stack.context.insertedObjects.contains(untitled))
            #expect(stack.context.updatedObjects.contains(alien))
            #expect(untitled.isInserted)
            #expect(untitled.objectID.isTemporaryID)
            #expect((alien.value(forKey: "year") as? NSNumber)?.intValue == 1980)
        }

        // Fixing the problem lets the same changes save.
        try stack.context.performAndWait {
            untitled.setValue("Aliens", forKey: "title")
            try stack.context.save()
            #expect(!stack.context.hasChanges)
        }
        #expect(try RawStoreSQL.value(url, "SELECT COUNT(Z_PK) FROM ZMOVIE")?.integer == 2)
        #expect(try RawStoreSQL.value(url, "SELECT ZYEAR FROM ZMOVIE WHERE ZTITLE = 'Alien'")?.integer == 1980)
    }

    @Test("several validation failures give 1560 with the individual errors, and nothing is written")
    func multipleValidationFailures() throws {
        let directory = try SQLiteScratchDirectory("failed-save-multiple")
        defer { directory.remove() }
        let url = directory.file("Movies.sqlite")
        let stack = try SQLiteTestStack(model: MovieModel.make(), url: url)
        defer { stack.close() }
        try stack.context.performAndWait {
            NSEntityDescription.insertNewObject(forEntityName: "Movie", into: stack.context).setValue("Heat", forKey: "title")
            try stack.context.save()
        }
        let mainBefore = StoreFileProbe.bytes(url)
        let walBefore = StoreFileProbe.bytes(StoreFileProbe.sidecar(url, "-wal"))
        let caught = stack.context.performAndWait { () -> NSError? in
            _ = NSEntityDescription.insertNewObject(forEntityName: "Movie", into: stack.context)
            _ = NSEntityDescription.insertNewObject(forEntityName: "Actor", into: stack.context)
            return ctxError { try stack.context.save() }
        }
        let error = try #require(caught)
        #expect(error.domain == NSCocoaErrorDomain)
        #expect(error.code == NSValidationMultipleErrorsError)
        #expect((error.userInfo[NSDetailedErrorsKey] as? [Any])?.count == 2)
        #expect(StoreFileProbe.bytes(url) == mainBefore)
        #expect(StoreFileProbe.bytes(StoreFileProbe.sidecar(url, "-wal")) == walBefore)
        #expect(try RawStoreSQL.value(url, "SELECT COUNT(Z_PK) FROM ZMOVIE")?.integer == 1)
        #expect(try RawStoreSQL.value(url, "SELECT COUNT(Z_PK) FROM ZACTOR")?.integer == 0)
        stack.context.performAndWait {
            #expect(stack.context.insertedObjects.count == 2)
        }
    }

    @Test("a save on a full disk throws 640 (out of space), keeps what was saved before, and succeeds once there is space", .enabled(if: ScratchFileSystem.canMount, ScratchFileSystem.skipReason))
    func fullDisk() throws {
        let volume = try ScratchFileSystem(kibibytes: 4096)
        defer { volume.unmount() }
        let url = volume.file("Movies.sqlite")
        let titlesBefore = (0..<20).map { "Movie \($0)" }
        do {
            let stack = try SQLiteTestStack(model: MovieModel.make(), url: url)
            defer { stack.close() }
            try stack.context.performAndWait {
                for title in titlesBefore {
                    NSEntityDescription.insertNewObject(forEntityName: "Movie", into: stack.context).setValue(title, forKey: "title")
                }
                try stack.context.save()
            }
            try volume.fill()

            // 1 MB of rows on a disk without a free byte.
            let caught = stack.context.performAndWait { () -> NSError? in
                for index in 0..<200 {
                    let movie = NSEntityDescription.insertNewObject(forEntityName: "Movie", into: stack.context)
                    movie.setValue("Sequel \(index) " + String(repeating: "x", count: 5000), forKey: "title")
                }
                return ctxError { try stack.context.save() }
            }
            let error = try #require(caught, "the save must fail")
            #expect(error.domain == NSCocoaErrorDomain)
            #expect(error.code == NSFileWriteOutOfSpaceError, "\(error)")
            #expect(error.userInfo[NSFilePathErrorKey] as? String == url.path)
            #expect(error.userInfo[NSSQLiteErrorDomain] is Int)
            #expect((error.userInfo[NSUnderlyingErrorKey] as? NSError)?.domain == NSSQLiteErrorDomain)
            #expect(try RawStoreSQL.rows(url, "SELECT ZTITLE FROM ZMOVIE ORDER BY Z_PK").compactMap(\.first?.text) == titlesBefore)
            stack.context.performAndWait {
                #expect(stack.context.insertedObjects.count == 200, "the failed save's changes stay in the context")
            }

            try volume.free()
            try stack.context.performAndWait { try stack.context.save() }
        }
        let stack = try SQLiteTestStack(model: MovieModel.make(), url: url)
        defer { stack.close() }
        let count = try stack.context.performAndWait { try stack.context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Movie")) }
        #expect(count == 220)
        #expect(try RawStoreSQL.value(url, "PRAGMA integrity_check")?.text == "ok")
    }
}
