extension SQLSchema {
    /// Checks that a store's database has every entity, table and column the model needs, join
    /// tables included; without `requiringEveryColumn` (versions unchecked), only the entities.
    package func verify(against layout: StoredLayout, location: URL, requiringEveryColumn: Bool) throws {
        func mismatch(_ what: String) -> NSError {
            CoreDataError.make(
                NSPersistentStoreIncompatibleSchemaError,
                "The store at \(location.isFileURL ? location.path : location.absoluteString) does not match the model: \(what).",
                userInfo: [NSURLErrorKey: location]
            )
        }
        let unnumbered = entities.filter { mapping(for: $0)?.number ?? 0 == 0 }
        guard unnumbered.isEmpty else {
            throw mismatch("it has no entity \(unnumbered.map(\.entityName).joined(separator: ", "))")
        }
        guard requiringEveryColumn else { return }
        let joinTableColumns = joinTables.values.map { (name: $0.name, columns: $0.columnNames) }
        for (table, columns) in tables.map({ ($0.name, $0.columns.map(\.name)) }) + joinTableColumns.map({ ($0.name, $0.columns) }) {
            let existing = layout.columnsByTable[table] ?? []
            let missing = columns.filter { !existing.contains($0) }
            guard missing.isEmpty else {
                throw mismatch(existing.isEmpty ? "it has no table \(table)" : "table \(table) lacks \(missing.joined(separator: ", "))")
            }
        }
    }

    /// What an existing store file says about its layout: the entity numbers of its
    /// `Z_PRIMARYKEY` table and the columns of its tables.
    ///
    /// Apple derives some names from choices a model does not determine (which side of a
    /// self-referential many-to-many names the join table, which column of a colliding pair gets a
    /// numeric suffix), so the names of an existing store are read from its file
    /// (`spec/store-format.md` §2.6, §4).
    package struct StoredLayout {
        /// `Z_PRIMARYKEY`'s entity numbers by `Z_NAME`.
        let numbersByName: [String: Int64]
        /// The column names of every table of the file.
        let columnsByTable: [String: Set<String>]

        package init(numbersByName: [String: Int64], columnsByTable: [String: Set<String>]) {
            self.numbersByName = numbersByName
            self.columnsByTable = columnsByTable
        }

        /// The entity numbers of a model's entities. An entity that a migration renamed keeps its
        /// old name in `Z_PRIMARYKEY` (Apple does not rewrite it), so an entity the file does not
        /// name takes the number of its renaming identifier, when no entity of the model has
        /// that name.
        func numbers(for entities: [NSEntityDescription]) -> [String: Int64] {
            var numbers = numbersByName
            let names = Set(entities.map(\.entityName))
            var claimed = Set(entities.compactMap { numbersByName[$0.entityName] })
            for entity in entities where numbersByName[entity.entityName] == nil {
                if let oldName = entity.renamingIdentifier, !names.contains(oldName),
                   let number = numbersByName[oldName], claimed.insert(number).inserted {
                    numbers[entity.entityName] = number
                }
            }
            return numbers
        }
    }
}
