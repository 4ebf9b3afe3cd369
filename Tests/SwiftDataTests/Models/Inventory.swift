import Foundation
import SwiftData

// The models of the predicate conformance tests: a gadget has an attribute of each type a
// predicate compares, an optional owner (to-one) and parts (to-many).

/// What a gadget is, stored as its raw value.
enum GadgetKind: String, Codable, CaseIterable {
    case clock
    case lamp
    case radio
}

@Model
final class Gadget {
    var serial: Int
    var score: Int
    var size: Int16
    var weight: Double
    var isWorking: Bool
    var name: String
    var nickname: String?
    var madeOn: Date
    var tag: UUID
    var kind: GadgetKind
    var owner: Owner?
    @Relationship(deleteRule: .cascade, inverse: \Part.gadget)
    var parts: [Part] = []

    init(serial: Int, score: Int, size: Int16, weight: Double, isWorking: Bool, name: String, nickname: String?, madeOn: Date, tag: UUID, kind: GadgetKind) {
        self.serial = serial
        self.score = score
        self.size = size
        self.weight = weight
        self.isWorking = isWorking
        self.name = name
        self.nickname = nickname
        self.madeOn = madeOn
        self.tag = tag
        self.kind = kind
    }
}

@Model
final class Owner {
    var name: String
    var age: Int
    var nickname: String?
    @Relationship(inverse: \Gadget.owner)
    var gadgets: [Gadget] = []

    init(name: String, age: Int, nickname: String?) {
        self.name = name
        self.age = age
        self.nickname = nickname
    }
}

@Model
final class Part {
    var label: String
    var price: Double
    var quantity: Int
    var gadget: Gadget?

    init(label: String, price: Double, quantity: Int) {
        self.label = label
        self.price = price
        self.quantity = quantity
    }
}
