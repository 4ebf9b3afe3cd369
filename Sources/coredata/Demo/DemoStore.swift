import ArgumentParser
import CoreData

/// Where the demo keeps its movie store: a SQLite file, or a schema of its own on a PostgreSQL
/// server (with the package's `PostgreSQL` trait).
struct DemoStore {
    let url: URL
    let type: String
    let options: [String: NSObject]
    /// Where the store is, as the demo prints it.
    let location: String

    /// The SQLite file `Movies.sqlite` in `directory`, or in the container's default directory.
    static func sqlite(inDirectory directory: String?) -> DemoStore {
        let url = directory.map { URL(fileURLWithPath: $0, isDirectory: true).appendingPathComponent("Movies.sqlite") }
            ?? NSPersistentContainer.defaultDirectoryURL().appendingPathComponent("CoreDataDemo/Movies.sqlite")
        return DemoStore(url: url, type: NSSQLiteStoreType, options: [:], location: url.path)
    }

    /// The schema `coredata_demo` (or the one the URL's `schema` item names) of the database a
    /// `postgres://` URL names.
    static func server(_ argument: String) throws -> DemoStore {
        guard let address = PostgreSQLStoreAddress(argument, defaultSchema: "coredata_demo") else {
            throw ValidationError("--store takes a PostgreSQL URL, postgres://user@host:port/database; got '\(argument)'.")
        }
        return DemoStore(url: address.url, type: try address.storeType(), options: address.options, location: address.description)
    }

    /// The store's description for a container.
    var storeDescription: NSPersistentStoreDescription {
        let description = NSPersistentStoreDescription(url: url)
        description.type = type
        for (key, value) in options {
            description.setOption(value, forKey: key)
        }
        return description
    }

    /// Deletes the store a previous run left; false when there was none.
    func removePrevious(model: NSManagedObjectModel) throws -> Bool {
        guard (try? NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: type, at: url, options: options)) != nil else { return false }
        try NSPersistentStoreCoordinator(managedObjectModel: model).destroyPersistentStore(at: url, ofType: type, options: options)
        return true
    }
}
