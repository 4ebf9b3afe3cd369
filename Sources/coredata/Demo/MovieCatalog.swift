import CoreData

/// The Movie / Actor / Character model of the Core Data tutorials, described in code, and the
/// sample data the demo saves.
enum MovieCatalog {
    /// Movie ⇄ Character ⇄ Actor. Deleting a movie cascades to its characters; deleting an actor
    /// who still plays a character is denied.
    static func makeModel() -> NSManagedObjectModel {
        let movie = entity("Movie")
        let actor = entity("Actor")
        let character = entity("Character")

        let characters = relationship("characters", to: character, toMany: true, deleteRule: .cascadeDeleteRule)
        let movieOfCharacter = relationship("movie", to: movie, toMany: false, deleteRule: .nullifyDeleteRule)
        let roles = relationship("roles", to: character, toMany: true, deleteRule: .denyDeleteRule)
        let actorOfCharacter = relationship("actor", to: actor, toMany: false, deleteRule: .nullifyDeleteRule)
        pair(characters, movieOfCharacter)
        pair(roles, actorOfCharacter)

        movie.properties = [
            attribute("title", .string, optional: false),
            attribute("year", .integer16),
            attribute("rating", .double),
            characters,
        ]
        actor.properties = [attribute("name", .string, optional: false), attribute("born", .integer16), roles]
        character.properties = [attribute("name", .string, optional: false), movieOfCharacter, actorOfCharacter]

        let model = NSManagedObjectModel()
        model.entities = [movie, actor, character]
        return model
    }

    /// (title, year, rating, [(character, actor)])
    static let movies: [(String, Int, Double, [(String, String)])] = [
        ("Alien", 1979, 8.5, [("Ellen Ripley", "Sigourney Weaver"), ("Dallas", "Tom Skerritt")]),
        ("Aliens", 1986, 8.4, [("Ellen Ripley", "Sigourney Weaver"), ("Bishop", "Lance Henriksen")]),
        ("Blade Runner", 1982, 8.1, [("Rick Deckard", "Harrison Ford"), ("Roy Batty", "Rutger Hauer")]),
        ("Star Wars", 1977, 8.6, [("Han Solo", "Harrison Ford"), ("Luke Skywalker", "Mark Hamill")]),
        ("The Terminator", 1984, 8.1, [("Sarah Connor", "Linda Hamilton"), ("Kyle Reese", "Michael Biehn")]),
        ("Terminator 2", 1991, 8.6, [("Sarah Connor", "Linda Hamilton")]),
        ("Gattaca", 1997, 7.8, [("Vincent Freeman", "Ethan Hawke")]),
        ("Arrival", 2016, 7.9, [("Louise Banks", "Amy Adams")]),
    ]

    /// Birth years of the actors.
    static let actors: [String: Int] = [
        "Sigourney Weaver": 1949, "Tom Skerritt": 1933, "Lance Henriksen": 1940, "Harrison Ford": 1942,
        "Rutger Hauer": 1944, "Mark Hamill": 1951, "Linda Hamilton": 1956, "Michael Biehn": 1956,
        "Ethan Hawke": 1970, "Amy Adams": 1974,
    ]

    /// Inserts the sample movies, actors and characters.
    static func insertSampleData(into context: NSManagedObjectContext) {
        var actorObjects: [String: NSManagedObject] = [:]
        for (name, born) in actors {
            let actor = NSEntityDescription.insertNewObject(forEntityName: "Actor", into: context)
            actor.setValue(name, forKey: "name")
            actor.setValue(born, forKey: "born")
            actorObjects[name] = actor
        }
        for (title, year, rating, cast) in movies {
            let movie = NSEntityDescription.insertNewObject(forEntityName: "Movie", into: context)
            movie.setValue(title, forKey: "title")
            movie.setValue(year, forKey: "year")
            movie.setValue(rating, forKey: "rating")
            for (characterName, actorName) in cast {
                let character = NSEntityDescription.insertNewObject(forEntityName: "Character", into: context)
                character.setValue(characterName, forKey: "name")
                character.setValue(movie, forKey: "movie")
                character.setValue(actorObjects[actorName], forKey: "actor")
            }
        }
    }

    private static func entity(_ name: String) -> NSEntityDescription {
        let entity = NSEntityDescription()
        entity.name = name
        return entity
    }

    private static func attribute(_ name: String, _ type: NSAttributeDescription.AttributeType, optional: Bool = true) -> NSAttributeDescription {
        let attribute = NSAttributeDescription()
        attribute.name = name
        attribute.type = type
        attribute.isOptional = optional
        return attribute
    }

    private static func relationship(_ name: String, to destination: NSEntityDescription, toMany: Bool, deleteRule: NSDeleteRule) -> NSRelationshipDescription {
        let relationship = NSRelationshipDescription()
        relationship.name = name
        relationship.destinationEntity = destination
        relationship.maxCount = toMany ? 0 : 1
        relationship.deleteRule = deleteRule
        return relationship
    }

    private static func pair(_ first: NSRelationshipDescription, _ second: NSRelationshipDescription) {
        first.inverseRelationship = second
        second.inverseRelationship = first
    }
}
