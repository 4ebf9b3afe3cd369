import CoreData

/// A store named on the command line: a file of one of the store types the tool reads, with the
/// metadata it holds.
struct StoreFile {
    let url: URL
    /// The store type whose file it is: SQLite, binary or XML.
    let type: String
    let metadata: [String: Any]

    /// The store types a file may be of, in the order they are tried.
    private static let types = [NSSQLiteStoreType, NSBinaryStoreType, NSXMLStoreType]

    /// Reads the metadata of the store at `path`, whichever type wrote it.
    ///
    /// - Throws: A one-line ``CommandFailure`` when there is no file, or it is no store of a
    ///   type the tool reads (the SQLite store's reason, the most common type, is given).
    init(path: String) throws {
        url = URL(fileURLWithPath: path)
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw CommandFailure.report("No store at \(path).")
        }
        var firstError: (any Error)?
        for type in Self.types {
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

    /// The model version hashes the metadata records, by entity name.
    var versionHashes: [String: Data] {
        metadata[NSStoreModelVersionHashesKey] as? [String: Data] ?? [:]
    }

    /// A coordinator holding the store, opened read-only with `model`, and with persistent
    /// history when `readingHistory`.
    ///
    /// - Throws: A ``CommandFailure`` when the model does not match the store or the store
    ///   cannot be opened.
    func open(with model: NSManagedObjectModel, readingHistory: Bool = false) throws -> NSPersistentStoreCoordinator {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        let options: [AnyHashable: Any] = [NSReadOnlyPersistentStoreOption: true, NSPersistentHistoryTrackingKey: readingHistory]
        do {
            try coordinator.addPersistentStore(ofType: type, configurationName: nil, at: url, options: options)
        } catch {
            throw CommandFailure.report(error)
        }
        return coordinator
    }
}
