@testable import CoreData
import Foundation
import Testing

/// The coordinator's row cache and `stalenessInterval` (spec FLT-2, FLT-3, MOC-30, MOC-33, MOC-35):
/// faults reuse rows other contexts loaded or saved, unless a later save changed them or they
/// are older than the staleness interval.
@Suite struct RowCacheTests {
    /// A stack whose store holds Alien (1979); returns the stack and Alien's ID.
    private static func stack() throws -> (CtxStack, NSManagedObjectID) {
        let stack = try CtxStack(model: MovieModel.make())
        let alien = try stack.context.performAndWait { () throws -> NSManagedObjectID in
            let alien = ctxInsert("Movie", into: stack.context, ["title": "Alien", "year": 1979])
            try stack.context.save()
            return alien.objectID
        }
        return (stack, alien)
    }

    @Test func aFaultReusesTheRowAnotherContextSaved() throws {
        let (stack, alien) = try Self.stack()
        let reader = stack.newContext()
        try reader.performAndWait {
            let fault = reader.object(with: alien)
            #expect(fault.isFault)
            let queries = try ctxStatements(in: stack) { #expect(fault.value(forKey: "title") as? String == "Alien") }
            #expect(queries.isEmpty)
            #expect(!fault.isFault)
        }
    }

    @Test func aZeroStalenessIntervalReadsTheStore() throws {
        let (stack, alien) = try Self.stack()
        let reader = stack.newContext()
        reader.stalenessInterval = 0
        try reader.performAndWait {
            let fault = reader.object(with: alien)
            let queries = try ctxStatements(in: stack) { _ = fault.value(forKey: "title") }
            #expect(queries.count == 1)
        }
    }

    @Test func aFetchedFaultOlderThanTheStalenessIntervalIsReadAgain() throws {
        let (stack, _) = try Self.stack()
        let reader = stack.newContext()
        try reader.performAndWait {
            let alien = try #require(ctxFetch("Movie", in: reader).first)
            #expect(alien.isFault)
            #expect(try ctxStatements(in: stack) { _ = alien.value(forKey: "title") }.isEmpty)
            reader.refresh(alien, mergeChanges: false)
            reader.stalenessInterval = 0
            #expect(try ctxStatements(in: stack) { _ = alien.value(forKey: "title") }.count == 1)
        }
    }

    @Test func aRowChangedBySaveElsewhereIsNotReused() throws {
        let (stack, alien) = try Self.stack()
        let reader = stack.newContext()
        let fault = reader.performAndWait { () -> NSManagedObject in
            let fault = reader.object(with: alien)
            _ = fault.value(forKey: "title")
            reader.refresh(fault, mergeChanges: false)
            return fault
        }
        let writer = stack.newContext()
        try writer.performAndWait {
            try writer.existingObject(with: alien).setValue(Int16(1980), forKey: "year")
            try writer.save()
        }
        #expect(reader.performAndWait { fault.value(forKey: "year") as? Int } == 1980)
    }

    @Test func mergingASaveReadsTheSavedRowsFromTheCache() throws {
        let (stack, alien) = try Self.stack()
        let reader = stack.newContext()
        let movie = try reader.performAndWait { () throws -> NSManagedObject in
            let movie = try reader.existingObject(with: alien)
            _ = movie.value(forKey: "year")
            return movie
        }
        let writer = stack.newContext()
        let saves = CtxNotificationRecorder(.NSManagedObjectContextDidSave, object: writer)
        defer { saves.stop() }
        try writer.performAndWait {
            try writer.existingObject(with: alien).setValue(Int16(1980), forKey: "year")
            try writer.save()
        }
        let notification = try #require(saves.notifications.first)
        try reader.performAndWait {
            let queries = try ctxStatements(in: stack) { reader.mergeChanges(fromContextDidSave: notification) }
            #expect(queries.isEmpty)
            #expect(movie.value(forKey: "year") as? Int == 1980)
        }
    }

    @Test func conflictDetectionReadsTheStoreNotTheCache() throws {
        let (stack, alien) = try Self.stack()
        let first = stack.newContext()
        let second = stack.newContext()
        let movie = try first.performAndWait { () throws -> NSManagedObject in
            let movie = try first.existingObject(with: alien)
            _ = movie.value(forKey: "year")
            return movie
        }
        try second.performAndWait {
            try second.existingObject(with: alien).setValue(Int16(1980), forKey: "year")
            try second.save()
        }
        let error = first.performAndWait { () -> NSError? in
            movie.setValue("Alien (1979)", forKey: "title")
            return ctxError { try first.save() }
        }
        #expect(error?.code == NSManagedObjectMergeError)
    }

    /// Rows with the values of `row` under new primary keys from 100.
    private static func copies(_ count: Int, of row: RowSnapshot, entity: NSEntityDescription, store: NSPersistentStore) -> [RowSnapshot] {
        (0..<count).map { key in
            RowSnapshot.make(objectID: store.objectID(for: entity, primaryKey: Int64(100 + key)), version: 1, values: row.values, generation: 0)
        }
    }

    @Test func theCacheHoldsAtMostItsCapacity() throws {
        let (stack, alien) = try Self.stack()
        let row = try #require(stack.coordinator.rowCache.row(for: alien.identity))
        let cache = RowCache(capacity: 4)
        let rows = Self.copies(10, of: row, entity: alien.entity, store: stack.store)
        cache.insert(rows)
        #expect(rows.filter { cache.row(for: $0.objectID.identity) != nil }.count <= 4)
        #expect(cache.row(for: rows[9].objectID.identity) === rows[9])
        cache.insert(CollectionOfOne(row))
        #expect(cache.row(for: alien.identity) === row)
        cache.remove(CollectionOfOne(alien.identity))
        #expect(cache.row(for: alien.identity) == nil)
    }

    @Test func aSavesNewRowsKeepTheLastGenerationsWorth() throws {
        let (stack, alien) = try Self.stack()
        let row = try #require(stack.coordinator.rowCache.row(for: alien.identity))
        let cache = RowCache(capacity: 4)
        let rows = Self.copies(5, of: row, entity: alien.entity, store: stack.store)
        cache.insert(CollectionOfOne(row))
        cache.insertNewRows([rows[0]])
        #expect(cache.row(for: alien.identity) === row)
        #expect(cache.row(for: rows[0].objectID.identity) === rows[0])

        cache.insertNewRows(Array(rows[1...]))
        #expect(cache.row(for: rows[3].objectID.identity) === rows[3])
        #expect(cache.row(for: rows[4].objectID.identity) === rows[4])
        #expect(cache.row(for: rows[1].objectID.identity) == nil)
        #expect(cache.row(for: rows[2].objectID.identity) == nil)
        #expect(cache.row(for: alien.identity) === row, "the full generation became the old one")
        #expect(cache.row(for: rows[0].objectID.identity) === rows[0])
    }

    @Test func aSavedDeleteLeavesTheCache() throws {
        let (stack, alien) = try Self.stack()
        let reader = stack.newContext()
        let fault = reader.performAndWait { reader.object(with: alien) }
        try stack.context.performAndWait {
            stack.context.delete(try stack.context.existingObject(with: alien))
            try stack.context.save()
        }
        #expect(stack.coordinator.rowCache.row(for: alien.identity) == nil)
        reader.performAndWait {
            #expect(fault.value(forKey: "title") == nil)
            #expect(fault.isDeleted)
            #expect(reader.deletedObjects.contains(fault))
        }
        try reader.performAndWait { try reader.save() }
    }

    @Test func withoutDeletingInaccessibleFaultsAGoneRowReadsAsNil() throws {
        let (stack, alien) = try Self.stack()
        let reader = stack.newContext()
        reader.shouldDeleteInaccessibleFaults = false
        let fault = reader.performAndWait { reader.object(with: alien) }
        try stack.context.performAndWait {
            stack.context.delete(try stack.context.existingObject(with: alien))
            try stack.context.save()
        }
        reader.performAndWait {
            #expect(fault.value(forKey: "title") == nil)
            #expect(!fault.isDeleted)
            #expect(!reader.hasChanges)
        }
    }
}
