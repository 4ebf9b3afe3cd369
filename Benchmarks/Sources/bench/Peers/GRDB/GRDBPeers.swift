import Foundation
import GRDB

/// The GRDB peers: the best Swift ORM on SQLite, as a struct record and as a change-tracking
/// `Record` class, on the same `ZITEM` table as the raw peer. Each workload adds its peers in an
/// extension (`GRDBPeers+W1.swift` …). Files using GRDB do not import CoreData (clashing names).
enum GRDBPeers {
    /// The GRDB version pinned in Package.swift.
    static let version = "7.10.0"

    /// Opens a `DatabaseQueue` (one connection, like the raw peer) that applies the run's journal
    /// mode and synchronous level when it opens.
    static func openQueue(at url: URL, settings: StoreSettings) throws -> DatabaseQueue {
        var configuration = Configuration()
        let statements = settings.pragmaStatements
        configuration.prepareDatabase { db in
            for statement in statements {
                try db.execute(sql: statement)
            }
        }
        return try DatabaseQueue(path: url.path, configuration: configuration)
    }
}
