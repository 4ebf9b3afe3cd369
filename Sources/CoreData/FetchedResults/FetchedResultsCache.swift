import Foundation

/// Where fetched results controllers keep their caches: one file per cache name in a directory
/// of the application's data directory (where containers put their stores by default).
enum FetchedResultsCache {
    static var directory: URL {
        ApplicationDataDirectory.url.appendingPathComponent(".FetchedResultsCaches", isDirectory: true)
    }

    static func file(named name: String) -> URL {
        directory.appendingPathComponent(name.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? name).appendingPathExtension("plist")
    }

    /// Deletes a cache, or all of them.
    static func delete(named name: String?) {
        let target = name.map(file(named:)) ?? directory
        try? FileManager.default.removeItem(at: target)
    }
}
