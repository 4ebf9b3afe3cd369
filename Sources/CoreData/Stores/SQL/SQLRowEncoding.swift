/// The column values a save writes for a row, whichever database the store keeps: attributes
/// encoded (by the store's encoder, which may keep binary data elsewhere), to-one destinations as
/// primary keys and, in typed columns, entity numbers; composite attributes as their leaves.
package enum SQLRowEncoding {
    /// The column assignments of the given slots of a row of an entity: attributes encoded,
    /// to-one destinations as primary keys (and entity numbers in typed columns).
    package static func assignments(
        of values: SlotValues, slots: some Sequence<Int>, mapping: SQLSchema.EntityMapping, keys: SavePrimaryKeys, schema: SQLSchema,
        encode: (Any?, NSAttributeDescription) throws -> SQLValue
    ) throws -> [(column: String, value: SQLValue)] {
        var assignments: [(column: String, value: SQLValue)] = []
        let layout = mapping.entity.layout
        for slot in slots {
            if let leaves = mapping.compositeColumnsBySlot[slot] {
                let leafColumnValues = try leafValues(of: values[slot], leaves: leaves.map(\.leaf))
                assignments += zip(leaves, leafColumnValues).map { ($0.name, $1) }
                continue
            }
            guard let column = mapping.columnBySlot[slot] else { continue }
            switch layout.slots[slot].kind {
            case .attribute(let attribute):
                if let scalar = layout.scalar(atSlot: slot), let bits = values.word(atSlot: slot) {
                    assignments.append((column, SQLValueCodec.encode(bits: bits, scalar: scalar)))
                } else {
                    assignments.append((column, try encode(values[slot], attribute)))
                }
            case .toOne:
                let destination = values[slot] as? NSManagedObjectID
                assignments.append((column, destination.flatMap(keys.key(for:)).map(SQLValue.integer) ?? .null))
                if let typed = mapping.typedColumnBySlot[slot] {
                    let number = destination.flatMap { schema.mapping(for: $0.entity)?.number }
                    assignments.append((typed, number.map(SQLValue.integer) ?? .null))
                }
            case .toMany:
                continue
            }
        }
        return assignments
    }

    /// The column values of a composite attribute's leaves.
    package static func leafValues(of composite: Any?, leaves: [NSCompositeAttributeDescription.Leaf]) throws -> [SQLValue] {
        try leaves.map { try SQLValueCodec.encode(CompositeValue.value(at: $0.path, in: composite), for: $0.attribute) }
    }
}
