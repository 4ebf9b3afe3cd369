/// The value that decides object-ID equality, cheap to hash: the root entity of the hierarchy (all
/// entities of a hierarchy share primary keys), the key and the store (by its interned UUID, so that
/// IDs from two coordinators on one store file agree). Contexts register objects under it.
// Fields in this order fit 24 bytes: dictionaries keyed by identities hold one per registered object.
struct ObjectIdentity: Hashable {
    let root: ObjectIdentifier
    let key: NSManagedObjectID.Key
    let store: UInt32

    /// One combined word: hashing runs for every registered, fetched and saved object.
    func hash(into hasher: inout Hasher) {
        let number: Int
        switch key {
        case .permanent(let primaryKey): number = Int(truncatingIfNeeded: primaryKey)
        case .temporary(let counter): number = ~Int(truncatingIfNeeded: counter)
        }
        let rootBits = Int(bitPattern: UInt(bitPattern: root))
        hasher.combine(number &+ Int(store) &* 0x9E37_79B9 &+ rootBits &* 31)
    }
}
