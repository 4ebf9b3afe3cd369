import CoreData
import Testing

/// A SQLite store of the Cinema model in a directory of its own, removed when the store is freed.
final class CinemaStore {
    let directory: URL
    var url: URL { directory.appendingPathComponent("Cinema.sqlite") }

    init() {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("CinemaStore-\(UUID().uuidString)")
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    /// A container found by name, as an app opens its model, with its store loaded.
    func openContainer() throws -> NSPersistentContainer {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let container = NSPersistentContainer(name: "Cinema")
        container.persistentStoreDescriptions = [NSPersistentStoreDescription(url: url)]
        var loadError: Error?
        container.loadPersistentStores { _, error in loadError = error }
        if let loadError { throw loadError }
        return container
    }
}
