import CoreData
import JSONDirectoryStore
import Testing

/// The JSON directory store through `NSPersistentContainer`: what one container saves, another
/// reads back from the files.
@Suite struct JSONDirectoryStoreTests {
    /// Saves a folder of three notes and an empty folder.
    private func saveSampleNotes(in directory: NotesDirectory) throws {
        let context = try directory.openContainer().newBackgroundContext()
        try context.performAndWait {
            let work = context.insertFolder("Work")
            context.insertNote("Budget", words: 120, pinned: true, in: work)
            context.insertNote("Agenda", words: 40, pinned: true, in: work)
            context.insertNote("Ideas", words: 300, in: work)
            _ = context.insertFolder("Home")
            try context.save()
        }
    }

    @Test func eachObjectIsAFileBesideTheMetadata() throws {
        let directory = NotesDirectory()
        try saveSampleNotes(in: directory)
        let files = FileManager.default
        #expect(try files.contentsOfDirectory(atPath: directory.url.path).sorted() == ["Folder", "Note", "metadata.json"])
        #expect(try files.contentsOfDirectory(atPath: directory.url.appendingPathComponent("Note").path).count == 3)
        let metadata = try JSONSerialization.jsonObject(with: Data(contentsOf: directory.url.appendingPathComponent("metadata.json"))) as? [String: Any]
        #expect(metadata?[NSStoreTypeKey] as? String == "JSONDirectory")
        #expect((metadata?[NSStoreUUIDKey] as? String).flatMap(UUID.init(uuidString:)) != nil)
        #expect((metadata?[NSStoreModelVersionHashesKey] as? [String: String])?.keys.sorted() == ["Folder", "Note"])
    }

    @Test func aNewContainerFetchesWhatWasSavedWithAPredicateAndAnOrder() throws {
        let directory = NotesDirectory()
        try saveSampleNotes(in: directory)
        let container = try directory.openContainer()
        let store = try #require(container.persistentStoreCoordinator.persistentStores.first)
        #expect(store is JSONDirectoryStore)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let pinned = try context.objects("Note", where: "pinned == YES AND words > 10", sortedBy: "title")
            #expect(pinned.map { $0.value(forKey: "title") as? String } == ["Agenda", "Budget"])
            #expect(pinned.first?.value(forKey: "words") as? Int == 40)
            #expect(pinned.first?.value(forKey: "created") as? Date == Date(timeIntervalSince1970: 1_700_000_000))
            #expect(pinned.allSatisfy { $0.objectID.persistentStore === store })
            #expect(try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Note")) == 3)

            let titles = NSFetchRequest<NSDictionary>(entityName: "Note")
            titles.resultType = .dictionaryResultType
            titles.propertiesToFetch = ["title"]
            titles.sortDescriptors = [NSSortDescriptor(key: "words", ascending: false)]
            #expect(try context.fetch(titles).map { $0["title"] as? String } == ["Ideas", "Budget", "Agenda"])
        }
    }

    /// What the store itself answers, as Apple's Core Data takes it: filtered and ordered.
    @Test func theStoreAppliesThePredicateAndTheOrderItself() throws {
        let directory = NotesDirectory()
        try saveSampleNotes(in: directory)
        let container = try directory.openContainer()
        let store = try #require(container.persistentStoreCoordinator.persistentStores.first as? JSONDirectoryStore)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let request = NSFetchRequest<NSFetchRequestResult>(entityName: "Note")
            request.entity = container.managedObjectModel.entitiesByName["Note"]
            request.predicate = NSPredicate(format: "words < 200")
            request.sortDescriptors = [NSSortDescriptor(key: "title", ascending: true)]
            let notes = try #require(try store.execute(request, with: context) as? [NSManagedObject])
            #expect(notes.map { $0.value(forKey: "title") as? String } == ["Agenda", "Budget"])
        }
    }

    @Test func relationshipsAreReadBothWaysAndMoveWhenANoteChangesFolder() throws {
        let directory = NotesDirectory()
        try saveSampleNotes(in: directory)
        let context = try directory.openContainer().newBackgroundContext()
        try context.performAndWait {
            let ideas = try #require(try context.objects("Note", where: "title == 'Ideas'").first)
            let work = try #require(ideas.value(forKey: "folder") as? NSManagedObject)
            #expect(work.value(forKey: "name") as? String == "Work")
            #expect((work.value(forKey: "notes") as? Set<NSManagedObject>)?.count == 3)
            #expect(try context.objects("Note", where: "folder.name == 'Work'").count == 3, "a predicate through the to-one relationship")

            ideas.setValue(try context.objects("Folder", where: "name == 'Home'").first, forKey: "folder")
            try context.save()
        }
        let reopened = try directory.openContainer().newBackgroundContext()
        let counts = try reopened.performAndWait {
            try reopened.objects("Folder", sortedBy: "name").map { folder in
                "\(folder.value(forKey: "name") as? String ?? "?") \((folder.value(forKey: "notes") as? Set<NSManagedObject>)?.count ?? -1)"
            }
        }
        #expect(counts == ["Home 1", "Work 2"])
    }

    @Test func deletingAFolderRemovesItsFileAndThoseOfItsNotes() throws {
        let directory = NotesDirectory()
        try saveSampleNotes(in: directory)
        let context = try directory.openContainer().newBackgroundContext()
        try context.performAndWait {
            context.delete(try #require(try context.objects("Folder", where: "name == 'Work'").first))
            try context.save()
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.appendingPathComponent("Note").path).isEmpty)
        let reopened = try directory.openContainer().newBackgroundContext()
        let names = try reopened.performAndWait { try reopened.objects("Folder").map { $0.value(forKey: "name") as? String } }
        #expect(names == ["Home"])
    }

    /// Core Data asks for managed objects; asked for IDs, the store answers with IDs.
    @Test func theStoreAnswersAFetchOfObjectIDs() throws {
        let directory = NotesDirectory()
        try saveSampleNotes(in: directory)
        let container = try directory.openContainer()
        let store = try #require(container.persistentStoreCoordinator.persistentStores.first as? JSONDirectoryStore)
        let context = container.newBackgroundContext()
        let request = NSFetchRequest<NSFetchRequestResult>(entityName: "Folder")
        request.entity = container.managedObjectModel.entitiesByName["Folder"]
        request.resultType = .managedObjectIDResultType
        let objectIDs = try context.performAndWait { try store.execute(request, with: context) as? [NSManagedObjectID] }
        #expect(objectIDs?.count == 2)
        #expect(objectIDs?.allSatisfy { !$0.isTemporaryID && $0.entity.name == "Folder" } == true)
    }

    @Test func aDamagedObjectFileGivesAnErrorNotACrash() throws {
        let directory = NotesDirectory()
        try saveSampleNotes(in: directory)
        let notes = directory.url.appendingPathComponent("Note")
        let damaged = try #require(try FileManager.default.contentsOfDirectory(atPath: notes.path).first)
        try Data("{\"attributes\": {\"title\": ".utf8).write(to: notes.appendingPathComponent(damaged))
        let context = try directory.openContainer().newBackgroundContext()
        let failure = context.performAndWait { () -> (any Error)? in
            do {
                _ = try context.objects("Note", where: "pinned == YES")
                return nil
            } catch {
                return error
            }
        }
        let error = try #require(failure) as NSError
        #expect(error.domain == NSCocoaErrorDomain && error.code == CocoaError.fileReadCorruptFile.rawValue)
    }

    @Test func aStoreOfAnotherModelVersionIsRefusedWith134100() throws {
        let directory = NotesDirectory()
        try saveSampleNotes(in: directory)
        let changed = NotesDirectory.model()
        let color = NSAttributeDescription()
        color.name = "color"
        color.attributeType = .stringAttributeType
        changed.entitiesByName["Folder"]?.properties.append(color)
        #expect { try directory.openContainer(model: changed) } throws: { error in
            (error as NSError).code == NSPersistentStoreIncompatibleVersionHashError
        }
    }

    @Test func damagedMetadataIsRefusedAndLeftAsItWas() throws {
        let directory = NotesDirectory()
        try FileManager.default.createDirectory(at: directory.url, withIntermediateDirectories: true)
        let metadataURL = directory.url.appendingPathComponent("metadata.json")
        try Data("not json".utf8).write(to: metadataURL)
        #expect { try directory.openContainer() } throws: { error in
            (error as NSError).code == CocoaError.fileReadCorruptFile.rawValue
        }
        #expect(try Data(contentsOf: metadataURL) == Data("not json".utf8))
    }
}
