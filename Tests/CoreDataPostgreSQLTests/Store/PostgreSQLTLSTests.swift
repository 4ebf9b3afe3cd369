import CoreDataPostgreSQL
import Foundation
import Testing

/// Connections over TLS (`NSPostgreSQLTLSOption`), with the server's certificate verified
/// against an authority of the program's (`NSPostgreSQLTLSCertificateAuthorityOption`).
@Suite(.enabled(if: PostgreSQLTestServer.tlsURL != nil, "No PostgreSQL server with TLS: run the tests through .ci/run, which starts one and sets COREDATA_POSTGRESQL_TLS_URL and COREDATA_POSTGRESQL_TLS_CA"))
struct PostgreSQLTLSTests {
    private static func addStore(at url: URL?, _ options: [AnyHashable: Any]) throws -> NSPersistentStoreCoordinator {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: LibraryModel.make())
        var options = options
        options[NSPostgreSQLSchemaOption] = PostgreSQLTestServer.newSchemaOptions()[NSPostgreSQLSchemaOption]
        try coordinator.addPersistentStore(ofType: NSPostgreSQLStoreType, configurationName: nil, at: url, options: options)
        return coordinator
    }

    @Test func aStoreWorksOverTLSWithTheServersAuthority() throws {
        let coordinator = try Self.addStore(at: PostgreSQLTestServer.tlsURL, [
            NSPostgreSQLTLSOption: "require", NSPostgreSQLTLSCertificateAuthorityOption: try #require(PostgreSQLTestServer.tlsCertificateAuthority),
        ])
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        let titles = try context.performAndWait {
            NSEntityDescription.insertNewObject(forEntityName: "Book", into: context).setValue("Earthsea", forKey: "title")
            try context.save()
            context.reset()
            return try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Book")).map { $0.value(forKey: "title") as? String }
        }
        #expect(titles == ["Earthsea"])
    }

    @Test func aCertificateNoTrustedAuthorityVouchesForIsRefused() throws {
        let error = #expect(throws: NSError.self) {
            try Self.addStore(at: PostgreSQLTestServer.tlsURL, [NSPostgreSQLTLSOption: "require"])
        }
        #expect(error?.code == NSPersistentStoreOpenError)
    }

    @Test func requiringTLSWhereTheServerOffersNoneFails() throws {
        let error = #expect(throws: NSError.self) {
            try Self.addStore(at: PostgreSQLTestServer.url, [NSPostgreSQLTLSOption: "require"])
        }
        #expect(error?.code == NSPersistentStoreOpenError)
    }

    @Test func anUnknownTLSModeIsRefused() throws {
        let error = #expect(throws: NSError.self) {
            try Self.addStore(at: PostgreSQLTestServer.tlsURL, [NSPostgreSQLTLSOption: "sometimes"])
        }
        #expect(error?.code == NSPersistentStoreOpenError)
        #expect(error.map { "\($0.userInfo)" }?.contains("sometimes") == true)
    }
}
