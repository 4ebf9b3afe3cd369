import CoreData
import Testing

/// The generated classes as Core Data finds and uses them.
@Suite struct GeneratedClassTests {
    @Test func theCurrentVersionOfTheModelIsGenerated() throws {
        let container = try CinemaStore().openContainer()
        #expect(container.managedObjectModel.versionIdentifiers == ["2"])
        let film = Film(context: container.viewContext)
        film.boxOffice = 1
        #expect(film.entity.name == "Film")
    }

    @Test func fetchRequestIsTypedAndNamesTheEntity() {
        let request: NSFetchRequest<Series> = Series.fetchRequest()
        #expect(request.entityName == "Series")
    }

    @Test func objectsGetTheirGeneratedClassBeforeAnythingNamesIt() throws {
        // Award is named nowhere else, and here only after the insert: Core Data finds the class
        // from the model's bare class name.
        let context = try CinemaStore().openContainer().viewContext
        let award = NSEntityDescription.insertNewObject(forEntityName: "Award", into: context)
        #expect(award is Award)
    }

    @Test func fetchedObjectsGetTheGeneratedClassesByTheirBareNames() throws {
        let store = CinemaStore()
        let context = try store.openContainer().viewContext
        Performer(context: context).name = "Toni Collette"
        let studio = Studio(context: context)
        studio.name = "A24"
        try context.save()

        let reopened = try store.openContainer().viewContext
        let performers = try reopened.fetch(NSFetchRequest<NSManagedObject>(entityName: "Performer"))
        #expect(performers.count == 1 && performers.allSatisfy { $0 is Performer })
        let studios = try reopened.fetch(NSFetchRequest<NSManagedObject>(entityName: "Studio"))
        #expect((studios.first as? Studio)?.name == "A24")
    }

    @Test func sortDescriptorsReadKeyPathsFromTheGeneratedTable() throws {
        #expect(Film.propertyNamesByKeyPath[\Film.title] == "title")
        #expect(Film.propertyNamesByKeyPath[\Film.boxOffice] == "boxOffice")
        #expect(Production.propertyNamesByKeyPath[\Production.default] == "default")
        #expect(NSSortDescriptor(keyPath: \Film.releaseYear, ascending: true).key == "releaseYear")

        let store = CinemaStore()
        let context = try store.openContainer().viewContext
        for (title, year) in [("Heat", 1995), ("Alien", 1979), ("Up", 2009)] {
            let film = Film(context: context)
            film.title = title
            film.releaseYear = Int16(year)
        }
        try context.save()
        let request: NSFetchRequest<Film> = Film.fetchRequest()
        request.sortDescriptors = [NSSortDescriptor(keyPath: \Film.releaseYear, ascending: false)]
        let reopened = try store.openContainer().viewContext
        #expect(try reopened.fetch(request).map(\.title) == ["Up", "Heat", "Alien"])
    }

    @Test func categoryClassesNameKeyPathsByTheirAccessors() throws {
        // Probing needs the class's entity in a model in use.
        let container = try CinemaStore().openContainer()
        withExtendedLifetime(container) {
            #expect(NSSortDescriptor(keyPath: \Series.seasons, ascending: true).key == "seasons")
            #expect(NSSortDescriptor(keyPath: \Series.title, ascending: true).key == "title")
        }
    }

    @Test func accessorsFindTheirPropertiesByNameInAModelOfAnotherShape() throws {
        // A model built in code, with the properties in another order than the generated indices.
        let production = NSEntityDescription()
        production.name = "Production"
        production.managedObjectClassName = "Production"
        production.isAbstract = true
        production.properties = [(name: "releaseYear", type: NSAttributeType.integer16AttributeType), ("title", .stringAttributeType)].map {
            let attribute = NSAttributeDescription()
            attribute.name = $0.name
            attribute.attributeType = $0.type
            return attribute
        }
        let film = NSEntityDescription()
        film.name = "Film"
        film.managedObjectClassName = "Film"
        production.subentities = [film]
        let model = NSManagedObjectModel()
        model.entities = [production, film]
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        _ = try coordinator.addPersistentStore(type: .inMemory, at: URL(fileURLWithPath: "/dev/null"))
        let context = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator

        let object = Film(context: context)
        object.title = "Tár"
        object.releaseYear = 2022
        #expect(object.value(forKey: "title") as? String == "Tár")
        #expect(object.title == "Tár")
        #expect(object.releaseYear == 2022)
    }
}
