@_exported import CoreData

/// The type of the PostgreSQL store (the string "PostgreSQL"), for
/// `addPersistentStore(ofType:configurationName:at:options:)` and `NSPersistentStoreDescription`.
///
/// Its first use registers the store class with the coordinators, as Swift initializes a global
/// the first time it is read; a program that names the type only as a string calls
/// ``register()`` first.
public let NSPostgreSQLStoreType: String = {
    NSPersistentStoreCoordinator.registerStoreClass(PostgreSQLStore.self, forStoreType: "PostgreSQL")
    return "PostgreSQL"
}()

extension NSPersistentStore.StoreType {
    /// The PostgreSQL store; using it registers the store class, as `NSPostgreSQLStoreType` does.
    public static let postgreSQL = NSPersistentStore.StoreType(rawValue: NSPostgreSQLStoreType)
}

/// Registers the PostgreSQL store class for the type "PostgreSQL", for a program that names the
/// store type only as a string (in a store description read from a file, say). Using
/// `NSPostgreSQLStoreType` or `NSPersistentStore.StoreType.postgreSQL` does it too.
public func register() {
    _ = NSPostgreSQLStoreType
}

/// The password of the database user, when the store URL carries none (a `String`).
public let NSPostgreSQLPasswordOption = "NSPostgreSQLPasswordOption"

/// The schema (name space) the store's tables live in, so that several stores share one
/// database; created when missing (a `String` of ASCII letters, digits and underscores).
/// Without it, the tables live in the user's default schema (`public`).
public let NSPostgreSQLSchemaOption = "NSPostgreSQLSchemaOption"

/// Whether the store's connections use TLS: `"disable"` (the default), `"prefer"` (TLS when the
/// server offers it) or `"require"` (a connection without TLS fails). The server's certificate
/// is verified, its name included (a `String`).
public let NSPostgreSQLTLSOption = "NSPostgreSQLTLSOption"

/// The path of a PEM file of the certificate authorities that vouch for the server's
/// certificate, when the system's do not (a `String`).
public let NSPostgreSQLTLSCertificateAuthorityOption = "NSPostgreSQLTLSCertificateAuthorityOption"
