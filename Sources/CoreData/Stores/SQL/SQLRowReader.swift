/// How to read the rows of a set of entities from their table: the columns to select after
/// `Z_PK, Z_ENT, Z_OPT`, and, for each entity number, which column fills which slot.
///
/// Built once per fetched entity set and cached by the store; decoding a row is then a loop over
/// precomputed column indices with no name lookups.
package final class SQLRowReader {
    /// A column whose value decodes by its type alone: numbers, strings, dates, data, UUIDs, URIs.
    struct SimpleField {
        let slot: Int
        let column: Int32
        let type: NSAttributeType
    }

    /// A column of a scalar attribute, read into the slot's word without boxing.
    struct ScalarField {
        let slot: Int
        let column: Int32
        let scalar: StoragePlan.Scalar
    }

    /// A column that needs more than its type to decode.
    enum ComplexField {
        /// A transformable value, or binary data that may live in an external file.
        case attribute(slot: Int, column: Int32, attribute: NSAttributeDescription)
        /// A to-one relationship: the destination's primary key and, for destinations with
        /// sub-entities, its entity number.
        case toOne(slot: Int, column: Int32, typedColumn: Int32?, destination: NSEntityDescription)
        /// A composite attribute, from the columns of its leaf attributes.
        case composite(slot: Int, leaves: [(column: Int32, leaf: NSCompositeAttributeDescription.Leaf)], isOptional: Bool)
    }

    /// The decoding plan of one entity; a class, so that reading a row retains one object
    /// rather than each of its fields.
    final class EntityReader {
        let entity: NSEntityDescription
        let plan: StoragePlan
        let scalarFields: [ScalarField]
        let simpleFields: [SimpleField]
        let complexFields: [ComplexField]

        init(entity: NSEntityDescription, plan: StoragePlan, scalarFields: [ScalarField], simpleFields: [SimpleField], complexFields: [ComplexField]) {
            self.entity = entity
            self.plan = plan
            self.scalarFields = scalarFields
            self.simpleFields = simpleFields
            self.complexFields = complexFields
        }
    }

    let table: String
    /// Selected columns after the three fixed ones, qualified with the alias `t0`.
    let selectList: String
    /// The number of columns of `selectList`.
    let columnCount: Int32
    private let readers: [EntityReader?]
    /// The last to-one destination read, reused for the next row with the same one: rows often
    /// come grouped by owner (a to-many relationship read through its foreign key), and an ID
    /// costs an allocation. Used only under the coordinator's lock, like the whole store.
    private var lastDestination: NSManagedObjectID?

    package init(entities: [NSEntityDescription], schema: SQLSchema) throws {
        guard let first = entities.first, let firstMapping = schema.mapping(for: first) else {
            throw CoreDataError.invalidRequest("The entities are not stored in this store.")
        }
        table = firstMapping.table
        var columns: [String] = []
        var positions: [String: Int32] = [:]
        func position(of column: String) -> Int32 {
            if let known = positions[column] { return known }
            let index = Int32(3 + columns.count)
            columns.append(column)
            positions[column] = index
            return index
        }
        var readers: [EntityReader?] = []
        for entity in entities {
            guard let mapping = schema.mapping(for: entity), !entity.isAbstract else { continue }
            var scalars: [ScalarField] = []
            var simple: [SimpleField] = []
            var complex: [ComplexField] = []
            for slot in entity.layout.slots {
                if let leaves = mapping.compositeColumnsBySlot[slot.index] {
                    let isOptional = slot.attribute?.isOptional ?? true
                    complex.append(.composite(slot: slot.index, leaves: leaves.map { (position(of: $0.name), $0.leaf) }, isOptional: isOptional))
                    continue
                }
                guard let column = mapping.columnBySlot[slot.index] else { continue }
                switch slot.kind {
                case .attribute(let attribute):
                    if let scalar = entity.layout.scalar(atSlot: slot.index) {
                        scalars.append(ScalarField(slot: slot.index, column: position(of: column), scalar: scalar))
                    } else if SQLValueCodec.isSimple(attribute.attributeType) && !entity.layout.lazySlots[slot.index] {
                        simple.append(SimpleField(slot: slot.index, column: position(of: column), type: attribute.attributeType))
                    } else {
                        complex.append(.attribute(slot: slot.index, column: position(of: column), attribute: attribute))
                    }
                case .toOne(let relationship):
                    guard let destination = relationship.destinationEntity else { continue }
                    let typed = mapping.typedColumnBySlot[slot.index].map(position(of:))
                    complex.append(.toOne(slot: slot.index, column: position(of: column), typedColumn: typed, destination: destination))
                case .toMany:
                    continue
                }
            }
            let number = Int(mapping.number)
            if readers.count <= number { readers += Array(repeating: nil, count: number - readers.count + 1) }
            readers[number] = EntityReader(entity: entity, plan: entity.layout.storagePlan, scalarFields: scalars, simpleFields: simple, complexFields: complex)
        }
        self.readers = readers
        selectList = (["t0.Z_PK", "t0.Z_ENT", "t0.Z_OPT"] + columns.map { "t0.\($0)" }).joined(separator: ", ")
        columnCount = Int32(3 + columns.count)
    }

    /// The row the statement is on, as a snapshot; nil for a row of an entity outside the set.
    func snapshot<Store: RelationalStore, Row: SQLResultRow>(from statement: Row, store: Store, schema: SQLSchema, generation: Int, readTime: UInt64) -> RowSnapshot? {
        let entityNumber = Int(statement.int64(at: 1))
        guard entityNumber >= 0, entityNumber < readers.count, let reader = readers[entityNumber] else { return nil }
        let objectID = ObjectIDValue(entity: reader.entity, primaryKey: statement.int64(at: 0), store: store)
        let row = RowSnapshot.make(plan: reader.plan, objectID: objectID, version: statement.int64(at: 2), generation: generation, readTime: readTime)
        for field in reader.scalarFields {
            if let bits = SQLValueCodec.decodeBits(statement, at: field.column, scalar: field.scalar) {
                row.setScalar(bits, atSlot: field.slot)
            }
        }
        for field in reader.simpleFields {
            row.setValue(SQLValueCodec.decode(statement, at: field.column, type: field.type), atSlot: field.slot)
        }
        for field in reader.complexFields {
            switch field {
            case .attribute(let slot, let column, let attribute):
                if attribute.allowsExternalBinaryDataStorage && attribute.attributeType == .binaryDataAttributeType, let external = store.externalData {
                    row.setValue(statement.data(at: column).map { external.decode($0) }, atSlot: slot)
                } else {
                    row.setValue(SQLValueCodec.decode(statement, at: column, for: attribute), atSlot: slot)
                }
            case .toOne(let slot, let column, let typedColumn, let destination):
                guard !statement.isNull(at: column) else { continue }
                let concrete = typedColumn.flatMap { schema.rowEntity(number: statement.int64(at: $0)) } ?? destination
                guard !concrete.isAbstract else { continue }
                row.setValue(destinationID(of: concrete, primaryKey: statement.int64(at: column), in: store), atSlot: slot)
            case .composite(let slot, let leaves, let isOptional):
                var composite: [String: Any] = [:]
                for (column, leaf) in leaves where !statement.isNull(at: column) {
                    let value = SQLValueCodec.decode(statement, at: column, for: leaf.attribute)
                    composite = CompositeValue.setting(value, at: leaf.path[...], in: composite)
                }
                // Columns cannot tell an empty composite from none: a mandatory one is empty.
                if !composite.isEmpty || !isOptional { row.setValue(composite, atSlot: slot) }
            }
        }
        return row
    }

    private func destinationID(of entity: NSEntityDescription, primaryKey: Int64, in store: NSPersistentStore) -> NSManagedObjectID {
        if let last = lastDestination, last.primaryKey == primaryKey, last.entity === entity, last.identity.store == store.identityNumber { return last }
        let objectID = store.objectID(for: entity, primaryKey: primaryKey)
        lastDestination = objectID
        return objectID
    }
}
