@testable import CoreData
import Foundation
import Testing

/// `detectConflicts(for:)` (spec MOC-23): an object marked for conflict detection is checked at
/// the next save even when the save does not write it.
@Suite struct ConflictDetectionTests {
    private static let stores = [NSSQLiteStoreType, NSInMemoryStoreType]

    /// A stack holding Alien (1979) and Heat (1995), and a context that read both.
    private static func stack(_ storeType: String) throws -> (CtxStack, NSManagedObjectContext, alien: NSManagedObject, heat: NSManagedObject) {
        let stack = try CtxStack(model: MovieModel.make(), storeType: storeType)
        try stack.context.performAndWait {
            ctxInsert("Movie", into: stack.context, ["title": "Alien", "year": 1979])
            ctxInsert("Movie", into: stack.context, ["title": "Heat", "year": 1995])
            try stack.context.save()
        }
        let reader = stack.newContext()
        let movies = try reader.performAndWait { try ctxFetch("Movie", in: reader, sortedBy: "title") }
        return (stack, reader, movies[0], movies[1])
    }

    /// Another context changes Alien's year to 1980, or deletes Alien.
    private static func changeAlienElsewhere(_ stack: CtxStack, deleting: Bool = false) throws {
        let writer = stack.newContext()
        try writer.performAndWait {
            let alien = try ctxFetch("Movie", in: writer, "title == 'Alien'")[0]
            if deleting { writer.delete(alien) } else { alien.setValue(Int16(1980), forKey: "year") }
            try writer.save()
        }
    }

    @Test(arguments: stores) func aMarkedUnchangedObjectChangedElsewhereFailsTheSave(storeType: String) throws {
        let (stack, reader, alien, heat) = try Self.stack(storeType)
        reader.performAndWait { reader.detectConflicts(for: alien) }
        try Self.changeAlienElsewhere(stack)
        let error = reader.performAndWait { () -> NSError? in
            heat.setValue(Int16(1996), forKey: "year")
            return ctxError { try reader.save() }
        }
        #expect(error?.code == NSManagedObjectMergeError)
        let conflicts = error?.userInfo["conflictList"] as? [NSMergeConflict] ?? []
        #expect(conflicts.map(\.sourceObject) == [alien])
        #expect(conflicts.first?.newVersionNumber == 2)
        let check = stack.newContext()
        #expect(try check.performAndWait { try ctxFetch("Movie", in: check, "title == 'Heat'")[0].value(forKey: "year") as? Int } == 1995)
    }

    @Test(arguments: stores) func withoutTheMarkTheSaveSucceeds(storeType: String) throws {
        let (stack, reader, _, heat) = try Self.stack(storeType)
        try Self.changeAlienElsewhere(stack)
        try reader.performAndWait {
            heat.setValue(Int16(1996), forKey: "year")
            try reader.save()
        }
    }

    @Test(arguments: stores) func aMergePolicyResolvesTheConflictOfAMarkedObject(storeType: String) throws {
        let (stack, reader, alien, heat) = try Self.stack(storeType)
        reader.mergePolicy = NSMergeByPropertyStoreTrumpMergePolicy
        reader.performAndWait { reader.detectConflicts(for: alien) }
        try Self.changeAlienElsewhere(stack)
        try reader.performAndWait {
            heat.setValue(Int16(1996), forKey: "year")
            try reader.save()
            #expect(alien.value(forKey: "year") as? Int == 1980)
        }
    }

    @Test(arguments: stores) func aMarkedObjectDeletedElsewhereIsAConflict(storeType: String) throws {
        let (stack, reader, alien, heat) = try Self.stack(storeType)
        reader.performAndWait { reader.detectConflicts(for: alien) }
        try Self.changeAlienElsewhere(stack, deleting: true)
        let error = reader.performAndWait { () -> NSError? in
            heat.setValue(Int16(1996), forKey: "year")
            return ctxError { try reader.save() }
        }
        #expect(error?.code == NSManagedObjectMergeError)
        #expect((error?.userInfo["conflictList"] as? [NSMergeConflict])?.first?.newVersionNumber == 0)
    }

    @Test(arguments: stores) func aSaveClearsTheMarks(storeType: String) throws {
        let (stack, reader, alien, heat) = try Self.stack(storeType)
        try reader.performAndWait {
            reader.detectConflicts(for: alien)
            heat.setValue(Int16(1996), forKey: "year")
            try reader.save()
        }
        try Self.changeAlienElsewhere(stack)
        try reader.performAndWait {
            heat.setValue(Int16(1997), forKey: "year")
            try reader.save()
        }
    }
}
