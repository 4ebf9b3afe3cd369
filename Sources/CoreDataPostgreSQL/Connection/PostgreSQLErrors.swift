import CoreData
import PostgresNIO

/// The Cocoa errors of a PostgreSQL store: what the server or the connection reported, in
/// `NSCocoaErrorDomain` with Apple's codes, the server's own message in the description and
/// its SQLSTATE under `PostgreSQLErrors.sqlStateKey`.
enum PostgreSQLErrors {
    /// The user-info key of the five-character SQLSTATE code the server gave.
    static let sqlStateKey = "PostgreSQLState"

    static func make(_ code: Int, _ description: String, location: URL?, underlying: (any Error)? = nil) -> NSError {
        var userInfo: [String: Any] = [NSLocalizedDescriptionKey: description]
        if let location { userInfo[NSURLErrorKey] = location }
        if let underlying {
            userInfo[NSUnderlyingErrorKey] = underlying
            if let state = sqlState(of: underlying) { userInfo[sqlStateKey] = state }
        }
        return NSError(domain: NSCocoaErrorDomain, code: code, userInfo: userInfo)
    }

    /// The error of a query that failed.
    static func error(_ error: any Error, sql: String, location: URL) -> NSError {
        make(NSPersistentStoreOperationError, "PostgreSQL failed: \(reason(of: error)) (\(sql.prefix(200)))", location: location, underlying: error)
    }

    /// What went wrong, in words: the server's message, or the connection's failure.
    static func reason(of error: any Error) -> String {
        guard let error = error as? PSQLError else { return String(describing: error) }
        if let message = error.serverInfo?[.message] { return message }
        return error.code.description
    }

    /// Whether an error means that the connection is gone: closed by either side or by the
    /// network, or its server process terminated (SQLSTATE classes 08 and 57P).
    static func isConnectionLoss(_ error: any Error) -> Bool {
        guard let error = error as? PSQLError else { return false }
        if let state = error.serverInfo?[.sqlState] { return state.hasPrefix("08") || state.hasPrefix("57P") }
        return [.serverClosedConnection, .clientClosedConnection, .connectionError, .uncleanShutdown].contains(error.code)
    }

    /// The name of the constraint an error the server reported is about, looking through Cocoa errors.
    static func constraint(of error: any Error) -> String? {
        let nsError = error as NSError
        if let error = error as? PSQLError ?? nsError.userInfo[NSUnderlyingErrorKey] as? PSQLError { return error.serverInfo?[.constraintName] }
        return (nsError.userInfo[NSUnderlyingErrorKey] as? NSError).flatMap { constraint(of: $0) }
    }

    /// The SQLSTATE of an error the server reported, looking through Cocoa errors.
    static func sqlState(of error: any Error) -> String? {
        if let error = error as? PSQLError { return error.serverInfo?[.sqlState] }
        let nsError = error as NSError
        return nsError.userInfo[sqlStateKey] as? String
    }
}

/// A statement outside a transaction failed because its connection was lost; it may run again
/// on a new one.
struct PostgreSQLConnectionLost: Error {
    let reason: String
}

/// Identifiers a program names (schemas), checked and quoted, so that no name is SQL.
enum PostgreSQLIdentifier {
    /// The name quoted; nil for a name of other characters than ASCII letters, digits and underscores.
    static func quoted(_ name: String) -> String? {
        guard !name.isEmpty, name.utf8.count < 64, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }) else { return nil }
        return "\"\(name)\""
    }
}
