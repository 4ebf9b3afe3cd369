import CoreData

/// A model built in code for the object-graph suites (Objects/, Context/, Container/):
///
/// - `Item`: one optional attribute of every scalar type (`int16`, `int32`, `int64`, `double`,
///   `float`, `bool`, `decimal`, `string`, `date`, `data`, `uuid`, `uri`).
/// - `Person` (`name`, `age`) with `passport` ↔ `Passport.holder` (one-to-one),
///   `pets` ↔ `Pet.owner` (one-to-many) and `clubs` ↔ `Club.members` (many-to-many); all nullify.
/// - `Playlist.songs` (ordered to-many) ↔ `Song.playlist`.
/// - `Node.children` (cascade) ↔ `Node.parent` (nullify): a tree for recursive cascades.
/// - `Folder.files` (no action) ↔ `File.folder` (nullify).
/// - `Animal` (`name`) with sub-entities `Dog` (`barks`) and `Cat` (`lives`).
enum CtxGraphModel {
    static func make(configure: (([String: NSEntityDescription]) -> Void)? = nil) -> NSManagedObjectModel {
        let item = entity("Item")
        item.properties = [
            attribute("int16", .integer16AttributeType),
            attribute("int32", .integer32AttributeType),
            attribute("int64", .integer64AttributeType),
            attribute("double", .doubleAttributeType),
            attribute("float", .floatAttributeType),
            attribute("bool", .booleanAttributeType),
            attribute("decimal", .decimalAttributeType),
            attribute("string", .stringAttributeType),
            attribute("date", .dateAttributeType),
            attribute("data", .binaryDataAttributeType),
            attribute("uuid", .UUIDAttributeType),
            attribute("uri", .URIAttributeType),
        ]

        let person = entity("Person")
        let passport = entity("Passport")
        let pet = entity("Pet")
        let club = entity("Club")
        let personPassport = relationship("passport", to: passport, toMany: false)
        let passportHolder = relationship("holder", to: person, toMany: false)
        let personPets = relationship("pets", to: pet, toMany: true)
        let petOwner = relationship("owner", to: person, toMany: false)
        let personClubs = relationship("clubs", to: club, toMany: true)
        let clubMembers = relationship("members", to: person, toMany: true)
        link(personPassport, passportHolder)
        link(personPets, petOwner)
        link(personClubs, clubMembers)
        person.properties = [attribute("name", .stringAttributeType), attribute("age", .integer16AttributeType), personPassport, personPets, personClubs]
        passport.properties = [attribute("number", .stringAttributeType), passportHolder]
        pet.properties = [attribute("name", .stringAttributeType), petOwner]
        club.properties = [attribute("name", .stringAttributeType), clubMembers]

        let playlist = entity("Playlist")
        let song = entity("Song")
        let songs = relationship("songs", to: song, toMany: true)
        songs.isOrdered = true
        let songPlaylist = relationship("playlist", to: playlist, toMany: false)
        link(songs, songPlaylist)
        playlist.properties = [attribute("name", .stringAttributeType), songs]
        song.properties = [attribute("title", .stringAttributeType), songPlaylist]

        let node = entity("Node")
        let children = relationship("children", to: node, toMany: true, deleteRule: .cascadeDeleteRule)
        let parent = relationship("parent", to: node, toMany: false)
        link(children, parent)
        node.properties = [attribute("name", .stringAttributeType), children, parent]

        let folder = entity("Folder")
        let file = entity("File")
        let files = relationship("files", to: file, toMany: true, deleteRule: .noActionDeleteRule)
        let fileFolder = relationship("folder", to: folder, toMany: false)
        link(files, fileFolder)
        folder.properties = [attribute("name", .stringAttributeType), files]
        file.properties = [attribute("name", .stringAttributeType), fileFolder]

        let animal = entity("Animal")
        let dog = entity("Dog")
        let cat = entity("Cat")
        animal.subentities = [dog, cat]
        animal.properties = [attribute("name", .stringAttributeType)]
        dog.properties = [attribute("barks", .booleanAttributeType)]
        cat.properties = [attribute("lives", .integer16AttributeType)]

        let entities = [item, person, passport, pet, club, playlist, song, node, folder, file, animal, dog, cat]
        configure?(Dictionary(uniqueKeysWithValues: entities.map { ($0.name!, $0) }))
        let model = NSManagedObjectModel()
        model.entities = entities
        return model
    }

    static func entity(_ name: String) -> NSEntityDescription {
        let entity = NSEntityDescription()
        entity.name = name
        return entity
    }

    static func attribute(_ name: String, _ type: NSAttributeType, optional: Bool = true) -> NSAttributeDescription {
        let attribute = NSAttributeDescription()
        attribute.name = name
        attribute.attributeType = type
        attribute.isOptional = optional
        return attribute
    }

    static func relationship(_ name: String, to destination: NSEntityDescription, toMany: Bool, deleteRule: NSDeleteRule = .nullifyDeleteRule, optional: Bool = true) -> NSRelationshipDescription {
        let relationship = NSRelationshipDescription()
        relationship.name = name
        relationship.destinationEntity = destination
        relationship.maxCount = toMany ? 0 : 1
        relationship.deleteRule = deleteRule
        relationship.isOptional = optional
        return relationship
    }

    static func link(_ a: NSRelationshipDescription, _ b: NSRelationshipDescription) {
        a.inverseRelationship = b
        b.inverseRelationship = a
    }
}
