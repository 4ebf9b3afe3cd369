/// The value of every destination column for the rows of each move: attributes through their
/// conversions and defaults, to-one foreign keys as they are, typed foreign keys through the new
/// entity numbers, and ordering columns from the source order (or the primary key, which keeps
/// an unordered relationship's order stable when it becomes ordered).
extension SQLMigrationPlanner {
    /// How a destination column is filled from the rows of its table's moves.
    enum ColumnPlan: Equatable {
        /// The same source for every row that has the property; rows of entities without it are NULL.
        case uniform(SQLValueSource, destinationNumbers: [Int64])
        /// A source per move, selected by the row's entity number.
        case perEntity([Int64: SQLValueSource])
    }

    /// The plan of one column of a destination table.
    func columnPlan(_ column: String, moves: [EntityMove]) throws -> ColumnPlan {
        let values = try moves.map { ($0, try value(of: column, for: $0)) }
        let perEntity = ColumnPlan.perEntity(Dictionary(values.map { ($0.0.sourceNumber, $0.1) }, uniquingKeysWith: { first, _ in first }))
        let filled = values.filter { $0.1 != .null }
        guard let first = filled.first?.1 else { return .uniform(.null, destinationNumbers: []) }
        let numbers = filled.map(\.0.destinationNumber)
        guard filled.allSatisfy({ $0.1 == first }) else { return perEntity }
        switch first {
        case .column(let sourceColumn), .columnOrDefault(let sourceColumn, _):
            // Rows of entities that lose the property must not keep the column's values.
            let leaking = values.contains { move, value in value == .null && sourceColumns(of: move.source).contains(sourceColumn) }
            if !leaking { return .uniform(first, destinationNumbers: numbers) }
        case .literal:
            return .uniform(first, destinationNumbers: numbers)
        case .null, .expression:
            break
        }
        return perEntity
    }

    /// The columns holding values of a source entity's properties.
    private func sourceColumns(of entity: NSEntityDescription) -> Set<String> {
        guard let mapping = source.mapping(for: entity) else { return [] }
        let leafColumns = mapping.compositeColumnsBySlot.values.joined().map(\.name)
        return Set(mapping.columnBySlot.values).union(mapping.typedColumnBySlot.values).union(leafColumns)
    }

    /// The value of a destination column for the rows of one move.
    func value(of column: String, for move: EntityMove) throws -> SQLValueSource {
        guard let mapping = destination.mapping(for: move.destination) else { return .null }
        let slots = move.destination.layout.slots
        if let slot = mapping.columnBySlot.first(where: { $0.value == column })?.key {
            switch slots[slot].kind {
            case .attribute(let attribute): return try attributeValue(attribute, for: move)
            case .toOne(let relationship): return try foreignKeyValue(relationship, for: move)
            case .toMany: return .null
            }
        }
        for (slot, leaves) in mapping.compositeColumnsBySlot {
            guard let leaf = leaves.first(where: { $0.name == column })?.leaf, let composite = slots[slot].attribute as? NSCompositeAttributeDescription else { continue }
            return try leafValue(leaf, of: composite, for: move)
        }
        if let slot = mapping.typedColumnBySlot.first(where: { $0.value == column })?.key, let relationship = slots[slot].relationship {
            return try typedForeignKeyValue(relationship, for: move)
        }
        if let relationship = orderedRelationship(withColumn: column, holding: move.destination) {
            return try positionValue(relationship)
        }
        return .null
    }

    // MARK: Attributes

    private func attributeValue(_ attribute: NSAttributeDescription, for move: EntityMove) throws -> SQLValueSource {
        let defaultLiteral = SQLValueSource.literal(attribute.defaultValue, for: attribute, in: dialect)
        switch try propertySource(attribute.name, in: move) {
        case .defaultValue:
            return defaultLiteral.map(SQLValueSource.literal) ?? .null
        case .constant(let value):
            guard let literal = SQLValueSource.literal(value, for: attribute, in: dialect) else {
                if ValueUnwrapping.nonNull(value) == nil { return .null }
                throw Self.needsObjects("the constant of \(move.mapping.name ?? "?").\(attribute.name) has no SQL form.")
            }
            return .literal(literal)
        case .sourceProperty(let name):
            guard let sourceProperty = move.source.propertiesByName[name] else {
                throw CoreDataError.make(NSMigrationError, "Entity mapping \(move.mapping.name ?? "?") reads \(name), which source entity \(move.source.entityName) does not have.")
            }
            guard let sourceAttribute = sourceProperty as? NSAttributeDescription,
                  let conversion = AttributeConversion(from: sourceAttribute.attributeType, to: attribute.attributeType),
                  sourceAttribute.allowsExternalBinaryDataStorage == attribute.allowsExternalBinaryDataStorage || !attribute.attributeType.storesBinaryData else {
                throw Self.needsObjects("\(move.source.entityName).\(name) cannot become \(move.destination.entityName).\(attribute.name) in SQL.")
            }
            guard let column = sourceColumn(of: sourceAttribute, in: move.source) else {
                return defaultLiteral.map(SQLValueSource.literal) ?? .null
            }
            let converted = conversion.expression(for: column, in: dialect)
            if !attribute.isOptional, sourceAttribute.isOptional, let defaultLiteral {
                return conversion == .none ? .columnOrDefault(column, literal: defaultLiteral) : .expression("COALESCE(\(converted), \(defaultLiteral))")
            }
            return conversion == .none ? .column(column) : .expression(converted)
        }
    }

    /// A leaf of a composite attribute takes the leaf at the same element path of the composite
    /// it is mapped from, converted; a leaf that is new, or a composite mapped from anything
    /// else, starts without a value.
    private func leafValue(_ leaf: NSCompositeAttributeDescription.Leaf, of composite: NSCompositeAttributeDescription, for move: EntityMove) throws -> SQLValueSource {
        guard case .sourceProperty(let name) = try propertySource(composite.name, in: move),
              let sourceComposite = move.source.propertiesByName[name] as? NSCompositeAttributeDescription,
              let sourceLeaf = sourceComposite.leaf(atElementPath: leaf.elementPath),
              let slot = move.source.layout.slotIndex(forKey: name),
              let column = source.mapping(for: move.source)?.compositeColumnsBySlot[slot]?.first(where: { $0.leaf.path == sourceLeaf.path })?.name
        else { return .null }
        guard let conversion = AttributeConversion(from: sourceLeaf.attribute.attributeType, to: leaf.attribute.attributeType) else {
            throw Self.needsObjects("\(move.source.entityName).\(name).\(leaf.elementPath) cannot become \(move.destination.entityName).\(composite.name).\(leaf.elementPath) in SQL.")
        }
        return conversion == .none ? .column(column) : .expression(conversion.expression(for: column, in: dialect))
    }

    // MARK: Relationships

    /// The source relationship of a destination relationship, found through the mapping of any
    /// entity that has it.
    func sourceRelationship(for relationship: NSRelationshipDescription) throws -> NSRelationshipDescription? {
        for move in moves where relationship.entity.selfAndDescendants.contains(where: { $0 === move.destination }) {
            if case .sourceProperty(let name) = try propertySource(relationship.name, in: move) {
                guard let sourceRelationship = move.source.propertiesByName[name] as? NSRelationshipDescription else {
                    throw Self.needsObjects("relationship \(relationship.entity.entityName).\(relationship.name) is mapped from \(name), which is not a relationship.")
                }
                return sourceRelationship
            }
        }
        return nil
    }

    private func foreignKeyValue(_ relationship: NSRelationshipDescription, for move: EntityMove) throws -> SQLValueSource {
        guard let sourceRelationship = try sourceToOne(for: relationship, in: move) else {
            return try inverseForeignKey(relationship, for: move).map(SQLValueSource.expression) ?? .null
        }
        guard let column = sourceColumn(of: sourceRelationship, in: move.source) else { return .null }
        guard let (typedColumn, valid) = typedTargets(of: sourceRelationship, becoming: relationship, in: move), valid.count < allTargetNumbers(of: sourceRelationship).count else {
            return .column(column)
        }
        // Destinations whose rows are dropped or leave the destination entity's hierarchy.
        return .expression("CASE WHEN \(typedColumn) IN (\(valid.map(String.init).joined(separator: ", "))) THEN \(column) ELSE NULL END")
    }

    /// For a to-one that is new but whose inverse has a source: the key its pairs hold.
    private func inverseForeignKey(_ relationship: NSRelationshipDescription, for move: EntityMove) throws -> String? {
        guard case .defaultValue = try propertySource(relationship.name, in: move), let inverse = relationship.inverseRelationship,
              let sourceInverse = try sourceRelationship(for: inverse),
              let pairs = RelationshipPairs(of: sourceInverse, in: source) else { return nil }
        return pairs.sourceKey(pairedWith: "\(move.sourceTable).Z_PK")
    }

    private func sourceToOne(for relationship: NSRelationshipDescription, in move: EntityMove) throws -> NSRelationshipDescription? {
        switch try propertySource(relationship.name, in: move) {
        case .defaultValue:
            return nil
        case .constant(let value) where ValueUnwrapping.nonNull(value) == nil:
            return nil
        case .sourceProperty(let name):
            guard let sourceRelationship = move.source.propertiesByName[name] as? NSRelationshipDescription, !sourceRelationship.isToMany else {
                throw Self.needsObjects("to-one relationship \(move.destination.entityName).\(relationship.name) is mapped from \(name), which is not a to-one relationship.")
            }
            return sourceRelationship
        case .constant:
            throw Self.needsObjects("relationship \(move.destination.entityName).\(relationship.name) is mapped from a constant.")
        }
    }

    /// The entity numbers of every concrete entity a source to-one may point at.
    private func allTargetNumbers(of relationship: NSRelationshipDescription) -> [Int64] {
        (relationship.destinationEntity?.selfAndDescendants ?? []).filter { !$0.isAbstract }.compactMap { source.mapping(for: $0)?.number }
    }

    /// For a source to-one stored with a typed column: the column, and the moves of its targets
    /// that stay destinations of the destination relationship.
    private func typedTargets(of sourceRelationship: NSRelationshipDescription, becoming relationship: NSRelationshipDescription, in move: EntityMove) -> (column: String, valid: [Int64])? {
        guard let slot = move.source.layout.slotIndex(forKey: sourceRelationship.name),
              let typedColumn = source.mapping(for: move.source)?.typedColumnBySlot[slot] else { return nil }
        let targets = Set(allTargetNumbers(of: sourceRelationship))
        return (typedColumn, moves(landingIn: relationship).map(\.sourceNumber).filter(targets.contains))
    }

    /// The moves whose rows may be destinations of a destination relationship.
    private func moves(landingIn relationship: NSRelationshipDescription) -> [EntityMove] {
        let allowed = relationship.destinationEntity?.selfAndDescendants ?? []
        return moves.filter { move in allowed.contains { $0 === move.destination } }
    }

    /// The entity number of the destination of a to-one whose destination entity has sub-entities.
    private func typedForeignKeyValue(_ relationship: NSRelationshipDescription, for move: EntityMove) throws -> SQLValueSource {
        let validMoves = moves(landingIn: relationship)
        let cases = validMoves.map { "WHEN \($0.sourceNumber) THEN \($0.destinationNumber)" }.joined(separator: " ")
        guard let sourceRelationship = try sourceToOne(for: relationship, in: move) else {
            guard let key = try inverseForeignKey(relationship, for: move), let inverse = relationship.inverseRelationship,
                  let sourceInverse = try sourceRelationship(for: inverse), let table = source.mapping(for: sourceInverse.entity)?.table else { return .null }
            return .expression("CASE (SELECT t.Z_ENT FROM \(table) t WHERE t.Z_PK = \(key)) \(cases) ELSE NULL END")
        }
        guard let foreignKey = sourceColumn(of: sourceRelationship, in: move.source) else { return .null }
        if let (typedColumn, valid) = typedTargets(of: sourceRelationship, becoming: relationship, in: move) {
            let unchanged = validMoves.allSatisfy { $0.sourceNumber == $0.destinationNumber }
            if unchanged && valid.count == allTargetNumbers(of: sourceRelationship).count { return .column(typedColumn) }
            return .expression("CASE \(typedColumn) \(cases) ELSE NULL END")
        }
        guard let target = sourceRelationship.destinationEntity, let targetNumber = source.mapping(for: target)?.number,
              let number = destinationNumber(forSourceNumber: targetNumber) else { return .null }
        return .expression("CASE WHEN \(foreignKey) IS NULL THEN NULL ELSE \(number) END")
    }

    /// The ordered one-to-many relationship whose positions a column of `entity`'s table holds.
    private func orderedRelationship(withColumn column: String, holding entity: NSEntityDescription) -> NSRelationshipDescription? {
        for owner in destination.entities {
            for case let relationship as NSRelationshipDescription in owner.declaredProperties
            where destination.orderColumn(for: relationship) == column
                && (relationship.destinationEntity?.selfAndDescendants.contains { $0 === entity } ?? false) {
                return relationship
            }
        }
        return nil
    }

    private func positionValue(_ relationship: NSRelationshipDescription) throws -> SQLValueSource {
        guard let sourceRelationship = try sourceRelationship(for: relationship) else { return .null }
        return source.orderColumn(for: sourceRelationship).map(SQLValueSource.column) ?? .expression("Z_PK")
    }
}

private extension NSAttributeType {
    /// Whether the type's values may live in external files.
    var storesBinaryData: Bool {
        self == .binaryDataAttributeType || self == .transformableAttributeType
    }
}
