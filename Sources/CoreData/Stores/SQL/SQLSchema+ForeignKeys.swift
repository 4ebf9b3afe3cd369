// The to-one foreign keys of a layout, which batch deletes clear when the rows they refer to go.
extension SQLSchema {
    /// A to-one foreign key column that refers to rows of an entity's hierarchy.
    struct ForeignKey {
        let table: String
        let column: String
        /// The referring entity's layout slot of the relationship.
        let slot: Int
        /// `UPDATE … SET` the column (and its entity column) to NULL, with a new version.
        let clearingSQL: String
    }

    /// Every to-one foreign key column of the store that refers to rows of an entity's hierarchy,
    /// each once.
    func foreignKeys(referringTo entity: NSEntityDescription) -> [ForeignKey] {
        var keys: [ForeignKey] = []
        var seen = Set<String>()
        for referring in entities {
            guard let mapping = mapping(for: referring) else { continue }
            for (slot, column) in mapping.columnBySlot.sorted(by: { $0.key < $1.key }) {
                guard case .toOne(let relationship) = referring.layout.slots[slot].kind,
                      relationship.destinationEntity?.rootEntity === entity.rootEntity,
                      seen.insert("\(mapping.table).\(column)").inserted else { continue }
                let typed = mapping.typedColumnBySlot[slot].map { ", \($0) = NULL" } ?? ""
                keys.append(ForeignKey(table: mapping.table, column: column, slot: slot,
                                       clearingSQL: "UPDATE \(mapping.table) SET \(column) = NULL\(typed), Z_OPT = Z_OPT + 1"))
            }
        }
        return keys
    }
}
