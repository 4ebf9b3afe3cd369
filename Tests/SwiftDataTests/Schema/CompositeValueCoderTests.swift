import CoreData
import Foundation
@testable import SwiftData
import Testing

/// A structure of every kind of attribute value.
private struct Reading: Codable, Equatable {
    var count: Int
    var small: Int32
    var ratio: Double
    var isValid: Bool
    var label: String
    var taken: Date
    var id: UUID
    var source: URL
    var price: Decimal
    var payload: Data
}

private struct Address: Codable, Equatable {
    var street: String
    var zip: String?
}

private struct Contact: Codable, Equatable {
    var name: String
    var home: Address
    var work: Address?
    var age: Int?
}

/// No case has the empty raw value "": its zero value is its first case.
private enum Sheen: String, Codable, CaseIterable {
    case matte, glossy
}

/// The case of the empty raw value 0 is its zero value.
private enum Grip: Int, Codable {
    case low = 0, high = 2
}

private struct Paint: Codable, Equatable {
    var finish: Sheen
    var level: Grip
    var spare: Sheen?
}

/// No case has the empty raw value, and there is no first case to probe with.
private enum Mark: String, Codable {
    case top = "A"
}

private struct Exam: Codable {
    var grade: Mark
}

private struct Tagged: Codable {
    var name: String
    var tags: [String]
}

private enum Figure: Codable {
    case circle(radius: Double)
    case square(side: Double)
}

private struct Sketch: Codable {
    var figure: Figure
}

/// Encodes and decodes itself as an unkeyed pair.
private struct Pair: Codable, Equatable {
    var x: Double
    var y: Double

    init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        x = try container.decode(Double.self)
        y = try container.decode(Double.self)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        try container.encode(x)
        try container.encode(y)
    }
}

private struct Renamed: Codable {
    var title: String

    enum CodingKeys: String, CodingKey {
        case title = "heading"
    }
}

private final class Chain: Codable {
    var next: Chain?
}

/// Decodes its note only when present, by asking whether the key is there.
private struct Memo: Codable {
    var title: String
    var note: String

    enum CodingKeys: String, CodingKey {
        case title, note
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        title = try container.decode(String.self, forKey: .title)
        note = container.contains(.note) ? try container.decode(String.self, forKey: .note) : ""
    }
}

/// Keeps every key besides its name, as a dictionary would.
private struct Extensible: Decodable {
    var name: String
    var extras: [String: String] = [:]

    struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: AnyKey.self)
        name = try container.decode(String.self, forKey: AnyKey(stringValue: "name"))
        for key in container.allKeys where key.stringValue != "name" {
            extras[key.stringValue] = try container.decode(String.self, forKey: key)
        }
    }
}

/// Rejects the zero value it would be probed with.
private struct Positive: Codable {
    var amount: Int

    enum CodingKeys: String, CodingKey {
        case amount
    }

    init(from decoder: any Decoder) throws {
        amount = try decoder.container(keyedBy: CodingKeys.self).decode(Int.self, forKey: .amount)
        guard amount > 0 else {
            throw DecodingError.dataCorrupted(DecodingError.Context(codingPath: [CodingKeys.amount], debugDescription: "Not positive"))
        }
    }
}

@Suite struct CompositeValueCoderTests {
    private let reading = Reading(
        count: -42, small: 7, ratio: 0.25, isValid: true, label: "Lumi",
        taken: Date(timeIntervalSinceReferenceDate: 1000), id: UUID(),
        source: URL(string: "https://example.com/lamp")!, price: Decimal(string: "19.99")!, payload: Data([1, 2, 3]))

    private let contact = Contact(
        name: "Ada", home: Address(street: "1 Main St", zip: "12345"), work: Address(street: "2 Side St", zip: nil), age: nil)

    // MARK: Shapes

    @Test func aFlatStructureHasAnElementPerPropertyInOrder() throws {
        let shape = try #require(CompositeShapeProbe.shape(of: Reading.self))
        #expect(shape.elements == [
            .init(name: "count", kind: .value(.integer64AttributeType), isOptional: false),
            .init(name: "small", kind: .value(.integer32AttributeType), isOptional: false),
            .init(name: "ratio", kind: .value(.doubleAttributeType), isOptional: false),
            .init(name: "isValid", kind: .value(.booleanAttributeType), isOptional: false),
            .init(name: "label", kind: .value(.stringAttributeType), isOptional: false),
            .init(name: "taken", kind: .value(.dateAttributeType), isOptional: false),
            .init(name: "id", kind: .value(.UUIDAttributeType), isOptional: false),
            .init(name: "source", kind: .value(.URIAttributeType), isOptional: false),
            .init(name: "price", kind: .value(.decimalAttributeType), isOptional: false),
            .init(name: "payload", kind: .value(.binaryDataAttributeType), isOptional: false),
        ])
    }

    @Test func aNestedStructureIsANestedCompositeAndOptionalsAreOptional() throws {
        let address = CompositeShape(elements: [
            .init(name: "street", kind: .value(.stringAttributeType), isOptional: false),
            .init(name: "zip", kind: .value(.stringAttributeType), isOptional: true),
        ])
        let shape = try #require(CompositeShapeProbe.shape(of: Contact.self))
        #expect(shape.elements == [
            .init(name: "name", kind: .value(.stringAttributeType), isOptional: false),
            .init(name: "home", kind: .composite(address), isOptional: false),
            .init(name: "work", kind: .composite(address), isOptional: true),
            .init(name: "age", kind: .value(.integer64AttributeType), isOptional: true),
        ])
    }

    @Test func aRawValueEnumerationIsHeldAsItsRawValue() throws {
        let probe = try #require(CompositeShapeProbe.probe(Paint.self))
        #expect(probe.shape.elements == [
            .init(name: "finish", kind: .rawValue(.stringAttributeType), isOptional: false),
            .init(name: "level", kind: .rawValue(.integer64AttributeType), isOptional: false),
            .init(name: "spare", kind: .rawValue(.stringAttributeType), isOptional: true),
        ])
        #expect(probe.zeroValue.finish == .matte)
        #expect(probe.zeroValue.level == .low)
    }

    @Test func theElementNamesAreTheCodingKeys() throws {
        let shape = try #require(CompositeShapeProbe.shape(of: Renamed.self))
        #expect(shape.elements.map(\.name) == ["heading"])
    }

    @Test func anElementDecodedOnlyWhenPresentIsOptional() throws {
        let shape = try #require(CompositeShapeProbe.shape(of: Memo.self))
        #expect(shape.elements.map(\.isOptional) == [false, true])
    }

    @Test func typesThatAreNotKeyedStructuresOfAttributeValuesHaveNoShape() {
        #expect(CompositeShapeProbe.shape(of: Tagged.self) == nil)
        #expect(CompositeShapeProbe.shape(of: Figure.self) == nil)
        #expect(CompositeShapeProbe.shape(of: Sketch.self) == nil)
        #expect(CompositeShapeProbe.shape(of: Pair.self) == nil)
        #expect(CompositeShapeProbe.shape(of: [String: Int].self) == nil)
        #expect(CompositeShapeProbe.shape(of: Extensible.self) == nil)
        #expect(CompositeShapeProbe.shape(of: Exam.self) == nil)
        #expect(CompositeShapeProbe.shape(of: Chain.self) == nil)
        #expect(CompositeShapeProbe.shape(of: Positive.self) == nil)
        #expect(CompositeShapeProbe.shape(of: String.self) == nil)
        #expect(CompositeValueCodec(Pair.self) == nil)
    }

    // MARK: Encoding and decoding

    @Test func aFlatStructureIsADictionaryOfAttributeValuesAndBack() throws {
        let values = try CompositeEncoder.dictionary(of: reading)
        #expect(values.count == 10)
        #expect((values["count"] as? NSNumber)?.int64Value == -42)
        #expect((values["isValid"] as? NSNumber)?.boolValue == true)
        #expect(values["label"] as? String == "Lumi")
        #expect(values["price"] is NSDecimalNumber)
        #expect(values["id"] as? UUID == reading.id)
        #expect(try CompositeDecoder.value(Reading.self, from: values) == reading)
    }

    @Test func aNestedStructureIsANestedDictionaryWithNoKeyForNil() throws {
        let values = try CompositeEncoder.dictionary(of: contact)
        #expect(Set(values.keys) == ["name", "home", "work"])
        let work = try #require(values["work"] as? [String: Any])
        #expect(Set(work.keys) == ["street"])
        #expect((values["home"] as? [String: Any])?["zip"] as? String == "12345")
        #expect(try CompositeDecoder.value(Contact.self, from: values) == contact)
    }

    @Test func aRawValueEnumerationIsEncodedAsItsRawValueAndBack() throws {
        let paint = Paint(finish: .glossy, level: .high, spare: nil)
        let values = try CompositeEncoder.dictionary(of: paint)
        #expect(values["finish"] as? String == "glossy")
        #expect((values["level"] as? NSNumber)?.int64Value == 2)
        #expect(values["spare"] == nil)
        #expect(try CompositeDecoder.value(Paint.self, from: values) == paint)
    }

    @Test func anUnkeyedEncodingIsNotADictionary() {
        #expect(throws: EncodingError.self) { try CompositeEncoder.dictionary(of: Pair(x: 1, y: 2)) }
    }

    @Test func aMissingOrMistypedRequiredElementDoesNotDecode() throws {
        var values = try CompositeEncoder.dictionary(of: reading)
        values["label"] = nil
        #expect(throws: DecodingError.self) { try CompositeDecoder.value(Reading.self, from: values) }
        values["label"] = 12
        #expect(throws: DecodingError.self) { try CompositeDecoder.value(Reading.self, from: values) }
        var contactValues = try CompositeEncoder.dictionary(of: contact)
        contactValues["home"] = "1 Main St"
        #expect(throws: DecodingError.self) { try CompositeDecoder.value(Contact.self, from: contactValues) }
    }

    // MARK: The codec

    @Test func theCodecHoldsDictionariesAndReadsNilForOnesThatDoNotDecode() throws {
        let codec = try #require(CompositeValueCodec(Contact.self))
        #expect(codec.attributeType == .compositeAttributeType)
        let stored = try #require(codec.encode(contact) as? [String: Any])
        #expect(codec.decode(stored) as? Contact == contact)
        #expect(codec.decode(["home": ["street": "1 Main St"]]) == nil)
        #expect(codec.decode(Data()) == nil)
        #expect(codec.encode("not a contact") == nil)
    }

    @Test func theCodecsEmptyValueIsTheZeroValue() throws {
        let codec = try #require(CompositeValueCodec(Reading.self))
        let empty = try #require(codec.emptyValue as? Reading)
        #expect(empty.count == 0)
        #expect(empty.label == "")
        #expect(empty.taken == Date(timeIntervalSinceReferenceDate: 0))
        #expect(empty.payload.isEmpty)
        let paint = try #require(CompositeValueCodec(Paint.self)?.emptyValue as? Paint)
        #expect(paint.finish == .matte)
    }

    @Test func theElementDescriptionsOfANestedShapeNestComposites() throws {
        let codec = try #require(CompositeValueCodec(Contact.self))
        let elements = codec.elementDescriptions()
        #expect(elements.map(\.name) == ["name", "home", "work", "age"])
        #expect(elements.map(\.attributeType) == [.stringAttributeType, .compositeAttributeType, .compositeAttributeType, .integer64AttributeType])
        #expect(elements.map(\.isOptional) == [false, false, true, true])
        let home = try #require(elements[1] as? NSCompositeAttributeDescription)
        #expect(home.elements.map(\.name) == ["street", "zip"])
        #expect(home.elements.map(\.attributeType) == [.stringAttributeType, .stringAttributeType])
        #expect(home.elements.map(\.isOptional) == [false, true])
        #expect(!(elements[0] is NSCompositeAttributeDescription))
    }
}
