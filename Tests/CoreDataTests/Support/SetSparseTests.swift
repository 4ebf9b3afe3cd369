@testable import CoreData
import Testing

/// `Set(sparselyHolding:)`, which save notifications build their sets with.
@Suite struct SetSparseTests {
    @Test func holdsTheSameElementsAsSetWithTwiceTheRoom() {
        let elements = (0..<1000).map { $0 % 700 }
        let sparse = Set(sparselyHolding: elements)
        #expect(sparse == Set(elements))
        #expect(sparse.count == 700)
        #expect(sparse.capacity >= 2 * elements.count)
    }

    @Test func holdsManagedObjectsByIdentity() {
        let entity = NSEntityDescription()
        entity.name = "Note"
        let objects = (0..<50).map { _ in NSManagedObject(entity: entity, insertInto: nil) }
        let sparse = Set(sparselyHolding: objects + objects.prefix(10))
        #expect(sparse.count == 50)
        #expect(objects.allSatisfy(sparse.contains))
        #expect(Set(sparselyHolding: [NSManagedObject]()).isEmpty)
    }
}
