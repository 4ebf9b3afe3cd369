/// Hands out the primary keys of new rows, within the transaction that inserts them.
package protocol PrimaryKeySource {
    /// The key of a new row of an entity.
    mutating func next(for entity: NSEntityDescription) throws -> Int64

    /// Records the keys handed out, in the transaction that used them, where the store keeps
    /// the last key in `Z_PRIMARYKEY` only then.
    mutating func commit() throws
}
