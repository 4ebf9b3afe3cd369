import CoreData

/// The model and the fixed dataset of the predicate conformance table
/// (`Predicate/Conformance/StoreConformanceTests.swift`): one entity with an attribute of each
/// kind predicates compare, a to-one and a to-many relationship.
///
/// Every `Item` has a one-letter `label`, which is how the cases name the rows they expect.
/// Days count from 2001-01-01 (the reference date).
///
/// | label | name       | count | price | flag | day | owner         | tags (text weight)        |
/// |-------|------------|-------|-------|------|-----|---------------|---------------------------|
/// | A     | Alpha      | 1     | 1.5   | YES  | 0   | Ann           | red 1, blue 2             |
/// | B     | alpha      | 2     | 2.5   | NO   | 1   | Bob           | Red 3                     |
/// | C     | ALPHA      | 3     | nil   | YES  | nil | nil           |                           |
/// | D     | Éclair     | 10    | 10    | NO   | 2   | Ann           | green 5                   |
/// | E     | eclair     | -5    | -0.5  | YES  | -1  | Bob           | red 1, green 2, blue 3    |
/// | F     | Straße     | 0     | 0     | NO   | 3   | Zoë           | blue 4                    |
/// | G     | STRASSE    | 7     | 7.25  | nil  | 4   | nil           | Blue 4                    |
/// | H     | "" (empty) | nil   | 3     | NO   | 5   | Ann           |                           |
/// | I     | nil        | 4     | nil   | nil  | nil | nil           |                           |
/// | J     | a.b*c?     | 100   | 99.99 | YES  | 6   | O'Hara"; --   | red 0                     |
enum ConformanceModel {
    struct Row {
        let label: String
        let name: String?
        let count: Int?
        let price: Double?
        let flag: Bool?
        let day: Double?
        let owner: String?
        let tags: [(text: String, weight: Int)]
    }

    /// The name of the owner whose name is made of SQL punctuation.
    static let punctuatedOwner = "O'Hara\"; --"

    static let owners = ["Ann", "Bob", "Zoë", punctuatedOwner]

    static let rows: [Row] = [
        Row(label: "A", name: "Alpha", count: 1, price: 1.5, flag: true, day: 0, owner: "Ann", tags: [("red", 1), ("blue", 2)]),
        Row(label: "B", name: "alpha", count: 2, price: 2.5, flag: false, day: 1, owner: "Bob", tags: [("Red", 3)]),
        Row(label: "C", name: "ALPHA", count: 3, price: nil, flag: true, day: nil, owner: nil, tags: []),
        Row(label: "D", name: "Éclair", count: 10, price: 10, flag: false, day: 2, owner: "Ann", tags: [("green", 5)]),
        Row(label: "E", name: "eclair", count: -5, price: -0.5, flag: true, day: -1, owner: "Bob", tags: [("red", 1), ("green", 2), ("blue", 3)]),
        Row(label: "F", name: "Straße", count: 0, price: 0, flag: false, day: 3, owner: "Zoë", tags: [("blue", 4)]),
        Row(label: "G", name: "STRASSE", count: 7, price: 7.25, flag: nil, day: 4, owner: nil, tags: [("Blue", 4)]),
        Row(label: "H", name: "", count: nil, price: 3, flag: false, day: 5, owner: "Ann", tags: []),
        Row(label: "I", name: nil, count: 4, price: nil, flag: nil, day: nil, owner: nil, tags: []),
        Row(label: "J", name: "a.b*c?", count: 100, price: 99.99, flag: true, day: 6, owner: punctuatedOwner, tags: [("red", 0)]),
    ]

    /// The date `days` days after the reference date.
    static func date(days: Double) -> Date {
        Date(timeIntervalSinceReferenceDate: days * 86_400)
    }

    static func make() -> NSManagedObjectModel {
        let item = entity("Item")
        let owner = entity("Owner")
        let tag = entity("Tag")

        let itemOwner = relationship("owner", to: owner, toMany: false)
        let ownerItems = relationship("items", to: item, toMany: true)
        let itemTags = relationship("tags", to: tag, toMany: true)
        let tagItem = relationship("item", to: item, toMany: false)
        itemOwner.inverseRelationship = ownerItems
        ownerItems.inverseRelationship = itemOwner
        itemTags.inverseRelationship = tagItem
        tagItem.inverseRelationship = itemTags

        item.properties = [
            MovieModel.attribute("label", .stringAttributeType, optional: false),
            MovieModel.attribute("name", .stringAttributeType),
            MovieModel.attribute("count", .integer32AttributeType),
            MovieModel.attribute("price", .doubleAttributeType),
            MovieModel.attribute("flag", .booleanAttributeType),
            MovieModel.attribute("day", .dateAttributeType),
            itemOwner, itemTags,
        ]
        owner.properties = [MovieModel.attribute("name", .stringAttributeType), ownerItems]
        tag.properties = [
            MovieModel.attribute("text", .stringAttributeType), MovieModel.attribute("weight", .integer32AttributeType), tagItem,
        ]

        let model = NSManagedObjectModel()
        model.entities = [item, owner, tag]
        return model
    }

    /// Inserts the owners, the items and their tags into `context` (without saving).
    static func insertRows(into context: NSManagedObjectContext) {
        var ownersByName: [String: NSManagedObject] = [:]
        for name in owners {
            let owner = NSEntityDescription.insertNewObject(forEntityName: "Owner", into: context)
            owner.setValue(name, forKey: "name")
            ownersByName[name] = owner
        }
        for row in rows {
            let item = NSEntityDescription.insertNewObject(forEntityName: "Item", into: context)
            item.setValue(row.label, forKey: "label")
            item.setValue(row.name, forKey: "name")
            item.setValue(row.count, forKey: "count")
            item.setValue(row.price, forKey: "price")
            item.setValue(row.flag, forKey: "flag")
            item.setValue(row.day.map(date(days:)), forKey: "day")
            item.setValue(row.owner.flatMap { ownersByName[$0] }, forKey: "owner")
            for (text, weight) in row.tags {
                let tag = NSEntityDescription.insertNewObject(forEntityName: "Tag", into: context)
                tag.setValue(text, forKey: "text")
                tag.setValue(weight, forKey: "weight")
                tag.setValue(item, forKey: "item")
            }
        }
    }

    private static func entity(_ name: String) -> NSEntityDescription {
        let entity = NSEntityDescription()
        entity.name = name
        return entity
    }

    private static func relationship(_ name: String, to destination: NSEntityDescription, toMany: Bool) -> NSRelationshipDescription {
        MovieModel.relationship(name, to: destination, toMany: toMany, deleteRule: .nullifyDeleteRule)
    }
}
