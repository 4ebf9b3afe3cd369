import CoreData

/// The Movie / Actor / Character model of the Core Data tutorials, built in code for tests.
enum MovieModel {
    static func make() -> NSManagedObjectModel {
        let movie = NSEntityDescription()
        movie.name = "Movie"
        let actor = NSEntityDescription()
        actor.name = "Actor"
        let character = NSEntityDescription()
        character.name = "Character"

        let title = attribute("title", .stringAttributeType, optional: false)
        let year = attribute("year", .integer16AttributeType)
        let rating = attribute("rating", .doubleAttributeType)
        let released = attribute("released", .dateAttributeType)

        let actorName = attribute("name", .stringAttributeType, optional: false)
        let born = attribute("born", .dateAttributeType)

        let characterName = attribute("name", .stringAttributeType, optional: false)

        let characters = relationship("characters", to: character, toMany: true, deleteRule: .cascadeDeleteRule)
        let roles = relationship("roles", to: character, toMany: true, deleteRule: .denyDeleteRule)
        let characterMovie = relationship("movie", to: movie, toMany: false, deleteRule: .nullifyDeleteRule)
        let characterActor = relationship("actor", to: actor, toMany: false, deleteRule: .nullifyDeleteRule)
        characters.inverseRelationship = characterMovie
        characterMovie.inverseRelationship = characters
        roles.inverseRelationship = characterActor
        characterActor.inverseRelationship = roles

        movie.properties = [title, year, rating, released, characters]
        actor.properties = [actorName, born, roles]
        character.properties = [characterName, characterMovie, characterActor]

        let model = NSManagedObjectModel()
        model.entities = [movie, actor, character]
        return model
    }

    static func attribute(_ name: String, _ type: NSAttributeType, optional: Bool = true) -> NSAttributeDescription {
        let attribute = NSAttributeDescription()
        attribute.name = name
        attribute.attributeType = type
        attribute.isOptional = optional
        return attribute
    }

    static func relationship(_ name: String, to destination: NSEntityDescription, toMany: Bool, deleteRule: NSDeleteRule) -> NSRelationshipDescription {
        let relationship = NSRelationshipDescription()
        relationship.name = name
        relationship.destinationEntity = destination
        relationship.maxCount = toMany ? 0 : 1
        relationship.deleteRule = deleteRule
        return relationship
    }
}
