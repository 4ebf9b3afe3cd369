/// The prepared INSERT statement of an entity and the order in which a row's slots bind to it.
final class SQLiteInsertPlan {
    /// One bound column (two for a typed to-one relationship).
    struct Field {
        let slot: Int
        /// The attribute, or nil for a to-one relationship.
        let attribute: NSAttributeDescription?
        let type: NSAttributeType
        /// Whether the value binds directly (no transformer, no external storage).
        let isSimple: Bool
        /// The slot's scalar kind when it is a word, which binds without boxing.
        let scalar: StoragePlan.Scalar?
        /// Whether a to-one relationship also binds its destination's entity number.
        let hasTypedColumn: Bool
    }

    let entity: NSEntityDescription
    let statement: SQLiteStatement
    let entityNumber: Int64
    let fields: [Field]

    init(entity: NSEntityDescription, mapping: SQLiteSchema.EntityMapping, connection: SQLiteConnection) throws {
        var columns = ["Z_PK", "Z_ENT", "Z_OPT"]
        var fields: [Field] = []
        let layout = entity.layout
        for slot in layout.persistentAttributeSlots + layout.persistentToOneSlots {
            guard let column = mapping.columnBySlot[slot] else { continue }
            columns.append(column)
            let attribute = layout.slots[slot].attribute
            let typed = mapping.typedColumnBySlot[slot]
            if let typed { columns.append(typed) }
            let type = attribute?.attributeType ?? .undefinedAttributeType
            let isSimple = attribute.map { !$0.allowsExternalBinaryDataStorage && SQLiteValueCodec.isSimple(type) } ?? false
            fields.append(Field(slot: slot, attribute: attribute, type: type, isSimple: isSimple, scalar: layout.scalar(atSlot: slot), hasTypedColumn: typed != nil))
        }
        let placeholders = Array(repeating: "?", count: columns.count).joined(separator: ", ")
        statement = try connection.statement("INSERT INTO \(mapping.table) (\(columns.joined(separator: ", "))) VALUES (\(placeholders))")
        self.entity = entity
        entityNumber = mapping.number
        self.fields = fields
    }
}
