@testable import CoreData
import Foundation
import Testing

/// The attribute rules for values of object-ID attributes, which Model/ checks without naming
/// `NSManagedObjectID` (through `ObjectIDAttributeValue`).
@Suite struct AttributeValueTests {
    @Test func anObjectIDAttributeKeepsAnObjectID() {
        let entity = NSEntityDescription()
        entity.name = "Movie"
        let objectID = NSManagedObjectID.temporary(for: entity)
        let normalized = AttributeValue.normalized(objectID, type: .objectIDAttributeType)
        #expect(normalized.isValid)
        #expect(normalized.value as? NSManagedObjectID === objectID)
    }

    @Test func anObjectIDAttributeRejectsAnythingElse() {
        for value: Any in ["x-coredata://store/Movie/p1", URL(string: "x-coredata://store/Movie/p1")!, NSNumber(value: 1)] {
            let normalized = AttributeValue.normalized(value, type: .objectIDAttributeType)
            #expect(!normalized.isValid, "\(value)")
        }
        let null = AttributeValue.normalized(NSNull(), type: .objectIDAttributeType)
        #expect(null.isValid && null.value == nil)
    }
}
