@testable import CoreData
import Testing

/// `StoragePlan`: which slots of an entity's rows are scalar words and which are `Any?` cells.
@Suite struct StoragePlanTests {
    @Test func scalarAttributesAreWordsAndEverythingElseIsACell() throws {
        let model = CtxGraphModel.make()
        let item = try #require(model.entitiesByName["Item"]).layout
        let plan = item.storagePlan
        let scalars: [String: StoragePlan.Scalar] = [
            "int16": .integer16, "int32": .integer32, "int64": .integer64, "double": .double,
            "float": .float, "bool": .boolean, "date": .date,
        ]
        for slot in item.slots {
            #expect(item.scalar(atSlot: slot.index) == scalars[slot.name], "\(slot.name)")
        }
        #expect(plan.scalarCount == 7)
        #expect(plan.referenceCount == 5)
        #expect(plan.nullWordCount == 1)
        #expect(plan.wordCount == 7 + 1 + 5 * StoragePlan.wordsPerReference)
    }

    @Test func wordsAndCellsAreNumberedInSlotOrder() throws {
        let item = try #require(CtxGraphModel.make().entitiesByName["Item"]).layout
        var nextWord = 0
        var nextCell = 0
        for cell in item.storagePlan.cells {
            switch cell {
            case .scalar(_, let word):
                #expect(word == nextWord)
                nextWord += 1
            case .reference(let index):
                #expect(index == nextCell)
                nextCell += 1
            }
        }
    }

    @Test func relationshipsAreCells() throws {
        let person = try #require(CtxGraphModel.make().entitiesByName["Person"]).layout
        for slot in person.relationshipSlots {
            #expect(person.scalar(atSlot: slot) == nil)
        }
        #expect(person.scalar(atSlot: person.slotIndex(forKey: "age")!) != nil)
        #expect(person.scalar(atSlot: person.slotIndex(forKey: "name")!) == nil)
    }

    @Test func externallyStoredDataIsACellAndSixtyFiveScalarsTakeTwoNullWords() {
        let entity = NSEntityDescription()
        entity.name = "Wide"
        var properties: [NSPropertyDescription] = (0..<65).map { index in
            let attribute = NSAttributeDescription()
            attribute.name = "n\(index)"
            attribute.attributeType = .integer64AttributeType
            return attribute
        }
        let blob = NSAttributeDescription()
        blob.name = "blob"
        blob.attributeType = .binaryDataAttributeType
        blob.allowsExternalBinaryDataStorage = true
        properties.append(blob)
        entity.properties = properties
        let plan = entity.layout.storagePlan
        #expect(plan.scalarCount == 65)
        #expect(plan.nullWordCount == 2)
        #expect(plan.cells[65] == .reference(index: 0))
    }
}
