/// The primary key of every object a save refers to, temporary IDs included.
package final class SavePrimaryKeys {
    private let inserts: [RowInsert]
    private let permanentIDs: [NSManagedObjectID]
    /// The keys given to temporary IDs, indexed on first use (most saves never need it).
    private lazy var temporaryKeys: [ObjectIdentity: Int64] = {
        var keys: [ObjectIdentity: Int64] = [:]
        for (row, permanent) in zip(inserts, permanentIDs) {
            if let temporary = row.temporaryID { keys[temporary.identity] = permanent.primaryKey }
        }
        return keys
    }()

    package init(inserts: [RowInsert], permanentIDs: [NSManagedObjectID]) {
        self.inserts = inserts
        self.permanentIDs = permanentIDs
    }

    package func key(for objectID: NSManagedObjectID) -> Int64? {
        objectID.primaryKey ?? temporaryKeys[objectID.identity]
    }
}
