import Foundation

/// The positions of an entity's properties in the `ACHANGE.ZCOLUMNS` bitmap of an update, and the
/// bitmap's encoding, as Apple-written stores show them (store-format §2.11): first the to-one
/// relationships, then the attributes, then the to-many relationships, each group level by level
/// of the inheritance hierarchy from the root down, and by name within a level; a to-one
/// relationship whose destination has sub-entities takes a second position (its entity column).
/// The bitmap has a bit per position, most significant bit first.
struct PersistentHistoryColumns {
    /// The first position of each layout slot; nil for transient properties, which have none.
    private let positionBySlot: [Int?]
    /// The layout slot of each position; nil for the second position of a to-one relationship.
    private let slotByPosition: [Int?]

    init(entity: NSEntityDescription) {
        let layout = entity.layout
        var positionBySlot = [Int?](repeating: nil, count: layout.slots.count)
        var slotByPosition: [Int?] = []
        let levels = Self.levels(of: entity)
        for group in Group.allCases {
            for level in levels {
                for property in level.filter({ Group($0) == group }).sorted(by: { $0.name < $1.name }) {
                    guard let slot = layout.slotIndex(forKey: property.name) else { continue }
                    positionBySlot[slot] = slotByPosition.count
                    slotByPosition.append(slot)
                    if let relationship = property as? NSRelationshipDescription, !relationship.isToMany,
                       relationship.destinationEntity?.subentities.isEmpty == false {
                        slotByPosition.append(nil)
                    }
                }
            }
        }
        self.positionBySlot = positionBySlot
        self.slotByPosition = slotByPosition
    }

    /// The kinds of property, in the order the bitmap takes them.
    private enum Group: CaseIterable {
        case toOne, attribute, toMany

        init(_ property: NSPropertyDescription) {
            guard let relationship = property as? NSRelationshipDescription else { self = .attribute; return }
            self = relationship.isToMany ? .toMany : .toOne
        }
    }

    /// The persistent properties each level of the entity's hierarchy declares, from the root's
    /// down to the entity's own.
    private static func levels(of entity: NSEntityDescription) -> [[NSPropertyDescription]] {
        var ancestry = [entity]
        while let parent = ancestry[0].superentity { ancestry.insert(parent, at: 0) }
        var inherited = Set<String>()
        return ancestry.map { level in
            let own = level.properties.filter { !inherited.contains($0.name) && !$0.isTransient && !($0 is NSFetchedPropertyDescription) }
            inherited.formUnion(level.properties.map(\.name))
            return own
        }
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
