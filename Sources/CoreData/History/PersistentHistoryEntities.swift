/// The entities of persistent history's transactions and changes, which fetch requests given to
/// an `NSPersistentHistoryChangeRequest` name. Their attributes are the keys predicates over
/// transactions and changes may use.
enum PersistentHistoryEntities {
    static let transactionName = "Transaction"
    static let changeName = "Change"

    static func transaction() -> NSEntityDescription {
        entity(transactionName, attributes: [
            ("author", .stringAttributeType), ("bundleID", .stringAttributeType), ("contextName", .stringAttributeType),
            ("processID", .stringAttributeType), ("storeID", .stringAttributeType), ("timestamp", .dateAttributeType),
            ("transactionNumber", .integer64AttributeType),
        ])
    }

    static func change() -> NSEntityDescription {
        entity(changeName, attributes: [
            ("changeID", .integer64AttributeType), ("changeType", .integer64AttributeType),
            ("changedObjectID", .objectIDAttributeType), ("tombstone", .transformableAttributeType),
        ])
    }

    static func fetchRequest(for entity: NSEntityDescription?) -> NSFetchRequest<NSFetchRequestResult>? {
        guard let entity else { return nil }
        let request = NSFetchRequest<NSFetchRequestResult>(entityName: entity.name ?? "")
        request.entity = entity
        return request
    }

    private static func entity(_ name: String, attributes: [(String, NSAttributeType)]) -> NSEntityDescription {
        let entity = NSEntityDescription()
        entity.name = name
        entity.properties = attributes.map { name, type in
            let attribute = NSAttributeDescription()
            attribute.name = name
            attribute.attributeType = type
            return attribute
        }
        return entity
    }
}
