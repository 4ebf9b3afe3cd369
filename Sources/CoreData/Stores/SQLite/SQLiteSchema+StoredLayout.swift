extension SQLiteSchema {
    /// What an existing store file says about its layout: the entity numbers of its
    /// `Z_PRIMARYKEY` table and the columns of its tables.
    ///
    /// Apple derives some names from choices a model does not determine (which side of a
    /// self-referential many-to-many names the join table, which column of a colliding pair gets a
    /// numeric suffix), so the names of an existing store are read from its file
    /// (`spec/store-format.md` §2.6, §4).
    struct StoredLayout {
        /// `Z_PRIMARYKEY`'s entity numbers by `Z_NAME`.
        let numbersByName: [String: Int64]
        /// The column names of every table of the file.
        let columnsByTable: [String: Set<String>]

        /// Reads the tables and their columns; `numbersByName` comes from `Z_PRIMARYKEY`.
        init(numbersByName: [String: Int64], connection: SQLiteConnection) throws {
            self.numbersByName = numbersByName
            var columnsByTable: [String: Set<String>] = [:]
            let statement = try connection.statement("SELECT name FROM sqlite_master WHERE type = 'table'")
            var tables: [String] = []
            while try statement.step() {
                if let name = statement.string(at: 0) { tables.append(name) }
            }
            for table in tables {
                columnsByTable[table] = try connection.columns(of: table)
            }
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
