#if canImport(CoreData)
import CoreData

/// The model of the 1M-row read workloads (W3, W4, W9), built in code: one entity `ScoredItem`
/// with the attributes of ``ScoredItemTable``, and a fetch index on `score`, which our SQLite store
/// turns into `CREATE INDEX Z_ScoredItem_byScore ON ZSCOREDITEM (ZSCORE COLLATE BINARY ASC)`.
/// `unindexedScore` holds the same values without an index.
enum ScoredItemModel {
    /// The model (a new instance each time, as each stack builds its own).
    static func make() -> NSManagedObjectModel {
        let entity = NSEntityDescription()
        entity.name = ScoredItemTable.entityName
        let attributes: [(String, NSAttributeType)] = [
            ("created", .dateAttributeType),
            ("flag", .booleanAttributeType),
            ("name", .stringAttributeType),
            ("price", .doubleAttributeType),
            ("score", .integer64AttributeType),
            ("unindexedScore", .integer64AttributeType),
        ]
        entity.properties = attributes.map { name, type in
            let attribute = NSAttributeDescription()
            attribute.name = name
            attribute.attributeType = type
            attribute.isOptional = true
            return attribute
        }
        let score = entity.propertiesByName["score"]!
        entity.indexes = [
            NSFetchIndexDescription(
                name: ScoredItemTable.scoreIndexName,
                elements: [NSFetchIndexElementDescription(property: score, collationType: .binary)]),
        ]
        let model = NSManagedObjectModel()
        model.entities = [entity]
        return model
    }

    /// Objects inserted and saved per batch while building the fixture, the context reset after
    /// each save, so that building a million rows does not hold a million objects.
    static let fixtureSaveBatch = 100_000

    /// Creates a store at `url` holding `count` objects with the values of
    /// ``ScoredItemTable/values(at:count:)``, inserted with `insertNewObject(forEntityName:into:)` and
    /// `setValue(_:forKey:)` and saved by our Core Data in batches, and closes it. The fixture
    /// builder of W3, W4 and W9, so that the store carries our schema and metadata tables.
    static func createStore(at url: URL, count: Int, settings: StoreSettings) throws {
        try fill(CoreDataItemStack(storeURL: url, settings: settings, model: make()), count: count)
    }

    /// Inserts and saves `count` objects into the store of `stack` as ``createStore(at:count:settings:)``
    /// does, then closes the stack.
    static func fill(_ stack: CoreDataItemStack, count: Int) throws {
        let context = stack.context
        try context.performAndWait {
            for start in stride(from: 0, to: count, by: fixtureSaveBatch) {
                for index in start..<min(start + fixtureSaveBatch, count) {
                    let values = ScoredItemTable.values(at: index, count: count)
                    let item = NSEntityDescription.insertNewObject(forEntityName: ScoredItemTable.entityName, into: context)
                    item.setValue(Date(timeIntervalSinceReferenceDate: values.created), forKey: "created")
                    item.setValue(NSNumber(value: values.flag), forKey: "flag")
                    item.setValue(values.name, forKey: "name")
                    item.setValue(NSNumber(value: values.price), forKey: "price")
                    item.setValue(NSNumber(value: values.score), forKey: "score")
                    item.setValue(NSNumber(value: values.unindexedScore), forKey: "unindexedScore")
                }
                try context.save()
                context.reset()
            }
        }
        try stack.close()
    }

    /// The score of `object`, read with `value(forKey:)` (which fires the fault). Call it on the
    /// context's queue.
    static func score(of object: NSManagedObject, peer: String) throws -> Int64 {
        try CoreDataItemStack.int64(object.value(forKey: "score"), key: "score", peer: peer)
    }

    /// A fetch request for the entity, optionally with a predicate in Apple's format syntax.
    static func request(predicate format: String? = nil, _ arguments: Any...) -> NSFetchRequest<NSManagedObject> {
        let request = NSFetchRequest<NSManagedObject>(entityName: ScoredItemTable.entityName)
        if let format {
            request.predicate = NSPredicate(format: format, argumentArray: arguments)
        }
        return request
    }

    /// The request for the rows whose `attribute` (`score` or `unindexedScore`) lies in W3's
    /// range of scores for a fixture of `count` rows: `attribute BETWEEN {lower, upper}`.
    static func scoreRangeRequest(_ attribute: String, count: Int) -> NSFetchRequest<NSManagedObject> {
        let range = ScoredItemTable.scoreRange(count: count)
        return request(predicate: "%K BETWEEN %@", attribute, [NSNumber(value: range.lowerBound), NSNumber(value: range.upperBound)])
    }
}
#endif
