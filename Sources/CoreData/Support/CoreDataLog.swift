import Logging

/// The loggers of Core Data's layers, through swift-log, so that a server routes them with its
/// own log handler (`LoggingSystem.bootstrap`, before Core Data's first use). Without one,
/// swift-log's default handler writes to standard error; nothing goes to standard output.
///
/// - `CoreData.SQL`: the statements the SQL debug switch (`-com.apple.CoreData.SQLDebug N` or
///   `COREDATA_SQL_DEBUG=N`) asks for, at `debug` level, which the logger is set to when the
///   switch is on: level 1 each statement and its time; 2 its bound values too; 3 and 4 each
///   query's plan (`EXPLAIN QUERY PLAN`) as well.
/// - `CoreData.Context`: what a context cannot do where Apple's API cannot throw (a fault
///   whose row is gone, a merge that cannot read its rows), at `error`, or `debug` for what
///   only SQL debugging reports.
/// - `CoreData.Store`: stores' warnings (history opened without tracking, remote change
///   notifications off, external data left behind), at `warning`.
/// - `CoreData.Model`: warnings about a model (a transformable attribute's insecure
///   transformer), once each, at `warning`.
package enum CoreDataLog {
    package static let sql: Logger = {
        var logger = Logger(label: "CoreData.SQL")
        if sqlDebugLevel > 0 { logger.logLevel = .debug }
        return logger
    }()

    static let context = Logger(label: "CoreData.Context")
    static let store = Logger(label: "CoreData.Store")
    static let model = Logger(label: "CoreData.Model")

    /// The SQL debug level: 0 (off) to 4.
    package static let sqlDebugLevel = DebugSwitch.level(launchArgument: "-com.apple.CoreData.SQLDebug", environment: "COREDATA_SQL_DEBUG")
}
