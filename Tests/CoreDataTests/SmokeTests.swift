import CoreData
import Testing

@Test func smoke() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
    let url = directory.appendingPathComponent("Movies.sqlite")
    let model = MovieModel.make()
    do {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url, options: nil)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            let movie = NSEntityDescription.insertNewObject(forEntityName: "Movie", into: context)
            movie.setValue("Alien", forKey: "title")
            movie.setValue(1979, forKey: "year")
            let actor = NSEntityDescription.insertNewObject(forEntityName: "Actor", into: context)
            actor.setValue("Sigourney Weaver", forKey: "name")
            let ripley = NSEntityDescription.insertNewObject(forEntityName: "Character", into: context)
            ripley.setValue("Ripley", forKey: "name")
            ripley.setValue(movie, forKey: "movie")
            ripley.setValue(actor, forKey: "actor")
            #expect((movie.value(forKey: "characters") as? NSSet)?.count == 1)
            try context.save()
            #expect(!movie.objectID.isTemporaryID)
            print(movie.objectID.uriRepresentation())
        }
    }
    let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
    try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url, options: nil)
    let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
    context.persistentStoreCoordinator = coordinator
    try context.performAndWait {
        let request = NSFetchRequest<NSManagedObject>(entityName: "Movie")
        request.predicate = NSPredicate(format: "title BEGINSWITH[c] %@", "al")
        let movies = try context.fetch(request)
        #expect(movies.count == 1)
        let movie = try #require(movies.first)
        #expect(movie.value(forKey: "title") as? String == "Alien")
        #expect(movie.value(forKey: "year") as? Int == 1979)
        let characters = movie.value(forKey: "characters") as? NSSet
        #expect(characters?.count == 1)
        let ripley = characters?.anyObject() as? NSManagedObject
        #expect((ripley?.value(forKeyPath: "actor.name") as? String) == "Sigourney Weaver")
    }
    try? FileManager.default.removeItem(at: directory)
}
