import CoreData

/// One shared counter that writer processes change at once: `total`, which every writer
/// increments, and `byWriter0` … `byWriter3`, each of which one writer alone increments.
enum CounterModel {
    static let writerCount = 4

    static func make() -> NSManagedObjectModel {
        let counter = NSEntityDescription()
        counter.name = "Counter"
        counter.properties = (["total"] + (0..<writerCount).map(propertyName(ofWriter:))).map { name in
            let attribute = NSAttributeDescription()
            attribute.name = name
            attribute.attributeType = .integer64AttributeType
            attribute.isOptional = false
            attribute.defaultValue = 0
            return attribute
        }
        let model = NSManagedObjectModel()
        model.entities = [counter]
        return model
    }

    static func propertyName(ofWriter writer: Int) -> String {
        "byWriter\(writer)"
    }
}
