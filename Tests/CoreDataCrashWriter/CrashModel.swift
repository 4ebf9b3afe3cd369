import CoreData

/// The model the crash writer saves into, built in code: batches of items, each batch with its
/// tag. It covers what a save can write: a to-one foreign key (`Item.batch`), a many-to-many join
/// table (`Item.tags`), a one-to-one pair (`Batch.tag`), cascading deletes, inline binary data
/// (`payload`), binary data that may live in a file beside the store (`attachment`), and a
/// uniqueness constraint (`writer`, `number`).
enum CrashModel {
    static func make() -> NSManagedObjectModel {
        let batch = entity("Batch")
        let item = entity("Item")
        let tag = entity("Tag")

        let attachment = attribute("attachment", .binaryDataAttributeType)
        attachment.allowsExternalBinaryDataStorage = true

        let items = relationship("items", to: item, maxCount: 0, deleteRule: .cascadeDeleteRule)
        let itemBatch = relationship("batch", to: batch, maxCount: 1, deleteRule: .nullifyDeleteRule)
        pair(items, itemBatch)
        let batchTag = relationship("tag", to: tag, maxCount: 1, deleteRule: .cascadeDeleteRule)
        let tagBatch = relationship("batch", to: batch, maxCount: 1, deleteRule: .nullifyDeleteRule)
        pair(batchTag, tagBatch)
        let itemTags = relationship("tags", to: tag, maxCount: 0, deleteRule: .nullifyDeleteRule)
        let tagItems = relationship("items", to: item, maxCount: 0, deleteRule: .nullifyDeleteRule)
        pair(itemTags, tagItems)

        batch.properties = [
            attribute("writer", .stringAttributeType, optional: false),
            attribute("number", .integer64AttributeType, optional: false),
            attribute("followedBy", .integer64AttributeType, optional: false),
            items,
            batchTag,
        ]
        batch.uniquenessConstraints = [["writer", "number"]]
        item.properties = [
            attribute("name", .stringAttributeType, optional: false),
            attribute("index", .integer64AttributeType, optional: false),
            attribute("payload", .binaryDataAttributeType),
            attachment,
            itemBatch,
            itemTags,
        ]
        tag.properties = [attribute("name", .stringAttributeType, optional: false), tagBatch, tagItems]

        let model = NSManagedObjectModel()
        model.entities = [batch, item, tag]
        return model
    }

    private static func entity(_ name: String) -> NSEntityDescription {
        let entity = NSEntityDescription()
        entity.name = name
        return entity
    }

    private static func attribute(_ name: String, _ type: NSAttributeType, optional: Bool = true) -> NSAttributeDescription {
        let attribute = NSAttributeDescription()
        attribute.name = name
        attribute.attributeType = type
        attribute.isOptional = optional
        if !optional && type == .integer64AttributeType {
            attribute.defaultValue = 0
        }
        return attribute
    }

    private static func relationship(_ name: String, to destination: NSEntityDescription, maxCount: Int, deleteRule: NSDeleteRule) -> NSRelationshipDescription {
        let relationship = NSRelationshipDescription()
        relationship.name = name
        relationship.destinationEntity = destination
        relationship.maxCount = maxCount
        relationship.deleteRule = deleteRule
        return relationship
    }

    private static func pair(_ relationship: NSRelationshipDescription, _ inverse: NSRelationshipDescription) {
        relationship.inverseRelationship = inverse
        inverse.inverseRelationship = relationship
    }
}
