@testable import CoreData
import Testing

/// Descriptions reference their entity, and entities their model, without a weak reference
/// (`OwnerReference`): the owner clears the reference when it goes or lets the description go, so
/// that a description the app keeps reads no owner afterwards instead of a deallocated one.
@Suite struct OwnerReferenceTests {
    @Test func descriptionsThatOutliveTheirEntityBelongToNone() {
        let attribute = NSAttributeDescription()
        attribute.name = "title"
        let index = NSFetchIndexDescription(name: "byTitle", elements: [])
        let child = entity(named: "Child")
        do {
            let parent = entity(named: "Parent")
            parent.properties = [attribute]
            parent.indexes = [index]
            parent.subentities = [child]
            #expect(attribute.owner === parent)
            #expect(index.entity === parent)
            #expect(child.superentity === parent)
        }
        #expect(attribute.owner == nil)
        #expect(index.entity == nil)
        #expect(child.superentity == nil)
    }

    @Test func anEntityThatOutlivesItsModelBelongsToNone() {
        let entity = self.entity(named: "Movie")
        do {
            let model = NSManagedObjectModel()
            model.entities = [entity]
            #expect(entity.managedObjectModel === model)
        }
        #expect(entity.managedObjectModel == nil)
    }

    @Test func aPropertyMovedToAnotherEntityKeepsItWhenTheFirstGoes() {
        let attribute = NSAttributeDescription()
        attribute.name = "title"
        let second = entity(named: "Second")
        do {
            let first = entity(named: "First")
            first.properties = [attribute]
            second.properties = [attribute]
        }
        #expect(attribute.owner === second)
    }

    @Test func aReplacedIndexBelongsToNoEntity() {
        let entity = self.entity(named: "Movie")
        let replaced = NSFetchIndexDescription(name: "old", elements: [])
        entity.indexes = [replaced]
        entity.indexes = [NSFetchIndexDescription(name: "new", elements: [])]
        #expect(replaced.entity == nil)
        #expect(entity.indexes.first?.entity === entity)
    }

    private func entity(named name: String) -> NSEntityDescription {
        let entity = NSEntityDescription()
        entity.name = name
        return entity
    }
}
