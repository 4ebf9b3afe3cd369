import CoreData

/// A store named on the command line: a file of one of the store types the tool reads, or a
/// PostgreSQL store, with the metadata it holds.
struct NamedStore {
    let url: URL
    /// The store's type: SQLite, binary, XML or PostgreSQL.
    let type: String
    /// The options every opening of the store passes: a PostgreSQL store's schema.
    let options: [String: NSObject]
    let metadata: [String: Any]
    /// The store as messages name it: the file's name, or the server and schema.
    let name: String
    /// The directory of a store file, where its model may be; nil for a store on a server.
    let directory: URL?

    /// The store types a file may be of, in the order they are tried.
    private static let fileTypes = [NSSQLiteStoreType, NSBinaryStoreType, NSXMLStoreType]

    /// Reads the metadata of the store `argument` names: a `postgres://` URL, or a file's path.
    ///
    /// - Throws: A one-line ``CommandFailure`` when there is no such store, or it is of no type
    ///   the tool reads.
    init(_ argument: String) throws {
        if let address = PostgreSQLStoreAddress(argument) {
            try self.init(server: address)
        } else {
            try self.init(path: argument)
        }
    }

    /// The store in a file, whichever type wrote it (the SQLite store's reason for refusing it,
    /// the most common type, is given when none reads it).
    private init(path: String) throws {
        url = URL(fileURLWithPath: path)
        options = [:]
        name = url.lastPathComponent
        directory = url.deletingLastPathComponent()
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw CommandFailure.report("No store at \(path).")
        }
        var firstError: (any Error)?
        for type in Self.fileTypes {
            do {
                metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: type, at: url)
                self.type = type
                return
            } catch {
                firstError = firstError ?? error
            }
        }
        throw CommandFailure.report(firstError.map(CommandFailure.message(for:)) ?? "\(path) is not a Core Data store.")
    }

    private init(server address: PostgreSQLStoreAddress) throws {
        url = address.url
        type = try address.storeType()
        options = address.options
        name = address.description
        directory = nil
        do {
            metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: type, at: url, options: options)
        } catch {
            throw CommandFailure.report(error)
        }
    }

    /// The model version hashes the metadata records, by entity name.
    var versionHashes: [String: Data] {
        metadata[NSStoreModelVersionHashesKey] as? [String: Data] ?? [:]
    }

    /// Whether the store records persistent history, as its metadata says.
    var recordsHistory: Bool {
        StoreMetadata.recordsHistory(metadata)
    }

    /// A coordinator holding the store, opened read-only with `model`, and with persistent
    /// history when `readingHistory`.
    ///
    /// - Throws: A ``CommandFailure`` when the model does not match the store or the store
    ///   cannot be opened.
    func open(with model: NSManagedObjectModel, readingHistory: Bool = false) throws -> NSPersistentStoreCoordinator {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        var options: [AnyHashable: Any] = self.options
        options[NSReadOnlyPersistentStoreOption] = true
        options[NSPersistentHistoryTrackingKey] = readingHistory
        do {
            try coordinator.addPersistentStore(ofType: type, configurationName: nil, at: url, options: options)
        } catch {
            throw CommandFailure.report(error)
        }
        return coordinator
    }
}
