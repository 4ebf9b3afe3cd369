import Foundation

/// The positions of an entity's properties in the `ACHANGE.ZCOLUMNS` bitmap of an update, and the
/// bitmap's encoding, as Apple-written stores show them (store-format §2.11): the properties of
/// each level of the inheritance hierarchy, from the root down, each level's to-one
/// relationships by name, then its attributes by name, then its to-many relationships by name;
/// a to-one relationship whose destination has sub-entities takes a second position (its entity
/// column). The bitmap has a bit per position, most significant bit first.
struct SQLitePersistentHistoryColumns {
    /// The first position of each layout slot; nil for transient properties, which have none.
    private let positionBySlot: [Int?]
    /// The layout slot of each position; nil for the second position of a to-one relationship.
    private let slotByPosition: [Int?]

    init(entity: NSEntityDescription) {
        let layout = entity.layout
        var positionBySlot = [Int?](repeating: nil, count: layout.slots.count)
        var slotByPosition: [Int?] = []
        var inherited = Set<String>()
        for level in Self.levels(of: entity) {
            let own = level.properties.filter { !inherited.contains($0.name) && !$0.isTransient && !($0 is NSFetchedPropertyDescription) }
            inherited.formUnion(level.properties.map(\.name))
            for property in Self.ordered(own) {
                guard let slot = layout.slotIndex(forKey: property.name) else { continue }
                positionBySlot[slot] = slotByPosition.count
                slotByPosition.append(slot)
                if let relationship = property as? NSRelationshipDescription, !relationship.isToMany,
                   relationship.destinationEntity?.subentities.isEmpty == false {
                    slotByPosition.append(nil)
                }
            }
        }
        self.positionBySlot = positionBySlot
        self.slotByPosition = slotByPosition
    }

    /// The entity's ancestors from the root, then the entity.
    private static func levels(of entity: NSEntityDescription) -> [NSEntityDescription] {
        var levels = [entity]
        while let parent = levels[0].superentity { levels.insert(parent, at: 0) }
        return levels
    }

    /// One level's properties in bitmap order.
    private static func ordered(_ properties: [NSPropertyDescription]) -> [NSPropertyDescription] {
        func group(_ property: NSPropertyDescription) -> Int {
            guard let relationship = property as? NSRelationshipDescription else { return 1 }
            return relationship.isToMany ? 2 : 0
        }
        return properties.sorted { (group($0), $0.name) < (group($1), $1.name) }
    }

    /// The bitmap naming the properties in some layout slots.
    func encode(_ slots: some Sequence<Int>) -> Data {
        var bytes = [UInt8](repeating: 0, count: (slotByPosition.count + 7) / 8)
        for slot in slots {
            guard positionBySlot.indices.contains(slot), let position = positionBySlot[slot] else { continue }
            set(position, in: &bytes)
            if position + 1 < slotByPosition.count, slotByPosition[position + 1] == nil { set(position + 1, in: &bytes) }
        }
        return Data(bytes)
    }

    private func set(_ position: Int, in bytes: inout [UInt8]) {
        bytes[position / 8] |= 0x80 >> UInt8(position % 8)
    }

    /// The layout slots a bitmap names; positions past the entity's properties are left out.
    func decode(_ data: Data) -> [Int] {
        var slots: [Int] = []
        for (byteIndex, byte) in data.enumerated() where byte != 0 {
            for bit in 0..<8 where byte & (0x80 >> UInt8(bit)) != 0 {
                let position = byteIndex * 8 + bit
                if position < slotByPosition.count, let slot = slotByPosition[position] { slots.append(slot) }
            }
        }
        return slots
    }
}
