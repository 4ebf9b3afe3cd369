import CoreData

/// Primary keys handed out from blocks that a store reserves in `Z_PRIMARYKEY`, one block per
/// inheritance root at a time: a reservation advances the root's `Z_MAX` in a statement of its
/// own, committed at once, so that coordinators saving at the same time never wait for each
/// other's saves to hand out keys. Keys of a block a coordinator does not use are never used.
struct PrimaryKeyBlocks {
    /// The fewest keys a reservation takes.
    static let minimumBlockSize: Int64 = 100

    /// The next free key and the end of the reserved block, by root entity number.
    private var blocks: [Int64: (next: Int64, end: Int64)] = [:]

    /// Makes sure that `count` keys of each root are reserved, reserving them outside any
    /// transaction (`connection` must have none open).
    mutating func reserve(_ countsByRoot: [Int64: Int], connection: PostgreSQLConnection) throws {
        for (root, count) in countsByRoot.sorted(by: { $0.key < $1.key }) {
            let available = blocks[root].map { $0.end - $0.next } ?? 0
            guard available < Int64(count) else { continue }
            let size = max(Int64(count), Self.minimumBlockSize)
            let statement = try connection.statement("UPDATE Z_PRIMARYKEY SET Z_MAX = Z_MAX + ? WHERE Z_ENT = ? RETURNING Z_MAX")
            statement.bind([.integer(size), .integer(root)])
            guard let end = try statement.readFirstRow({ $0.int64(at: 0) }) else {
                throw CoreDataError.make(NSPersistentStoreSaveError, "The PostgreSQL store has no Z_PRIMARYKEY row for entity number \(root).")
            }
            // A new block follows the old one only when no other coordinator reserved between.
            if let block = blocks[root], block.end == end - size + 1 {
                blocks[root] = (block.next, end + 1)
            } else {
                blocks[root] = (end - size + 1, end + 1)
            }
        }
    }

    /// The next reserved key of a root; `reserve` must have reserved it.
    mutating func next(forRoot root: Int64) -> Int64? {
        guard let block = blocks[root], block.next < block.end else { return nil }
        blocks[root] = (block.next + 1, block.end)
        return block.next
    }
}
