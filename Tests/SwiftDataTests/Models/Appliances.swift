import Foundation
import SwiftData

// An appliance: a model with one property of each kind of value SwiftData persists.

enum Finish: String, Codable {
    case matte
    case glossy
}

enum Priority: Int, Codable {
    case low = 1
    case high = 9
}

struct Dimensions: Codable, Equatable {
    var width: Double
    var height: Double
}

@Model final class Appliance {
    let serial = UUID()
    var name = "gadget"
    var count: Int = 0
    var small: Int16 = 0
    var medium: Int32 = 0
    var large: Int64 = 0
    var unsigned: UInt8 = 0
    var ratio: Double = 0
    var weight: Float = 0
    var isActive = true
    var created = Date(timeIntervalSinceReferenceDate: 0)
    var blob = Data()
    var homepage: URL?
    var price: Decimal = 0
    var nickname: String?
    var finish: Finish = Finish.matte
    var priority: Priority?
    var dimensions = Dimensions(width: 1, height: 2)
    var tags: [String] = []
    var scores: [Int: Double] = [:]

    init(name: String) {
        self.name = name
    }
}
