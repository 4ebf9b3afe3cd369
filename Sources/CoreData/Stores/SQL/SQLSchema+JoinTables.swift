/// Apple's join tables for many-to-many relationships (and to-many relationships without an
/// inverse), `spec/store-format.md` §2.6:
///
/// * A pair `r ↔ inverse` lives in one table, `Z_<n><R>`, named after the side whose entity
///   number is lower or, when both sides belong to one entity, after the side whose inverse has
///   the lower name (`Z_1FAVORITES` for `favorites ↔ favoriteFolders`).
/// * Its first column, `Z_<n><INVERSE>`, holds the primary keys of the naming side's rows; the
///   second, `Z_<m><R>` (m the destination's number), those of their destinations; each ordered
///   side adds `Z_FOK_<column>` holding positions.
/// * A column name is unique among the columns of its entity's rows across all join tables: a
///   second `Z_14USERS` is `Z_14USERS1`. Columns are named in order of the relationship whose
///   entity's rows they hold (entity number, then relationship name).
///
/// An existing store keeps its own names, found in its file: for self-referential pairs Apple's
/// choice of side varies with the model and the framework version, so both sides' names are looked
/// for.
extension SQLSchema {
    /// A join table's name and its columns' base names, seen from the side that names it.
    private struct JoinTableNaming {
        /// The relationship the table is named after.
        let owner: NSRelationshipDescription
        let sourceNumber: Int64
        let destinationNumber: Int64

        var tableName: String { "Z_\(sourceNumber)\(owner.name.uppercased())" }
        /// The first column: the owner's rows, named after the inverse (or the entity, without one).
        var sourceBase: String { "Z_\(sourceNumber)" + (owner.inverseRelationship?.name ?? owner.entity.entityName).uppercased() }
        /// The second column: the owner's destinations.
        var destinationBase: String { "Z_\(destinationNumber)" + owner.name.uppercased() }

        init?(_ owner: NSRelationshipDescription, numbering: [String: Int64]) {
            guard let destination = owner.destinationEntity, let sourceNumber = numbering[owner.entity.entityName],
                  let destinationNumber = numbering[destination.entityName] else { return nil }
            self.owner = owner
            self.sourceNumber = sourceNumber
            self.destinationNumber = destinationNumber
        }

        /// The position columns of the ordered sides, by the column they order.
        func orderColumns(source: String, destination: String) -> [String: String] {
            var columns: [String: String] = [:]
            if owner.isOrdered { columns[destination] = "Z_FOK_" + destination.dropFirst(2) }
            if owner.inverseRelationship?.isOrdered == true { columns[source] = "Z_FOK_" + source.dropFirst(2) }
            return columns
        }
    }

    /// The join tables of a store's entities, registered under both relationships of each pair.
    static func joinTables(of entities: [NSEntityDescription], numbering: [String: Int64], stored: StoredLayout?) -> [ObjectIdentifier: JoinTable] {
        let relationships = joinTableRelationships(of: entities, numbering: numbering)
        var namings: [ObjectIdentifier: JoinTableNaming] = [:]
        var tables: [ObjectIdentifier: JoinTable] = [:]
        for relationship in relationships where namings[ObjectIdentifier(relationship)] == nil {
            let sides = [relationship, relationship.inverseRelationship].compactMap { $0 }
                .compactMap { JoinTableNaming($0, numbering: numbering) }
                .sorted { namingPrecedes($0, $1) }
            guard let naming = sides.first else { continue }
            for side in sides { namings[ObjectIdentifier(side.owner)] = naming }
            if let stored, let found = sides.lazy.compactMap({ existingJoinTable($0, in: stored) }).first {
                for side in sides { tables[ObjectIdentifier(side.owner)] = found }
            }
        }
        // New tables (and tables an existing file lacks): columns named in Apple's order.
        var used = Set(tables.values.flatMap { [$0.sourceColumn, $0.destinationColumn] })
        var sourceColumns: [ObjectIdentifier: String] = [:]
        var destinationColumns: [ObjectIdentifier: String] = [:]
        for relationship in relationships {
            guard let naming = namings[ObjectIdentifier(relationship)], tables[ObjectIdentifier(relationship)] == nil else { continue }
            let key = ObjectIdentifier(naming.owner)
            if relationship === naming.owner {
                sourceColumns[key] = unique(naming.sourceBase, in: &used)
                if naming.owner.inverseRelationship == nil || naming.owner.inverseRelationship === naming.owner {
                    destinationColumns[key] = unique(naming.destinationBase, in: &used)
                }
            } else {
                destinationColumns[key] = unique(naming.destinationBase, in: &used)
            }
        }
        for relationship in relationships where tables[ObjectIdentifier(relationship)] == nil {
            guard let naming = namings[ObjectIdentifier(relationship)] else { continue }
            let key = ObjectIdentifier(naming.owner)
            let source = sourceColumns[key] ?? unique(naming.sourceBase, in: &used)
            let destination = destinationColumns[key] ?? unique(naming.destinationBase, in: &used)
            (sourceColumns[key], destinationColumns[key]) = (source, destination)
            tables[ObjectIdentifier(relationship)] = JoinTable(
                name: naming.tableName,
                owner: naming.owner,
                sourceColumn: source,
                destinationColumn: destination,
                orderColumns: naming.orderColumns(source: source, destination: destination)
            )
        }
        return tables
    }

    /// The persistent relationships kept in join tables, in the order Apple names their columns:
    /// by entity number, then by name.
    private static func joinTableRelationships(of entities: [NSEntityDescription], numbering: [String: Int64]) -> [NSRelationshipDescription] {
        entities
            .sorted { (numbering[$0.entityName] ?? 0) < (numbering[$1.entityName] ?? 0) }
            .flatMap { entity in
                entity.declaredProperties
                    .compactMap { $0 as? NSRelationshipDescription }
                    .filter { !$0.isTransient && usesJoinTable($0) }
                    .sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
            }
    }

    /// Whether `lhs` rather than `rhs` names the pair's table: the lower entity number, then the
    /// side whose inverse's name is lower.
    private static func namingPrecedes(_ lhs: JoinTableNaming, _ rhs: JoinTableNaming) -> Bool {
        if lhs.sourceNumber != rhs.sourceNumber { return lhs.sourceNumber < rhs.sourceNumber }
        let lhsInverse = lhs.owner.inverseRelationship?.name ?? ""
        let rhsInverse = rhs.owner.inverseRelationship?.name ?? ""
        return lhsInverse.utf8.lexicographicallyPrecedes(rhsInverse.utf8)
    }

    /// The table a file keeps a pair in when it is named after `naming`'s side: its two columns
    /// are the base names, either exactly or with a numeric suffix.
    private static func existingJoinTable(_ naming: JoinTableNaming, in stored: StoredLayout) -> JoinTable? {
        guard let columns = stored.columnsByTable[naming.tableName] else { return nil }
        var available = columns.filter { !$0.hasPrefix("Z_FOK_") }
        guard let source = take(naming.sourceBase, from: &available),
              let destination = take(naming.destinationBase, from: &available) else { return nil }
        return JoinTable(
            name: naming.tableName,
            owner: naming.owner,
            sourceColumn: source,
            destinationColumn: destination,
            orderColumns: naming.orderColumns(source: source, destination: destination)
        )
    }

    /// Removes and returns the column named `base`, or else `base` with the shortest numeric suffix.
    private static func take(_ base: String, from columns: inout Set<String>) -> String? {
        let candidates = columns.filter { column in
            column.hasPrefix(base) && column.dropFirst(base.count).allSatisfy(\.isASCIIDigit)
        }
        guard let column = candidates.min(by: { ($0.count, $0) < ($1.count, $1) }) else { return nil }
        columns.remove(column)
        return column
    }
}

private extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
