@testable import CoreData
import Testing

/// `value(atPropertyIndex:named:)` and its siblings, which generated accessors call.
@Suite struct PropertyIndexTests {
    private let stack: CtxStack

    init() throws {
        stack = try CtxStack(model: CtxGraphModel.make(), storeType: NSInMemoryStoreType)
    }

    private func insert(_ entityName: String) -> NSManagedObject {
        NSEntityDescription.insertNewObject(forEntityName: entityName, into: stack.context)
    }

    @Test func theIndexOfANamedPropertyReadsAndWritesIt() {
        stack.context.performAndWait {
            let person = insert("Person")
            let age = person.entity.layout.slotIndex(forKey: "age")!
            person.setValue(41, atPropertyIndex: age, named: "age")
            #expect(person.value(forKey: "age") as? NSNumber == 41)
            #expect(person.value(atPropertyIndex: age, named: "age") as? NSNumber == 41)
            #expect(person.changedValues()["age"] as? NSNumber == 41)
        }
    }

    @Test(arguments: [-1, 0, 4, 99])
    func anIndexThatDoesNotMatchTheNameFallsBackToTheName(index: Int) {
        stack.context.performAndWait {
            let person = insert("Person")
            person.setValue("Ada", forKey: "name")
            person.setValue(36, forKey: "age")
            // `age` is slot 1; the other indices hold another property or none.
            person.setValue(37, atPropertyIndex: index, named: "age")
            #expect(person.value(forKey: "age") as? NSNumber == 37)
            #expect(person.value(atPropertyIndex: index, named: "age") as? NSNumber == 37)
            #expect(person.value(forKey: "name") as? String == "Ada")
        }
    }

    @Test func relationshipsByIndexKeepTheirInverses() {
        stack.context.performAndWait {
            let person = insert("Person")
            let pet = insert("Pet")
            let owner = pet.entity.layout.slotIndex(forKey: "owner")!
            pet.setValue(person, atPropertyIndex: owner, named: "owner")
            #expect(person.value(forKey: "pets") as? NSSet == NSSet(object: pet))

            let other = insert("Pet")
            let pets = person.entity.layout.slotIndex(forKey: "pets")!
            person.mutableSetValue(atPropertyIndex: pets, named: "pets").add(other)
            person.mutableSetValue(atPropertyIndex: 0, named: "pets").remove(pet)
            #expect(person.value(forKey: "pets") as? NSSet == NSSet(object: other))
            #expect(pet.value(forKey: "owner") == nil)
        }
    }

    @Test func orderedRelationshipsByIndex() {
        stack.context.performAndWait {
            let playlist = insert("Playlist")
            let first = insert("Song")
            let second = insert("Song")
            let songs = playlist.entity.layout.slotIndex(forKey: "songs")!
            playlist.mutableOrderedSetValue(atPropertyIndex: songs, named: "songs").add(first)
            playlist.mutableOrderedSetValue(atPropertyIndex: 0, named: "songs").insert(second, at: 0)
            #expect((playlist.value(forKey: "songs") as? NSOrderedSet)?.array as? [NSManagedObject] == [second, first])
        }
    }
}

/// A class whose key path table names a property its accessor never reads, so that only the
/// table can tell the name.
private final class TabledKeyPathObject: NSManagedObject {
    var score: Int { 0 }

    override class var propertyNamesByKeyPath: [AnyKeyPath: String] {
        [\TabledKeyPathObject.score: "score"]
    }
}

/// Holds a class whose name `NSClassFromString` cannot find (it is nested).
enum RequestTypes {
    final class Registered: NSManagedObject {}
}

@Suite struct GeneratedClassSupportTests {
    @Test func sortDescriptorsReadTheClasssKeyPathTable() {
        #expect(NSSortDescriptor(keyPath: \TabledKeyPathObject.score, ascending: true).key == "score")
    }

    @Test func aTypedFetchRequestRegistersItsResultClass() {
        let registry = ManagedObjectClassRegistry.shared
        let name = "RequestTypes.Registered"
        #expect(registry.resolveClass(named: name) == NSManagedObject.self)
        _ = NSFetchRequest<RequestTypes.Registered>(entityName: "Registered")
        #expect(registry.resolveClass(named: name) == RequestTypes.Registered.self)
    }

    @Test func resourceBundlesBesideTheExecutableNameCandidateModules() {
        // The test bundle's resources are `OpenCoreData_CoreDataTests.resources` (or
        // `…-tool.resources`, built for the host's tools in a package with macros).
        #expect(SwiftPMResourceBundles.moduleNames().contains("CoreDataTests"))
        let fresh = ManagedObjectClassRegistry()
        #expect(fresh.resolveClass(named: "ResolvedByModuleOfResources") == ResolvedByModuleOfResources.self)
    }
}

/// A class no test names before a fresh registry looks it up by its bare name.
final class ResolvedByModuleOfResources: NSManagedObject {}
