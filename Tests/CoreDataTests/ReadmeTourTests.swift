import CoreData
import Testing

/// The subclass of the article "Models and Model Files"
/// (`Sources/CoreData/CoreData.docc/ModelsAndModelFiles.md`).
final class Movie: NSManagedObject {
    var title: String {
        get { value(forKey: "title") as! String }
        set { setValue(newValue, forKey: "title") }
    }
}

/// Runs the README's tour and the snippets of the CoreData catalog's articles that continue it
/// (`Sources/CoreData/CoreData.docc`: ModelsAndModelFiles, ContextsSavingAndMerging, FetchingData
/// and MigratingStores), so that they stay true.
@Suite("README tour and catalog articles")
struct ReadmeTourTests {
    @Test func tourRunsAsWritten() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("readme-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let storeURL = directory.appendingPathComponent("Movies.sqlite")

        let movie = NSEntityDescription()
        movie.name = "Movie"
        let title = NSAttributeDescription()
        title.name = "title"
        title.type = .string
        title.isOptional = false
        let year = NSAttributeDescription()
        year.name = "year"
        year.type = .integer16
        let character = NSEntityDescription()
        character.name = "Character"
        let name = NSAttributeDescription()
        name.name = "name"
        name.type = .string
        let characters = NSRelationshipDescription()
        characters.name = "characters"
        characters.destinationEntity = character
        characters.maxCount = 0
        let characterMovie = NSRelationshipDescription()
        characterMovie.name = "movie"
        characterMovie.destinationEntity = movie
        characterMovie.maxCount = 1
        characters.inverseRelationship = characterMovie
        characterMovie.inverseRelationship = characters
        character.properties = [name, characterMovie]
        movie.properties = [title, year, characters]
        movie.managedObjectClassName = String(reflecting: Movie.self)

        let model = NSManagedObjectModel()
        model.entities = [movie, character]

        let container = NSPersistentContainer(name: "Movies", managedObjectModel: model)
        container.persistentStoreDescriptions = [NSPersistentStoreDescription(url: storeURL)]
        var loadError: Error?
        container.loadPersistentStores { description, error in
            if let error { print("Could not open \(description.url!): \(error)") }
            loadError = error
        }
        #expect(loadError == nil)

        let context = container.newBackgroundContext()
        let titles: [String] = try context.performAndWait {
            let alien = NSEntityDescription.insertNewObject(forEntityName: "Movie", into: context)
            alien.setValue("Alien", forKey: "title")
            alien.setValue(1979, forKey: "year")
            try context.save()

            let request = NSFetchRequest<NSManagedObject>(entityName: "Movie")
            request.predicate = NSPredicate(format: "year < %d AND title BEGINSWITH[c] %@", 1990, "al")
            request.sortDescriptors = [NSSortDescriptor(key: "year", ascending: true)]
            let movies = try context.fetch(request)
            return movies.map { $0.value(forKey: "title") as? String ?? "" }
        }
        #expect(titles == ["Alien"])

        let busyYears: [NSDictionary] = try context.performAndWait {
            let recent = NSPredicate(format: "SUBQUERY(characters, $c, $c.name BEGINSWITH 'R').@count > 0 AND year * 2 > %d", 3900)
            #expect(recent.predicateFormat == #"SUBQUERY(characters, $c, $c.name BEGINSWITH "R").@count > 0 AND year * 2 > 3900"#)
            NSEntityDescription.insertNewObject(forEntityName: "Movie", into: context).setValuesForKeys(["title": "Aliens", "year": 1979])
            try context.save()

            let byTitle = NSFetchRequest<NSManagedObject>(entityName: "Movie")
            byTitle.sortDescriptors = [NSSortDescriptor(key: "title", ascending: true, selector: Selector("localizedStandardCompare:"))]
            byTitle.fetchBatchSize = 100
            byTitle.relationshipKeyPathsForPrefetching = ["characters"]
            let movies = try context.fetch(byTitle)
            #expect(movies.map { $0.value(forKey: "title") as? String } == ["Alien", "Aliens"])

            let count = NSExpressionDescription()
            count.name = "films"
            count.expression = NSExpression(forFunction: "count:", arguments: [NSExpression(forKeyPath: "title")])
            count.expressionResultType = .integer64AttributeType
            let perYear = NSFetchRequest<NSDictionary>(entityName: "Movie")
            perYear.resultType = .dictionaryResultType
            perYear.propertiesToFetch = ["year", count]
            perYear.propertiesToGroupBy = ["year"]
            perYear.havingPredicate = NSPredicate(format: "$films > 1")
            return try context.fetch(perYear)
        }
        #expect(busyYears == [["year": 1979, "films": 2] as NSDictionary])

        try context.performAndWait {
            context.mergePolicy = NSMergeByPropertyObjectTrumpMergePolicy
            let other = container.newBackgroundContext()
            let alien = try #require(try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Movie")).first { $0.value(forKey: "title") as? String == "Alien" })
            try other.performAndWait {
                let theirs = try #require(try other.fetch(NSFetchRequest<NSManagedObject>(entityName: "Movie")).first { $0.value(forKey: "title") as? String == "Alien" })
                theirs.setValue(1980, forKey: "year")
                try other.save()
            }
            alien.setValue("Alien (1979)", forKey: "title")
            try context.save()
            #expect(alien.value(forKey: "year") as? Int == 1980)
            #expect(alien.value(forKey: "title") as? String == "Alien (1979)")
        }

        try context.performAndWait {
            let arrival = Movie(context: context)
            arrival.title = "Arrival"
            try context.save()
            let uri = arrival.objectID.uriRepresentation()
            #expect(uri.absoluteString.hasPrefix("x-coredata://"))
            #expect(uri.absoluteString.hasSuffix("/Movie/p3"))
            let identifier = try #require(container.persistentStoreCoordinator.managedObjectID(forURIRepresentation: uri))
            #expect(context.object(with: identifier) === arrival)

            context.undoManager = UndoManager()
            arrival.title = "Arrival (2016)"
            context.undoManager?.setActionName("Rename")
            context.processPendingChanges()
            #expect(context.undoManager?.undoMenuItemTitle == "Undo Rename")
            context.undo()
            #expect(arrival.title == "Arrival")
            context.redo()
            #expect(arrival.title == "Arrival (2016)")
            context.undoManager = nil
        }

        let editor = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        editor.parent = context
        try editor.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Movie")
            request.predicate = NSPredicate(format: "title BEGINSWITH %@", "Arrival")
            try editor.fetch(request).first?.setValue(2016, forKey: "year")
            try editor.save()
        }
        let reader = container.newBackgroundContext()
        let storedYear = { () throws -> Int? in
            try reader.performAndWait {
                let request = NSFetchRequest<NSDictionary>(entityName: "Movie")
                request.resultType = .dictionaryResultType
                request.propertiesToFetch = ["year"]
                request.predicate = NSPredicate(format: "title BEGINSWITH %@", "Arrival")
                return try reader.fetch(request).first?["year"] as? Int
            }
        }
        #expect(context.performAndWait { context.hasChanges })
        #expect(try storedYear() == nil)
        try context.performAndWait { try context.save() }
        #expect(try storedYear() == 2016)

        let report = container.newBackgroundContext()
        try report.performAndWait {
            try report.setQueryGenerationFrom(NSQueryGenerationToken.current)
            let before = try report.count(for: NSFetchRequest<NSManagedObject>(entityName: "Movie"))
            try reader.performAndWait {
                NSEntityDescription.insertNewObject(forEntityName: "Movie", into: reader).setValue("Contact", forKey: "title")
                try reader.save()
            }
            let after = try report.count(for: NSFetchRequest<NSManagedObject>(entityName: "Movie"))
            #expect(after == before)
        }

        try context.performAndWait {
            final class MoviesTable: NSFetchedResultsControllerDelegate {
                var changes: [(NSFetchedResultsChangeType, IndexPath?, IndexPath?)] = []
                func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>, didChange anObject: Any,
                                at indexPath: IndexPath?, for type: NSFetchedResultsChangeType, newIndexPath: IndexPath?) {
                    changes.append((type, indexPath, newIndexPath))
                }
            }
            let table = MoviesTable()
            let byYear = NSFetchRequest<NSManagedObject>(entityName: "Movie")
            byYear.sortDescriptors = [NSSortDescriptor(key: "year", ascending: true), NSSortDescriptor(key: "title", ascending: true)]
            let controller = NSFetchedResultsController(fetchRequest: byYear, managedObjectContext: context, sectionNameKeyPath: "year", cacheName: nil)
            controller.delegate = table
            try controller.performFetch()
            NSEntityDescription.insertNewObject(forEntityName: "Movie", into: context).setValuesForKeys(["title": "Zodiac", "year": 2007])
            try context.save()
            let section = try #require(controller.sections?.firstIndex { $0.name == "2007" })
            #expect(table.changes.count == 1)
            #expect(table.changes.first?.0 == .insert)
            #expect(table.changes.first?.2 == IndexPath(row: 0, section: section))
        }
    }

    /// "A Model from Xcode" (ModelsAndModelFiles.md): the test bundle ships Notes.xcdatamodel as
    /// the article says.
    @Test func modelFilesAsTheTourReadsThem() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("readme-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let modelURL = try #require(Bundle.module.url(forResource: "Notes", withExtension: "xcdatamodel"))
        let copyURL = directory.appendingPathComponent("Copy.xcdatamodel")

        let notes = NSPersistentContainer(name: "Notes")     // finds Notes.xcdatamodeld or .xcdatamodel
        let merged = NSManagedObjectModel.mergedModel(from: nil)
        let version = try NSManagedObjectModel(validatingContentsOf: modelURL)  // throws, naming file, line, element
        try version.write(toModelFileAt: copyURL)          // back to contents XML, as Xcode writes it

        #expect(notes.managedObjectModel.entitiesByName["Note"] != nil)
        #expect(merged?.entitiesByName["Note"] != nil)
        #expect(NSManagedObjectModel(contentsOf: copyURL)?.entityVersionHashesByName == version.entityVersionHashesByName)
    }

    /// "Model Versions and Lightweight Migration" (MigratingStores.md): a store of Shelf version 1
    /// opened with version 3.
    @Test func migrationAsTheTourShowsIt() throws {
        let scenario = try MigrationScenario("readme")
        defer { scenario.remove() }
        let shelfURL = try #require(Bundle.module.url(forResource: "Shelf", withExtension: "xcdatamodeld"))
        let version1 = try ShelfMigrationTests.shelf("Shelf")
        try scenario.write(version1) { context in
            ctxInsert("Writer", into: context, ["name": "Le Guin"])
        }
        let storeURL = scenario.url

        let current = NSManagedObjectModel(contentsOf: shelfURL)!    // Shelf.xcdatamodeld: version 3 of 3
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: current)
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: storeURL, options: [
            NSMigratePersistentStoresAutomaticallyOption: true,      // a store of version 1 is migrated to 3
            NSInferMappingModelAutomaticallyOption: true,
        ])

        let mapping = try NSMappingModel.inferredMappingModel(forSourceModel: version1, destinationModel: current)
        print(mapping.entityMappingsByName["IEM_Transform_Writer"]?.mappingType == .transformEntityMappingType)  // true

        #expect(mapping.entityMappingsByName["IEM_Transform_Writer"]?.mappingType == .transformEntityMappingType)
        #expect(current.versionIdentifiers == ["3"])
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        let names = try context.performAndWait { try ctxFetch("Writer", in: context).map { $0.value(forKey: "fullName") as? String } }
        #expect(names == ["Le Guin"])
    }

    /// "Mapping Models and Migration Policies" (MigratingStores.md): the article's mapping, with
    /// `GradingPolicy` as the article declares it (in `MigrationManagerTests`).
    @Test func heavyMigrationAsTheTourShowsIt() throws {
        let scenario = try MigrationManagerTests.companyStore("readme-heavy")
        defer { scenario.remove() }
        let (company, teams) = (MigrationManagerTests.company(), MigrationManagerTests.teams())
        let (oldURL, newURL) = (scenario.url, scenario.directory.file("Teams.sqlite"))

        let people = NSEntityMapping()
        people.name = "EmployeeToPerson"
        people.mappingType = .customEntityMappingType
        people.sourceEntityName = "Employee"
        people.destinationEntityName = "Person"
        people.entityMigrationPolicyClassName = NSStringFromClass(GradingPolicy.self)   // "MyApp.GradingPolicy"
        people.attributeMappings = [("fullName", "$source.name"), ("pay", "$source.salary * 1.5"),
                                    ("grade", #"FUNCTION($entityPolicy, "gradeForSalary:", $source.salary)"#)].map { name, format in
            let property = NSPropertyMapping()
            property.name = name
            property.valueExpression = NSExpression(format: format)
            return property
        }
        let mapping = NSMappingModel()
        mapping.entityMappings = [people]

        let manager = NSMigrationManager(sourceModel: company, destinationModel: teams)
        try manager.migrateStore(from: oldURL, sourceType: NSSQLiteStoreType, options: nil, with: mapping,
                                 toDestinationURL: newURL, destinationType: NSSQLiteStoreType, destinationOptions: nil)

        #expect(try MigrationManagerTests.people(at: newURL) == [
            ["Ann", "4500", "senior", "nil"], ["Bob", "1500", "junior", "nil"], ["Cy", "7500", "senior", "nil"],
        ])
    }

    /// "Staged Migration" (MigratingStores.md): the article's custom stage, run by a container
    /// opening a v2 store with v3.
    @Test func stagedMigrationAsTheTourShowsIt() throws {
        let scenario = try StagedMigrationTests.notesStore("readme-staged", version: 2)
        defer { scenario.remove() }
        let (notesV2, notesV3, notesURL) = (StagedMigrationTests.notes(2), StagedMigrationTests.notes(3), scenario.url)

        let stage = NSCustomMigrationStage(
            migratingFrom: NSManagedObjectModelReference(model: notesV2, versionChecksum: notesV2.versionChecksum),
            to: NSManagedObjectModelReference(model: notesV3, versionChecksum: notesV3.versionChecksum))
        stage.willMigrateHandler = { manager, _ in                    // v3 makes titles mandatory
            let context = manager.container!.newBackgroundContext()
            try context.performAndWait {
                let untitled = NSFetchRequest<NSManagedObject>(entityName: "Note")
                untitled.predicate = NSPredicate(format: "title == nil")
                for note in try context.fetch(untitled) { note.setValue("Untitled", forKey: "title") }
                try context.save()
            }
        }
        let description = NSPersistentStoreDescription(url: notesURL)
        description.setOption(NSStagedMigrationManager([stage]), forKey: NSPersistentStoreStagedMigrationManagerOptionKey)

        let container = NSPersistentContainer(name: "Notes", managedObjectModel: notesV3)
        container.persistentStoreDescriptions = [description]
        var loadError: Error?
        container.loadPersistentStores { _, error in loadError = error }
        #expect(loadError == nil)
        let context = container.newBackgroundContext()
        #expect(try context.performAndWait { try StagedMigrationTests.titles(context) } == ["Groceries/nil", "Untitled/nil"])
        for store in container.persistentStoreCoordinator.persistentStores {
            try container.persistentStoreCoordinator.remove(store)
        }
    }
}
