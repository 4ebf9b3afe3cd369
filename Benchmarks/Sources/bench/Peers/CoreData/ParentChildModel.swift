#if canImport(CoreData)
import CoreData

/// The model of W5's to-many traversal, built in code: `Parent` (`rank`, Int64) with a to-many
/// `children` relationship to `Child` (`serial` and `weight`, Int64), whose inverse is the to-one
/// `parent`. Our SQLite store puts the foreign key in `ZCHILD.ZPARENT` and indexes it
/// (``ParentChildTable``).
enum ParentChildModel {
    /// The model (a new instance each time, as each stack builds its own).
    static func make() -> NSManagedObjectModel {
        let parent = NSEntityDescription()
        parent.name = ParentChildTable.parentEntityName
        let child = NSEntityDescription()
        child.name = ParentChildTable.childEntityName

        let children = NSRelationshipDescription()
        children.name = ParentChildTable.childrenKey
        children.destinationEntity = child
        children.minCount = 0
        children.maxCount = 0
        children.deleteRule = .cascadeDeleteRule
        children.isOptional = true

        let toParent = NSRelationshipDescription()
        toParent.name = ParentChildTable.parentKey
        toParent.destinationEntity = parent
        toParent.minCount = 0
        toParent.maxCount = 1
        toParent.deleteRule = .nullifyDeleteRule
        toParent.isOptional = true

        children.inverseRelationship = toParent
        toParent.inverseRelationship = children

        parent.properties = [integerAttribute("rank"), children]
        let (serial, weight) = ParentChildTable.readAttributes
        child.properties = [integerAttribute(serial), integerAttribute(weight), toParent]

        let model = NSManagedObjectModel()
        model.entities = [parent, child]
        return model
    }

    /// An optional Int64 attribute.
    private static func integerAttribute(_ name: String) -> NSAttributeDescription {
        let attribute = NSAttributeDescription()
        attribute.name = name
        attribute.attributeType = .integer64AttributeType
        attribute.isOptional = true
        return attribute
    }

    /// Creates a store at `url` holding the parents and children of a fixture of `count` children
    /// (``ParentChildTable/childValues(at:parents:)``), inserted with
    /// `insertNewObject(forEntityName:into:)` and `setValue(_:forKey:)` (the child's `parent`, which
    /// also adds it to the parent's `children`) and saved by our Core Data in one save, and closes
    /// it. W5's fixture builder, so that the store carries our schema, foreign-key index and
    /// metadata tables.
    static func createStore(at url: URL, count: Int, settings: StoreSettings) throws {
        let stack = try CoreDataItemStack(storeURL: url, settings: settings, model: make())
        let context = stack.context
        let parentCount = ParentChildTable.parentCount(count: count)
        let (serialKey, weightKey) = ParentChildTable.readAttributes
        try context.performAndWait {
            let parents = (0..<parentCount).map { index in
                let parent = NSEntityDescription.insertNewObject(forEntityName: ParentChildTable.parentEntityName, into: context)
                parent.setValue(NSNumber(value: ParentChildTable.parentRank(at: index)), forKey: "rank")
                return parent
            }
            for index in 0..<ParentChildTable.childCount(count: count) {
                let values = ParentChildTable.childValues(at: index, parents: parentCount)
                let child = NSEntityDescription.insertNewObject(forEntityName: ParentChildTable.childEntityName, into: context)
                child.setValue(NSNumber(value: values.serial), forKey: serialKey)
                child.setValue(NSNumber(value: values.weight), forKey: weightKey)
                child.setValue(parents[values.parent], forKey: ParentChildTable.parentKey)
            }
            try context.save()
        }
        try stack.close()
    }

    /// The fetch request for every parent.
    static func parentsRequest() -> NSFetchRequest<NSManagedObject> {
        NSFetchRequest<NSManagedObject>(entityName: ParentChildTable.parentEntityName)
    }

    /// The sum of `serial + weight` over the children of `parent`, reached through
    /// `value(forKey: "children")` (an `NSSet`, as the `children` property of a generated
    /// `NSManagedObject` subclass is), reading both attributes with `value(forKey:)`. Call it on
    /// the context's queue.
    static func childrenSum(of parent: NSManagedObject, peer: String) throws -> Int64 {
        guard let children = parent.value(forKey: ParentChildTable.childrenKey) as? NSSet else {
            throw BenchmarkError.unexpectedValue(peer: peer, detail: "value(forKey: \"children\") is not an NSSet")
        }
        let (serialKey, weightKey) = ParentChildTable.readAttributes
        var sum: Int64 = 0
        for case let child as NSManagedObject in children {
            sum &+= try CoreDataItemStack.int64(child.value(forKey: serialKey), key: serialKey, peer: peer)
            sum &+= try CoreDataItemStack.int64(child.value(forKey: weightKey), key: weightKey, peer: peer)
        }
        return sum
    }
}
#endif
