import CoreData

/// The model of the fetched results controller tests: `RankedItem` (a unique `serial`, a sort key `score` with few
/// values so that ties are common, a section key `group`, `note`, which nothing sorts or
/// filters by, and a to-one `owner`), `Owner` (a `name`, which sections items through
/// `owner.name`, and the inverse to-many `items`) and `Label`, an entity the controller does not
/// fetch.
enum RankedItemModel {
    static let groups = ["A", "B", "C", "D", "E", "F"]
    static let scores: ClosedRange<Int16> = 0...6
    /// The names owners take; two owners may share one, and then their items share a section.
    static let ownerNames = ["Ann", "Bob", "Cid", "Dee", "Eve"]

    static func make() -> NSManagedObjectModel {
        let item = NSEntityDescription()
        item.name = "RankedItem"
        let owner = NSEntityDescription()
        owner.name = "Owner"
        let itemOwner = MovieModel.relationship("owner", to: owner, toMany: false, deleteRule: .nullifyDeleteRule)
        let ownerItems = MovieModel.relationship("items", to: item, toMany: true, deleteRule: .nullifyDeleteRule)
        itemOwner.inverseRelationship = ownerItems
        ownerItems.inverseRelationship = itemOwner
        item.properties = [
            MovieModel.attribute("serial", .integer64AttributeType),
            MovieModel.attribute("score", .integer16AttributeType),
            MovieModel.attribute("group", .stringAttributeType),
            MovieModel.attribute("note", .stringAttributeType),
            itemOwner,
        ]
        owner.properties = [MovieModel.attribute("name", .stringAttributeType), ownerItems]
        let label = NSEntityDescription()
        label.name = "Label"
        label.properties = [MovieModel.attribute("text", .stringAttributeType)]
        let model = NSManagedObjectModel()
        model.entities = [item, owner, label]
        return model
    }

    /// What a table cell shows for an item: every value, so that a stale cell is noticed.
    static func render(_ item: NSManagedObject) -> String {
        let serial = item.value(forKey: "serial") as? Int64 ?? -1
        let score = item.value(forKey: "score") as? Int16 ?? -1
        return "#\(serial) \(item.value(forKey: "group") as? String ?? "-")\(score) \(item.value(forKey: "note") as? String ?? "-")"
    }

    /// What a cell shows for an item of a list sectioned by owner: its owner's name too.
    static func renderWithOwner(_ item: NSManagedObject) -> String {
        render(item) + " @" + ((item.value(forKeyPath: "owner.name") as? String) ?? "-")
    }
}
