@testable import CoreData
import Testing

/// Entities split across two SQLite files by configuration.
@Suite("Configurations across two SQLite stores")
struct ConfigurationStoresTests {
    /// `Note` (configuration "Text") and `Photo` with sub-entity `Scan` (configuration "Media").
    private func makeModel() -> NSManagedObjectModel {
        let note = ModelFixtureKit.entity("Note", [ModelFixtureKit.attribute("body", .stringAttributeType)])
        let photo = ModelFixtureKit.entity("Photo", [ModelFixtureKit.attribute("caption", .stringAttributeType), ModelFixtureKit.attribute("pixels", .integer64AttributeType)])
        let scan = ModelFixtureKit.entity("Scan", [ModelFixtureKit.attribute("dpi", .integer32AttributeType)])
        photo.subentities = [scan]
        let model = ModelFixtureKit.model([note, photo, scan])
        model.setEntities([note], forConfigurationName: "Text")
        model.setEntities([photo, scan], forConfigurationName: "Media")
        return model
    }

    private struct TwoStores {
        let coordinator: NSPersistentStoreCoordinator
        let text: NSPersistentStore
        let media: NSPersistentStore
        let context: NSManagedObjectContext

        init(model: NSManagedObjectModel, textURL: URL, mediaURL: URL) throws {
            coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
            text = try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: "Text", at: textURL, options: nil)
            media = try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: "Media", at: mediaURL, options: nil)
            context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
            context.persistentStoreCoordinator = coordinator
        }

        func close() {
            for store in coordinator.persistentStores { try? coordinator.remove(store) }
        }
    }

    @Test("each configuration's store file holds only its entities' tables")
    func tablesPerFile() throws {
        let directory = try SQLiteScratchDirectory("configurations-tables")
        defer { directory.remove() }
        let textURL = directory.file("Text.sqlite")
        let mediaURL = directory.file("Media.sqlite")
        let stores = try TwoStores(model: makeModel(), textURL: textURL, mediaURL: mediaURL)
        defer { stores.close() }
        #expect(stores.text.configurationName == "Text")
        #expect(stores.media.configurationName == "Media")
        let textTables = try RawStoreSQL.tables(textURL)
        let mediaTables = try RawStoreSQL.tables(mediaURL)
        #expect(textTables.contains("ZNOTE"))
        #expect(!textTables.contains("ZPHOTO"))
        #expect(mediaTables.contains("ZPHOTO"))
        #expect(!mediaTables.contains("ZNOTE"))
        #expect(!mediaTables.contains("ZSCAN"), "Scan shares its root's table")
        let textEntities = try RawStoreSQL.rows(textURL, "SELECT Z_NAME FROM Z_PRIMARYKEY").compactMap(\.first?.text)
        let mediaEntities = try RawStoreSQL.rows(mediaURL, "SELECT Z_NAME FROM Z_PRIMARYKEY").compactMap(\.first?.text)
        #expect(textEntities.contains("Note"))
        #expect(mediaEntities.contains("Photo") && mediaEntities.contains("Scan"))
        #expect(stores.text.identifier != stores.media.identifier)
    }

    @Test("inserts go to the store of their entity's configuration; fetches find them; reopen works")
    func routing() throws {
        let directory = try SQLiteScratchDirectory("configurations-routing")
        defer { directory.remove() }
        let textURL = directory.file("Text.sqlite")
        let mediaURL = directory.file("Media.sqlite")
        let model = makeModel()
        do {
            let stores = try TwoStores(model: model, textURL: textURL, mediaURL: mediaURL)
            try stores.context.performAndWait {
                let note = NSEntityDescription.insertNewObject(forEntityName: "Note", into: stores.context)
                note.setValue("hello", forKey: "body")
                let photo = NSEntityDescription.insertNewObject(forEntityName: "Photo", into: stores.context)
                photo.setValue("sunset", forKey: "caption")
                let scan = NSEntityDescription.insertNewObject(forEntityName: "Scan", into: stores.context)
                scan.setValue("receipt", forKey: "caption")
                scan.setValue(600, forKey: "dpi")
                try stores.context.save()

                #expect(note.objectID.persistentStore === stores.text)
                #expect(photo.objectID.persistentStore === stores.media)
                #expect(scan.objectID.persistentStore === stores.media)
                #expect(note.objectID.uriRepresentation().host == stores.text.identifier)
                #expect(photo.objectID.uriRepresentation().host == stores.media.identifier)

                let notes = try stores.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Note"))
                #expect(notes.compactMap { $0.value(forKey: "body") as? String } == ["hello"])
                let photos = try stores.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Photo"))
                #expect(Set(photos.compactMap { $0.value(forKey: "caption") as? String }) == ["sunset", "receipt"])
            }
            #expect(try RawStoreSQL.value(textURL, "SELECT COUNT(Z_PK) FROM ZNOTE")?.integer == 1)
            #expect(try RawStoreSQL.value(mediaURL, "SELECT COUNT(Z_PK) FROM ZPHOTO")?.integer == 2)
            #expect(try RawStoreSQL.value(textURL, "SELECT ZBODY FROM ZNOTE")?.text == "hello")
            stores.close()
        }

        let stores = try TwoStores(model: model, textURL: textURL, mediaURL: mediaURL)
        defer { stores.close() }
        try stores.context.performAndWait {
            let notes = try stores.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Note"))
            #expect(notes.count == 1)
            #expect(notes.first?.objectID.persistentStore === stores.text)
            let scans = try stores.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Scan"))
            #expect(scans.count == 1)
            #expect((scans.first?.value(forKey: "dpi") as? NSNumber)?.intValue == 600)
            #expect(scans.first?.objectID.persistentStore === stores.media)
            #expect(try stores.context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Photo")) == 2)

            // A second round of inserts after reopening still lands in the right files.
            NSEntityDescription.insertNewObject(forEntityName: "Note", into: stores.context).setValue("again", forKey: "body")
            try stores.context.save()
        }
        #expect(try RawStoreSQL.value(textURL, "SELECT COUNT(Z_PK) FROM ZNOTE")?.integer == 2)
        #expect(try RawStoreSQL.value(mediaURL, "SELECT COUNT(Z_PK) FROM ZPHOTO")?.integer == 2)
    }

    @Test("each configuration store's metadata is compatible with its configuration")
    func metadataPerConfiguration() throws {
        let directory = try SQLiteScratchDirectory("configurations-metadata")
        defer { directory.remove() }
        let textURL = directory.file("Text.sqlite")
        let mediaURL = directory.file("Media.sqlite")
        let model = makeModel()
        let stores = try TwoStores(model: model, textURL: textURL, mediaURL: mediaURL)
        stores.close()
        let textMetadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: textURL, options: nil)
        let mediaMetadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: mediaURL, options: nil)
        #expect(model.isConfiguration(withName: "Text", compatibleWithStoreMetadata: textMetadata))
        #expect(model.isConfiguration(withName: "Media", compatibleWithStoreMetadata: mediaMetadata))
    }

    @Test("adding a store for an unknown configuration throws an NSError")
    func unknownConfiguration() throws {
        let directory = try SQLiteScratchDirectory("configurations-unknown")
        defer { directory.remove() }
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: makeModel())
        #expect(throws: NSError.self) {
            try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: "Nope", at: directory.file("Nope.sqlite"), options: nil)
        }
        #expect(coordinator.persistentStores.isEmpty)
    }
}
