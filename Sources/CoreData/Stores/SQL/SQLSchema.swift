/// Apple's SQLite layout for the entities of one store: entity numbers (`Z_ENT`), one table per
/// inheritance root, a column per persistent property, join tables for many-to-many
/// relationships, ordering columns for ordered relationships, and indexes.
///
/// Names follow `spec/store-format.md` §2: tables `Z<ROOT>`, columns `Z<PROPERTY>` (with a numeric
/// suffix on collision), typed to-one columns `Z<n>_<NAME>`, join tables `Z_<n><RELATIONSHIP>`.
package final class SQLSchema {
    /// Where an entity's rows live and which column holds each slot.
    package struct EntityMapping {
        package let entity: NSEntityDescription
        package let number: Int64
        package let table: String
        /// The entity numbers of the entity and all its sub-entities.
        let numbersWithDescendants: [Int64]
        /// The column of each attribute and to-one slot.
        package let columnBySlot: [Int: String]
        /// The entity-number column of to-one slots whose destination has sub-entities.
        let typedColumnBySlot: [Int: String]
        /// The columns of the leaf attributes of each composite attribute's slot.
        package let compositeColumnsBySlot: [Int: [CompositeColumn]]

        /// The slots a row of the entity writes to columns, in slot order.
        package var storedSlots: [Int] {
            entity.layout.slots.map(\.index).filter { columnBySlot[$0] != nil || compositeColumnsBySlot[$0] != nil }
        }
    }

    /// The column of one leaf attribute of a composite attribute: a composite has no column of
    /// its own, and each leaf's column is named after the leaf alone (store-format §2.5).
    package struct CompositeColumn {
        let leaf: NSCompositeAttributeDescription.Leaf
        let name: String
    }

    /// A table with its columns in declaration order.
    package struct Table {
        let name: String
        var columns: [(name: String, type: String)]
    }

    /// The join table of a many-to-many relationship pair.
    package struct JoinTable {
        let name: String
        /// The relationship whose source rows the first column holds.
        let owner: NSRelationshipDescription
        /// Holds the primary keys of `owner`'s source entity.
        let sourceColumn: String
        /// Holds the primary keys of `owner`'s destination entity.
        let destinationColumn: String
        /// The position column of each ordered side, by the column it orders.
        let orderColumns: [String: String]

        /// Its columns in table order: the two keys, then the position column of each ordered side.
        var columnNames: [String] {
            [sourceColumn, destinationColumn] + [sourceColumn, destinationColumn].compactMap { orderColumns[$0] }
        }

        /// The column holding the rows on the owning side of `relationship`, and the one holding
        /// its destinations.
        func columns(for relationship: NSRelationshipDescription) -> (source: String, destination: String) {
            relationship === owner ? (sourceColumn, destinationColumn) : (destinationColumn, sourceColumn)
        }
    }

    let entities: [NSEntityDescription]
    private(set) var mappings: [ObjectIdentifier: EntityMapping] = [:]
    private(set) var entitiesByNumber: [Int64: NSEntityDescription] = [:]
    private(set) var tables: [Table] = []
    private(set) var joinTables: [ObjectIdentifier: JoinTable] = [:]
    /// For ordered one-to-many relationships: the destination-table column holding positions.
    private(set) var orderColumns: [ObjectIdentifier: String] = [:]
    private(set) var indexes: [String] = []

    /// Builds the layout of a set of entities (closed under inheritance): for a new store, numbered
    /// and named as Apple does; for an existing one, numbered as its `Z_PRIMARYKEY` says, with the
    /// join tables its file holds.
    package init(entities: [NSEntityDescription], stored: StoredLayout? = nil) {
        self.entities = entities
        let numbering = stored.map { $0.numbers(for: entities) } ?? Self.appleNumbering(entities)
        for entity in entities {
            if let number = numbering[entity.entityName] { entitiesByNumber[number] = entity }
        }
        for root in Self.roots(of: entities) {
            buildTable(for: root, numbering: numbering)
        }
        buildRelationshipStorage(numbering: numbering, stored: stored)
    }

    /// The entities of the store's configuration, with every entity of their hierarchies (whose
    /// rows share their tables). The metadata's hashes cover the configuration's entities only,
    /// which is what `isConfiguration(withName:compatibleWithStoreMetadata:)` compares.
    package static func storeEntities(in model: NSManagedObjectModel, configuration: String?) -> [NSEntityDescription] {
        let configured = model.entities(forConfigurationName: configuration) ?? model.entities
        let wanted = Set(configured.flatMap { $0.rootEntity.selfAndDescendants }.map(ObjectIdentifier.init))
        return model.entities.filter { wanted.contains(ObjectIdentifier($0)) }
    }

    /// The concrete entity a row's `Z_ENT` names; nil for an unknown number or an abstract entity,
    /// which no row of a sound store has (such rows are skipped, never instantiated).
    func rowEntity(number: Int64) -> NSEntityDescription? {
        entitiesByNumber[number].flatMap { $0.isAbstract ? nil : $0 }
    }

    package func mapping(for entity: NSEntityDescription) -> EntityMapping? {
        mappings[ObjectIdentifier(entity)]
    }

    func joinTable(for relationship: NSRelationshipDescription) -> JoinTable? {
        joinTables[ObjectIdentifier(relationship)]
    }

    func orderColumn(for relationship: NSRelationshipDescription) -> String? {
        orderColumns[ObjectIdentifier(relationship)]
    }

    /// Whether a relationship is stored in a join table (many-to-many, or to-many without inverse).
    static func usesJoinTable(_ relationship: NSRelationshipDescription) -> Bool {
        relationship.isToMany && (relationship.inverseRelationship?.isToMany ?? true)
    }

    // MARK: Numbering

    /// Apple's entity numbers: a pre-order walk of the inheritance forest, roots and sub-entities
    /// each in case-insensitive name order, starting at 1.
    static func appleNumbering(_ entities: [NSEntityDescription]) -> [String: Int64] {
        var numbers: [String: Int64] = [:]
        var next: Int64 = 1
        let members = Set(entities.map(ObjectIdentifier.init))
        func visit(_ entity: NSEntityDescription) {
            numbers[entity.entityName] = next
            next += 1
            for child in sortedByName(entity.subentities.filter { members.contains(ObjectIdentifier($0)) }) {
                visit(child)
            }
        }
        sortedByName(roots(of: entities)).forEach(visit)
        return numbers
    }

    private static func sortedByName(_ entities: [NSEntityDescription]) -> [NSEntityDescription] {
        entities.sorted { lhs, rhs in
            let order = lhs.entityName.compare(rhs.entityName, options: .caseInsensitive)
            return order == .orderedSame ? lhs.entityName < rhs.entityName : order == .orderedAscending
        }
    }

    private static func roots(of entities: [NSEntityDescription]) -> [NSEntityDescription] {
        let members = Set(entities.map(ObjectIdentifier.init))
        return entities.filter { entity in entity.superentity.map { !members.contains(ObjectIdentifier($0)) } ?? true }
    }

    // MARK: Tables and columns

    private func buildTable(for root: NSEntityDescription, numbering: [String: Int64]) {
        let tableName = "Z" + root.entityName.uppercased()
        var table = Table(name: tableName, columns: [("Z_PK", "INTEGER PRIMARY KEY"), ("Z_ENT", "INTEGER"), ("Z_OPT", "INTEGER")])
        var used: Set<String> = ["Z_PK", "Z_ENT", "Z_OPT"]
        var columnByProperty: [ObjectIdentifier: String] = [:]
        var typedColumnByProperty: [ObjectIdentifier: String] = [:]
        var compositeColumnsByProperty: [ObjectIdentifier: [CompositeColumn]] = [:]
        let hierarchy = root.selfAndDescendants.filter { entities.contains($0) }
        for entity in hierarchy {
            for property in entity.declaredProperties.sorted(by: { $0.name < $1.name }) where !property.isTransient {
                if let composite = property as? NSCompositeAttributeDescription {
                    compositeColumnsByProperty[ObjectIdentifier(composite)] = composite.leaves.compactMap { leaf in
                        guard !leaf.attribute.isTransient, let type = Self.columnType(for: leaf.attribute) else { return nil }
                        let column = CompositeColumn(leaf: leaf, name: Self.unique("Z" + leaf.attribute.name.uppercased(), in: &used))
                        table.columns.append((column.name, type))
                        return column
                    }
                } else if let attribute = property as? NSAttributeDescription {
                    guard let type = Self.columnType(for: attribute) else { continue }
                    let column = Self.unique("Z" + attribute.name.uppercased(), in: &used)
                    table.columns.append((column, type))
                    columnByProperty[ObjectIdentifier(attribute)] = column
                } else if let relationship = property as? NSRelationshipDescription, !relationship.isToMany {
                    let column = Self.unique("Z" + relationship.name.uppercased(), in: &used)
                    table.columns.append((column, "INTEGER"))
                    columnByProperty[ObjectIdentifier(relationship)] = column
                    indexes.append("CREATE INDEX IF NOT EXISTS \(tableName)_\(column)_INDEX ON \(tableName) (\(column))")
                    if let destination = relationship.destinationEntity, !destination.subentities.isEmpty,
                       let number = numbering[destination.entityName] {
                        let typed = Self.unique("Z\(number)_" + relationship.name.uppercased(), in: &used)
                        table.columns.append((typed, "INTEGER"))
                        typedColumnByProperty[ObjectIdentifier(relationship)] = typed
                    }
                }
            }
        }
        if hierarchy.count > 1 {
            indexes.append("CREATE INDEX IF NOT EXISTS \(tableName)_Z_ENT_INDEX ON \(tableName) (Z_ENT)")
        }
        tables.append(table)
        for entity in hierarchy {
            registerMapping(entity, table: tableName, numbering: numbering, columns: columnByProperty, typedColumns: typedColumnByProperty, compositeColumns: compositeColumnsByProperty)
        }
    }

    private func registerMapping(
        _ entity: NSEntityDescription,
        table: String,
        numbering: [String: Int64],
        columns: [ObjectIdentifier: String],
        typedColumns: [ObjectIdentifier: String],
        compositeColumns: [ObjectIdentifier: [CompositeColumn]]
    ) {
        var columnBySlot: [Int: String] = [:]
        var typedColumnBySlot: [Int: String] = [:]
        var compositeColumnsBySlot: [Int: [CompositeColumn]] = [:]
        for slot in entity.layout.slots {
            if let column = columns[ObjectIdentifier(slot.property)] { columnBySlot[slot.index] = column }
            if let typed = typedColumns[ObjectIdentifier(slot.property)] { typedColumnBySlot[slot.index] = typed }
            if let leaves = compositeColumns[ObjectIdentifier(slot.property)] { compositeColumnsBySlot[slot.index] = leaves }
        }
        let descendants = entity.selfAndDescendants.compactMap { numbering[$0.entityName] }
        mappings[ObjectIdentifier(entity)] = EntityMapping(
            entity: entity,
            number: numbering[entity.entityName] ?? 0,
            table: table,
            numbersWithDescendants: descendants,
            columnBySlot: columnBySlot,
            typedColumnBySlot: typedColumnBySlot,
            compositeColumnsBySlot: compositeColumnsBySlot
        )
        addModelIndexes(for: entity, table: table, columns: columnBySlot)
    }

    /// Indexes the model asks for: `indexed` properties, fetch indexes and uniqueness constraints.
    private func addModelIndexes(for entity: NSEntityDescription, table: String, columns: [Int: String]) {
        func column(_ property: NSPropertyDescription?) -> String? {
            property.flatMap { entity.layout.slotIndex(forKey: $0.name) }.flatMap { columns[$0] }
        }
        let name = entity.entityName
        for property in entity.declaredProperties where property.isIndexed {
            if let column = column(property) {
                indexes.append("CREATE INDEX IF NOT EXISTS Z_\(name)_\(property.name) ON \(table) (\(column) COLLATE BINARY ASC)")
            }
        }
        for index in entity.indexes {
            let parts = index.elements.compactMap { element in
                column(element.property).map { "\($0) COLLATE BINARY \(element.isAscending ? "ASC" : "DESC")" }
            }
            if !parts.isEmpty {
                indexes.append("CREATE INDEX IF NOT EXISTS Z_\(name)_\(index.name) ON \(table) (\(parts.joined(separator: ", ")))")
            }
        }
        for constraint in entity.uniquenessConstraints {
            let names = constraint.map { ($0 as? NSPropertyDescription)?.name ?? "\($0)" }
            let parts = names.compactMap { entity.layout.slotIndex(forKey: $0).flatMap { columns[$0] } }
            if !parts.isEmpty && parts.count == names.count {
                indexes.append("CREATE UNIQUE INDEX IF NOT EXISTS Z_\(name)_UNIQUE_\(names.joined(separator: "_")) ON \(table) (\(parts.map { "\($0) COLLATE BINARY ASC" }.joined(separator: ", ")))")
            }
        }
    }

    // MARK: To-many storage

    private func buildRelationshipStorage(numbering: [String: Int64], stored: StoredLayout?) {
        for entity in entities {
            for case let relationship as NSRelationshipDescription in entity.declaredProperties
            where relationship.isToMany && !relationship.isTransient && !Self.usesJoinTable(relationship) {
                guard relationship.isOrdered, let inverse = relationship.inverseRelationship,
                      let destination = relationship.destinationEntity,
                      let tableIndex = tables.firstIndex(where: { $0.name == "Z" + destination.rootEntity.entityName.uppercased() }) else { continue }
                let column = "Z_FOK_" + inverse.name.uppercased()
                if !tables[tableIndex].columns.contains(where: { $0.name == column }) {
                    tables[tableIndex].columns.append((column, "INTEGER"))
                }
                orderColumns[ObjectIdentifier(relationship)] = column
            }
        }
        joinTables = Self.joinTables(of: entities, numbering: numbering, stored: stored)
        var indexed = Set<String>()
        for joinTable in joinTables.values.sorted(by: { $0.name < $1.name }) where indexed.insert(joinTable.name).inserted {
            indexes.append("CREATE INDEX IF NOT EXISTS \(joinTable.name)_\(joinTable.destinationColumn)_INDEX ON \(joinTable.name) (\(joinTable.destinationColumn), \(joinTable.sourceColumn))")
        }
    }

    // MARK: DDL

    /// Creates the store in an empty database, inside the caller's transaction: the bookkeeping
    /// tables, the entities' tables, join tables and indexes, each entity's row of
    /// `Z_PRIMARYKEY`, and the metadata.
    package func create<Database: SQLDatabase>(in connection: Database, metadata: [String: Any], dialect: SQLDialect) throws {
        let integer = dialect.declaration("INTEGER")
        try connection.execute("CREATE TABLE Z_PRIMARYKEY (Z_ENT \(dialect.declaration("INTEGER PRIMARY KEY")), Z_NAME \(dialect.declaration("VARCHAR")), Z_SUPER \(integer), Z_MAX \(integer))")
        try connection.execute("CREATE TABLE Z_METADATA (Z_VERSION \(dialect.declaration("INTEGER PRIMARY KEY")), Z_UUID VARCHAR(255), Z_PLIST \(dialect.declaration("BLOB")))")
        try connection.execute("CREATE TABLE Z_MODELCACHE (Z_CONTENT \(dialect.declaration("BLOB")))")
        for statement in creationStatements(in: dialect) {
            try connection.execute(statement)
        }
        let insert = try connection.statement("INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, ?, 0)")
        for (number, entity) in entitiesByNumber.sorted(by: { $0.key < $1.key }) {
            insert.reset()
            insert.bind([.integer(number), .text(entity.entityName), .integer(entity.superentity.flatMap { mapping(for: $0)?.number } ?? 0)])
            try insert.run()
        }
        try SQLMetadataTable.write(metadata, to: connection)
    }

    /// The statements that create the tables, join tables and indexes.
    func creationStatements(in dialect: SQLDialect) -> [String] {
        var statements = tables.map { Self.createStatement(for: $0, in: dialect) }
        var seen = Set<String>()
        for joinTable in joinTables.values where seen.insert(joinTable.name).inserted {
            statements.append(Self.createStatement(for: joinTable, in: dialect))
        }
        return statements + indexes.map(dialect.indexDeclaration)
    }

    /// The `CREATE TABLE` of an entity table, under its name or another (a migration's
    /// temporary name).
    static func createStatement(for table: Table, named name: String? = nil, in dialect: SQLDialect = .sqlite) -> String {
        "CREATE TABLE \(name ?? table.name) ( \(table.columns.map { "\($0.name) \(dialect.declaration($0.type))" }.joined(separator: ", ")) )"
    }

    /// The `CREATE TABLE` of a join table, under its name or another.
    static func createStatement(for joinTable: JoinTable, named name: String? = nil, in dialect: SQLDialect = .sqlite) -> String {
        var columns = joinTable.columnNames.map { "\($0) \(dialect.declaration("INTEGER"))" }
        columns.append("PRIMARY KEY (\(joinTable.sourceColumn), \(joinTable.destinationColumn))")
        return "CREATE TABLE \(name ?? joinTable.name) ( \(columns.joined(separator: ", ")) )"
    }

    /// The SQLite column type of an attribute, or nil for types that are never stored.
    static func columnType(for attribute: NSAttributeDescription) -> String? {
        switch attribute.attributeType {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType, .booleanAttributeType: return "INTEGER"
        case .doubleAttributeType, .floatAttributeType: return "FLOAT"
        case .decimalAttributeType: return "DECIMAL"
        case .stringAttributeType, .URIAttributeType: return "VARCHAR"
        case .dateAttributeType: return "TIMESTAMP"
        case .binaryDataAttributeType, .UUIDAttributeType, .transformableAttributeType: return "BLOB"
        case .undefinedAttributeType, .objectIDAttributeType, .compositeAttributeType: return nil
        }
    }

    /// `name`, or `name` with the first numeric suffix not used yet (`ZTEXT1`, `Z_14USERS1`).
    static func unique(_ name: String, in used: inout Set<String>) -> String {
        var candidate = name
        var suffix = 1
        while used.contains(candidate) {
            candidate = name + String(suffix)
            suffix += 1
        }
        used.insert(candidate)
        return candidate
    }
}
