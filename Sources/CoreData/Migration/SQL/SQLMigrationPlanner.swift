/// Plans the in-place migration of a relational store (SQLite's, or another database's through
/// its `SQLDialect`) from one model version to another, as SQL that runs in one transaction
/// (`spec/store-format.md` §2): tables are altered where adding and
/// renaming columns suffices and rebuilt otherwise, join tables are rebuilt when their names or
/// columns change, entities are renumbered, and `Z_PRIMARYKEY`, the indexes and the metadata are
/// rewritten. Rows keep their primary keys, so relationships stay intact without a lookup.
///
/// Only mappings whose expressions the store can evaluate in SQL are planned (those of an
/// inferred mapping model, and mapping models built in code from the same forms); any other
/// mapping throws `SQLMigrationPlanner.needsObjects`.
package struct SQLMigrationPlanner {
    /// A source entity whose rows become rows of a destination entity.
    struct EntityMove {
        let source: NSEntityDescription
        let destination: NSEntityDescription
        let mapping: NSEntityMapping
        let sourceNumber: Int64
        let destinationNumber: Int64
        let sourceTable: String
        let destinationTable: String
    }

    let source: SQLSchema
    let destination: SQLSchema
    let metadata: [String: Any]
    let destinationModel: NSManagedObjectModel
    let destinationEntities: [NSEntityDescription]
    let moves: [EntityMove]
    /// Concrete source entities whose destination is abstract: the store must have no rows of them.
    let abstracted: [NSEntityDescription]
    /// Whether the migration postpones its expensive cleanup (dropping removed columns and
    /// tables, creating non-unique indexes) to `DeferredCleanupTask`s.
    let defersCleanup: Bool
    /// How the store's database spells its SQL.
    let dialect: SQLDialect

    /// - Parameters:
    ///   - source: the store's current layout (its model and stored entity numbers).
    ///   - destination: the layout of the destination model, numbered afresh.
    ///   - mapping: the mapping model between the two.
    ///   - metadata: the store's metadata, whose application keys and UUID are kept.
    ///   - destinationModel: the model whose hashes the new metadata records.
    ///   - configuredEntities: the destination entities the store's configuration holds.
    ///   - defersCleanup: whether the expensive cleanup is left to `DeferredCleanupTask`s.
    ///   - dialect: how the store's database spells its SQL.
    package init(
        source: SQLSchema, destination: SQLSchema, mapping: NSMappingModel, metadata: [String: Any], destinationModel: NSManagedObjectModel,
        configuredEntities: [NSEntityDescription], defersCleanup: Bool = false, dialect: SQLDialect = .sqlite
    ) throws {
        self.source = source
        self.destination = destination
        self.metadata = metadata
        self.destinationModel = destinationModel
        self.destinationEntities = configuredEntities
        self.defersCleanup = defersCleanup
        self.dialect = dialect
        (moves, abstracted) = try Self.moves(source: source, destination: destination, mapping: mapping)
    }

    /// The reason a mapping cannot run in SQL: a migration manager must run it on objects.
    struct NeedsObjects: CustomNSError {
        let reason: String

        static var errorDomain: String { NSCocoaErrorDomain }
        var errorCode: Int { NSMigrationError }
        var errorUserInfo: [String: Any] {
            [NSLocalizedDescriptionKey: "The migration cannot run in place: \(reason)", "reason": reason]
        }
    }

    static func needsObjects(_ reason: String) -> NeedsObjects {
        NeedsObjects(reason: reason)
    }

    // MARK: Entity moves

    private static func moves(source: SQLSchema, destination: SQLSchema, mapping: NSMappingModel) throws -> (moves: [EntityMove], abstracted: [NSEntityDescription]) {
        let sourceByName = Dictionary(source.entities.map { ($0.entityName, $0) }, uniquingKeysWith: { first, _ in first })
        let destinationByName = Dictionary(destination.entities.map { ($0.entityName, $0) }, uniquingKeysWith: { first, _ in first })
        var moves: [EntityMove] = []
        var abstracted: [NSEntityDescription] = []
        var moved = Set<String>()
        for entityMapping in mapping.entityMappings ?? [] {
            // Any mapping's policy may do anything in its callbacks, an add mapping's included.
            guard [nil, "", "NSEntityMigrationPolicy"].contains(entityMapping.entityMigrationPolicyClassName) else {
                throw needsObjects("entity mapping \(entityMapping.name ?? "?") has a migration policy.")
            }
            switch entityMapping.mappingType {
            case .addEntityMappingType, .removeEntityMappingType:
                continue
            case .copyEntityMappingType, .transformEntityMappingType:
                break
            case .customEntityMappingType, .undefinedEntityMappingType:
                throw needsObjects("entity mapping \(entityMapping.name ?? "?") is custom.")
            }
            let sourceEntity = entityMapping.sourceEntityName.flatMap { sourceByName[$0] }
            let destinationEntity = entityMapping.destinationEntityName.flatMap { destinationByName[$0] }
            // Entities outside the store's configuration have no rows here.
            if sourceEntity == nil && destinationEntity == nil { continue }
            guard let sourceEntity, let destinationEntity else {
                throw needsObjects("entity mapping \(entityMapping.name ?? "?") moves rows into or out of the store's configuration.")
            }
            let sourceName = sourceEntity.entityName
            try MappingModelCheck.checkHashes(of: entityMapping, source: sourceEntity, destination: destinationEntity)
            guard entityMapping.sourceExpression == nil else {
                throw needsObjects("entity mapping \(entityMapping.name ?? "?") has a source expression.")
            }
            guard !sourceEntity.isAbstract else { continue }
            if destinationEntity.isAbstract {
                abstracted.append(sourceEntity)
                continue
            }
            guard moved.insert(sourceName).inserted else {
                throw needsObjects("source entity \(sourceName) has more than one mapping.")
            }
            guard let from = source.mapping(for: sourceEntity), let to = destination.mapping(for: destinationEntity) else { continue }
            moves.append(EntityMove(
                source: sourceEntity, destination: destinationEntity, mapping: entityMapping,
                sourceNumber: from.number, destinationNumber: to.number,
                sourceTable: from.table, destinationTable: to.table
            ))
        }
        return (moves, abstracted)
    }

    // MARK: Lookups

    /// The moves whose rows land in a destination table.
    func moves(into table: String) -> [EntityMove] {
        moves.filter { $0.destinationTable == table }
    }

    /// The source of a destination property for the rows of a move.
    func propertySource(_ name: String, in move: EntityMove) throws -> PropertyMappingSource {
        guard let propertyMapping = move.mapping.propertyMapping(named: name) else { return .defaultValue }
        guard let propertySource = PropertyMappingSource(propertyMapping.valueExpression) else {
            throw Self.needsObjects("the value expression of \(move.mapping.name ?? "?").\(name) needs objects to evaluate.")
        }
        return propertySource
    }

    /// The column of a property of a source entity.
    func sourceColumn(of property: NSPropertyDescription, in entity: NSEntityDescription) -> String? {
        entity.layout.slotIndex(forKey: property.name).flatMap { source.mapping(for: entity)?.columnBySlot[$0] }
    }

    /// The destination entity number a source entity's rows take, or nil when they are dropped.
    func destinationNumber(forSourceNumber number: Int64) -> Int64? {
        moves.first { $0.sourceNumber == number }?.destinationNumber
    }

    // MARK: The plan

    /// The steps of the migration, in order.
    package func steps() throws -> [SQLMigrationStep] {
        let tables = try SQLTableMigrations(planner: self)
        let tableSteps: [SQLMigrationStep] = tables.copySteps + tables.alterSteps + tables.finishingSteps
        let cleanup = DeferredCleanup(tables.deferredTasks)
        return [unchangedStoreCheck()] + pendingCleanupSteps() + abstractedRowChecks() + tableSteps + bookkeepingSteps(cleanup) + (try mandatoryValueChecks())
    }
}
