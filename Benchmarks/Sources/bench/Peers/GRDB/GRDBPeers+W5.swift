import GRDB

extension GRDBPeers {
    /// W5 GRDB: `GRDBParent.including(all: GRDBParent.children)` decoded as
    /// ``GRDBParentWithChildren`` with `fetchAll(db)` (GRDB runs one query for the parents and one
    /// `WHERE ZPARENT IN (…)` for all their children, and groups them), then, for each parent, the
    /// sum of `serial + weight` of its children. The GRDB figure of W5's `RESULT` lines.
    ///
    /// Set-up (not measured): open the queue on the fixture copy, apply the pragmas.
    static var traverseIncludingAll: Peer {
        Peer(name: "grdb-including", family: .grdb) { input in
            let queue = try openQueue(at: input.storeURL, settings: input.settings)
            return PreparedRun(
                body: {
                    try queue.inDatabase { db in
                        let parents = try GRDBParent
                            .including(all: GRDBParent.children)
                            .asRequest(of: GRDBParentWithChildren.self)
                            .fetchAll(db)
                        return parents.reduce(0) { sum, parent in
                            parent.children.reduce(sum) { $0 &+ $1.serial &+ $1.weight }
                        }
                    }
                },
                tearDown: { try queue.close() })
        }
    }
}
