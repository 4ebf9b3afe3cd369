/// The steps after the tables: `Z_PRIMARYKEY` with the new entity numbers, the indexes of the
/// destination model, the metadata, and the checks that mandatory properties have values; and
/// the steps that finish an earlier migration's deferred cleanup first.
extension SQLMigrationPlanner {
    /// The first entity number of Apple's history tables; lower numbers belong to entities.
    private static let firstHistoryEntityNumber: Int64 = 16_000

    func bookkeepingSteps(_ cleanup: DeferredCleanup) -> [SQLMigrationStep] {
        [primaryKeyStep(), indexStep(cleanup), metadataStep(cleanup), historyStep()]
    }

    /// In a store that records persistent history: renumbers the entities its changes name (the
    /// numbers follow the model; changes of entities the destination lacks name entity 0, which
    /// no entity has), and records the migration as a transaction without changes, by the author
    /// Apple's migrations record.
    private func historyStep() -> SQLMigrationStep {
        SQLMigrationStep(summary: "renumber persistent history and record the migration") { [moves, destination, metadata, dialect] database in
            guard try PersistentHistoryTables.exist(in: database, dialect: dialect) else { return }
            try Self.recordMigration(in: database, dialect: dialect, moves: moves, destination: destination, metadata: metadata)
        }
    }

    /// Renumbers the entities of the history's changes and records the migration's transaction.
    private static func recordMigration<Database: SQLDatabase>(in connection: Database, dialect: SQLDialect, moves: [EntityMove], destination: SQLSchema, metadata: [String: Any]) throws {
        let renumbering = moves.filter { $0.sourceNumber != $0.destinationNumber }.map { "WHEN \($0.sourceNumber) THEN \($0.destinationNumber)" }
        let kept = moves.map { "\($0.sourceNumber)" }.joined(separator: ", ")
        let cases = renumbering.isEmpty ? "ZENTITY" : "CASE ZENTITY \(renumbering.joined(separator: " ")) ELSE ZENTITY END"
        try connection.execute("UPDATE ACHANGE SET ZENTITY = CASE WHEN ZENTITY IN (\(kept)) THEN \(cases) ELSE 0 END")
        let digest = metadata[StoreMetadataKey.hashesDigest] as? String ?? ""
        let origin = PersistentHistoryOrigin(author: "com.apple.coredata.schemamigrator: lightweight migration from model with digest { \(digest) }")
        var recorder = PersistentHistoryRecorder(connection: connection, dialect: dialect, schema: destination, origin: origin)
        try recorder.recordTransaction()
        try recorder.finish()
    }

    /// Rewrites `Z_PRIMARYKEY`: each new hierarchy root continues from the largest primary key its
    /// source hierarchy handed out, so no key is ever reused.
    private func primaryKeyStep() -> SQLMigrationStep {
        SQLMigrationStep(summary: "rewrite Z_PRIMARYKEY for \(destination.entitiesByNumber.count) entities") { connection in
            var maxima: [String: Int64] = [:]
            let read = try connection.statement("SELECT Z_NAME, Z_MAX FROM Z_PRIMARYKEY")
            while try read.step() {
                if let name = read.string(at: 0) { maxima[name] = read.int64(at: 1) }
            }
            read.reset()
            try connection.execute("DELETE FROM Z_PRIMARYKEY WHERE Z_ENT < \(Self.firstHistoryEntityNumber)")
            let insert = try connection.statement("INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, ?, ?)")
            for (number, entity) in destination.entitiesByNumber.sorted(by: { $0.key < $1.key }) {
                var maximum: Int64 = 0
                let isRoot = entity.superentity.flatMap { destination.mapping(for: $0) } == nil
                if isRoot, let table = destination.mapping(for: entity)?.table {
                    let inherited = moves(into: table).compactMap { maxima[$0.source.rootEntity.entityName] }.max() ?? 0
                    maximum = max(inherited, try connection.scalar("SELECT MAX(Z_PK) FROM \(table)") ?? 0)
                }
                insert.reset()
                insert.bind([.integer(number), .text(entity.entityName), .integer(entity.superentity.flatMap { destination.mapping(for: $0)?.number } ?? 0), .integer(maximum)])
                try insert.run()
            }
        }
    }

    /// Drops the indexes the destination model does not have (or has in another form) and creates
    /// the missing ones; a migration that defers its cleanup creates only the unique ones and
    /// leaves the others to a cleanup task.
    private func indexStep(_ cleanup: DeferredCleanup) -> SQLMigrationStep {
        SQLMigrationStep(summary: "synchronize \(destination.indexes.count) indexes") { connection in
            if try SQLIndexes.synchronize(destination, on: connection, in: dialect, creatingNonUnique: !defersCleanup) {
                cleanup.tasks.append(.createIndexes)
            }
        }
    }

    /// Records the destination model's hashes, keeping the store's UUID and application keys,
    /// and the cleanup the migration deferred (replacing that of an earlier migration, which
    /// `pendingCleanupSteps()` ran).
    private func metadataStep(_ cleanup: DeferredCleanup) -> SQLMigrationStep {
        var updated = metadata
        StoreMetadata.modelKeys(for: destinationEntities, model: destinationModel).forEach { updated[$0.key] = $0.value }
        return SQLMigrationStep(summary: "write the metadata of the destination model") { connection in
            try SQLMetadataTable.write(DeferredCleanupTask.recording(cleanup.tasks, in: updated), to: connection)
        }
    }

    /// The cleanup an earlier deferred migration left, run first: a table it left might stand in
    /// the way of a table of this migration. Missing indexes are left to this migration's own
    /// index step.
    func pendingCleanupSteps() -> [SQLMigrationStep] {
        DeferredCleanupTask.pending(in: metadata).filter { $0 != .createIndexes }.map { task in
            SQLMigrationStep(summary: "finish an earlier deferred migration: \(task.summary)") { database in
                // Only the SQLite store defers cleanup.
                guard let connection = database as? SQLiteConnection else { return }
                try task.run(on: connection, schema: source)
            }
        }
    }

    // MARK: Checks

    /// Fails when another process migrated or rewrote the store between planning and the
    /// transaction: the plan was made for the hashes it read then.
    func unchangedStoreCheck() -> SQLMigrationStep {
        let planned = metadata[NSStoreModelVersionHashesKey] as? [String: Any] ?? [:]
        return SQLMigrationStep(summary: "check that the store still has the planned version") { connection in
            let current = try SQLMetadataTable.read(from: connection, storeType: dialect.storeName)[NSStoreModelVersionHashesKey] as? [String: Any] ?? [:]
            let same = current.count == planned.count
                && planned.allSatisfy { name, hash in NSManagedObjectModel.hash(current[name]) == NSManagedObjectModel.hash(hash) }
            guard same else {
                throw CoreDataError.make(NSMigrationError, "The store changed while its migration was being planned (another process may have migrated it); open it again.")
            }
        }
    }

    /// Rows of an entity that becomes abstract would have nowhere to go: the migration refuses
    /// them rather than deleting them.
    func abstractedRowChecks() -> [SQLMigrationStep] {
        abstracted.compactMap { entity in
            guard let mapping = source.mapping(for: entity) else { return nil }
            let error = CoreDataError.make(NSMigrationError, "Entity \(entity.entityName) becomes abstract, but the store has objects of it; a mapping model must say what they become.")
            return .requireNoRows("SELECT 1 FROM \(mapping.table) WHERE Z_ENT = \(mapping.number) LIMIT 1", otherwise: error)
        }
    }

    // MARK: Mandatory values

    /// Checks that every mandatory attribute and to-one of the migrated rows has a value, unless
    /// the value is certain: a default filled in, or a source property that was mandatory too.
    func mandatoryValueChecks() throws -> [SQLMigrationStep] {
        var checks: [SQLMigrationStep] = []
        for move in moves {
            guard let mapping = destination.mapping(for: move.destination) else { continue }
            for slot in move.destination.layout.slots where !slot.property.isOptional && !slot.isTransient {
                guard let column = mapping.columnBySlot[slot.index], try !hasCertainValue(slot, in: move) else { continue }
                let error = CoreDataError.make(
                    NSMigrationError,
                    "Validation error missing attribute values on mandatory destination attribute \(move.destination.entityName).\(slot.name).",
                    userInfo: [
                        "entity": move.destination.entityName,
                        "attribute": slot.name,
                        NSUnderlyingErrorKey: CoreDataError.make(NSValidationMissingMandatoryPropertyError, "\(slot.name) is a required value."),
                    ]
                )
                checks.append(.requireNoRows("SELECT 1 FROM \(mapping.table) WHERE Z_ENT = \(move.destinationNumber) AND \(column) IS NULL LIMIT 1", otherwise: error))
            }
        }
        return checks
    }

    private func hasCertainValue(_ slot: EntityLayout.Slot, in move: EntityMove) throws -> Bool {
        if let attribute = slot.attribute, SQLValueSource.literal(attribute.defaultValue, for: attribute, in: dialect) != nil {
            return true
        }
        guard case .sourceProperty(let name) = try propertySource(slot.name, in: move) else { return false }
        return move.source.propertiesByName[name].map { !$0.isOptional } ?? false
    }
}
