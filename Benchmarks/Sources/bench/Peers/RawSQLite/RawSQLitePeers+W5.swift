import BenchSQLite

extension RawSQLitePeers {
    /// W5 raw N+1: every parent (``ParentChildTable/selectParentsSQL``), then for each parent
    /// one indexed query for its children (``ParentChildTable/selectChildrenOfParentSQL``, prepared
    /// once, bound and reset per parent), each child materialized, then the sum of `serial + weight`.
    static var traverseNPlusOne: Peer {
        traversePeer(named: "raw-n+1") { connection in
            let parents = try fetchParents(from: connection)
            let statement = try connection.prepare(ParentChildTable.selectChildrenOfParentSQL)
            var sum: Int64 = 0
            for parent in parents {
                sqlite3_bind_int64(statement.handle, 1, parent.primaryKey)
                var children: [Child] = []
                while try statement.step() {
                    children.append(Child(row: statement.handle))
                }
                sqlite3_reset(statement.handle)
                sum &+= childrenSum(children)
            }
            return sum
        }
    }

    /// W5 raw single query: every parent, then every child in one query ordered by the foreign
    /// key (``ParentChildTable/selectChildrenByParentSQL``, through its index), materialized and
    /// grouped by parent as the rows arrive; then, for each parent, the sum of `serial + weight`
    /// of its group.
    static var traverseSingleQuery: Peer {
        traversePeer(named: "raw-single") { connection in
            let parents = try fetchParents(from: connection)
            let statement = try connection.prepare(ParentChildTable.selectChildrenByParentSQL)
            var groups: [Int64: [Child]] = [:]
            groups.reserveCapacity(parents.count)
            var current: (parent: Int64, children: [Child])?
            while try statement.step() {
                let child = Child(row: statement.handle)
                if child.parent != current?.parent {
                    if let current { groups[current.parent] = current.children }
                    current = (child.parent, [])
                }
                current?.children.append(child)
            }
            if let current { groups[current.parent] = current.children }
            return parents.reduce(0) { $0 &+ childrenSum(groups[$1.primaryKey] ?? []) }
        }
    }

    /// The sum of `serial + weight` over `children`.
    private static func childrenSum(_ children: [Child]) -> Int64 {
        children.reduce(0) { $0 &+ $1.serial &+ $1.weight }
    }

    /// A W5 peer. Set-up (not measured): open the connection on the fixture copy, apply the
    /// pragmas. The statements are prepared in the measured body, as our store prepares its own.
    private static func traversePeer(named name: String, traverse: @escaping (SQLiteConnection) throws -> Int64) -> Peer {
        Peer(name: name, family: .raw) { input in
            let connection = try SQLiteConnection(path: input.storeURL.path, settings: input.settings)
            return PreparedRun(
                body: { try traverse(connection) },
                tearDown: { connection.close() })
        }
    }
}
