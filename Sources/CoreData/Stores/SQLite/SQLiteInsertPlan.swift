/// The prepared INSERT statement of an entity and the order in which a row's slots bind to it.
final class SQLiteInsertPlan {
    /// One bound column (two for a typed to-one relationship). Plain values only: every inserted
    /// row walks the fields, and a reference in them would cost a retain and release per field.
    struct Field {
        let slot: Int
        let binding: Binding
    }

    /// How a field's value becomes its column's value.
    enum Binding {
        /// An attribute whose value binds directly (no transformer, no external storage); its
        /// scalar kind when the slot holds a word, which binds without boxing.
        case direct(type: NSAttributeType, scalar: StoragePlan.Scalar?)
        /// An attribute encoded with its description, `encodedAttributes[index]`.
        case encoded(index: Int)
        /// A to-one relationship's foreign key, and its destination's entity number when the
        /// relationship has a typed column.
        case toOne(hasTypedColumn: Bool)
        /// A composite attribute's leaf values, `compositeLeaves[index]`, one column each.
        case composite(index: Int)
    }

    let entity: NSEntityDescription
    let statement: SQLiteStatement
    let entityNumber: Int64
    let fields: [Field]
    /// The attributes of the `.encoded` fields.
    let encodedAttributes: [NSAttributeDescription]
    /// The leaves of the `.composite` fields.
    let compositeLeaves: [[NSCompositeAttributeDescription.Leaf]]

    init(entity: NSEntityDescription, mapping: SQLSchema.EntityMapping, connection: SQLiteConnection) throws {
        var columns = ["Z_PK", "Z_ENT", "Z_OPT"]
        var fields: [Field] = []
        var encodedAttributes: [NSAttributeDescription] = []
        var compositeLeaves: [[NSCompositeAttributeDescription.Leaf]] = []
        let layout = entity.layout
        for slot in layout.persistentAttributeSlots + layout.persistentToOneSlots {
            if let leaves = mapping.compositeColumnsBySlot[slot] {
                columns += leaves.map(\.name)
                fields.append(Field(slot: slot, binding: .composite(index: compositeLeaves.count)))
                compositeLeaves.append(leaves.map(\.leaf))
                continue
            }
            guard let column = mapping.columnBySlot[slot] else { continue }
            columns.append(column)
            let typed = mapping.typedColumnBySlot[slot]
            if let typed { columns.append(typed) }
            guard let attribute = layout.slots[slot].attribute else {
                fields.append(Field(slot: slot, binding: .toOne(hasTypedColumn: typed != nil)))
                continue
            }
            let type = attribute.attributeType
            if !attribute.allowsExternalBinaryDataStorage && SQLValueCodec.isSimple(type) {
                fields.append(Field(slot: slot, binding: .direct(type: type, scalar: layout.scalar(atSlot: slot))))
            } else {
                fields.append(Field(slot: slot, binding: .encoded(index: encodedAttributes.count)))
                encodedAttributes.append(attribute)
            }
        }
        let placeholders = Array(repeating: "?", count: columns.count).joined(separator: ", ")
        statement = try connection.statement("INSERT INTO \(mapping.table) (\(columns.joined(separator: ", "))) VALUES (\(placeholders))")
        self.entity = entity
        entityNumber = mapping.number
        self.fields = fields
        self.encodedAttributes = encodedAttributes
        self.compositeLeaves = compositeLeaves
    }
}
