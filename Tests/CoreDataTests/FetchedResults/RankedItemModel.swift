import CoreData

/// The model of the fetched results controller tests: `RankedItem` (a unique `serial`, a sort key `score` with few
/// values so that ties are common, a section key `group`, and `note`, which nothing sorts or
/// filters by) and `Label`, an entity the controller does not fetch.
enum RankedItemModel {
    static let groups = ["A", "B", "C", "D", "E", "F"]
    static let scores: ClosedRange<Int16> = 0...6

    static func make() -> NSManagedObjectModel {
        let item = NSEntityDescription()
        item.name = "RankedItem"
        item.properties = [
            MovieModel.attribute("serial", .integer64AttributeType),
            MovieModel.attribute("score", .integer16AttributeType),
            MovieModel.attribute("group", .stringAttributeType),
            MovieModel.attribute("note", .stringAttributeType),
        ]
        let label = NSEntityDescription()
        label.name = "Label"
        label.properties = [MovieModel.attribute("text", .stringAttributeType)]
        let model = NSManagedObjectModel()
        model.entities = [item, label]
        return model
    }

    /// What a table cell shows for an item: every value, so that a stale cell is noticed.
    static func render(_ item: NSManagedObject) -> String {
        let serial = item.value(forKey: "serial") as? Int64 ?? -1
        let score = item.value(forKey: "score") as? Int16 ?? -1
        return "#\(serial) \(item.value(forKey: "group") as? String ?? "-")\(score) \(item.value(forKey: "note") as? String ?? "-")"
    }
}
