import Foundation

/// The on-disk cache of a fetched results controller: the section names and sizes of its last
/// fetch, reused while the request and the store files are unchanged, so that the next launch
/// skips counting the sections.
///
/// One JSON file per cache name in a directory of the application's data directory (where
/// containers put their stores by default).
struct FetchedResultsCache: Codable, Equatable {
    /// What the cached sections depend on: the request and the store files.
    struct Signature: Codable, Equatable {
        let entityName: String
        let entityVersionHash: Data
        let sortDescriptors: [String]
        let predicate: String?
        let includesSubentities: Bool
        let sectionNameKeyPath: String?
        /// Each store file's (and WAL file's) path, size and modification time.
        let files: [String]
    }

    struct Section: Codable, Equatable {
        let name: String
        let count: Int
    }

    let signature: Signature
    let sections: [Section]

    static var directory: URL {
        ApplicationDataDirectory.url.appendingPathComponent(".FetchedResultsCaches", isDirectory: true)
    }

    static func file(named name: String) -> URL {
        directory.appendingPathComponent(name.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? name).appendingPathExtension("json")
    }

    /// The cache of a name, when it exists and is readable.
    static func load(named name: String) -> FetchedResultsCache? {
        guard let data = try? Data(contentsOf: file(named: name)) else { return nil }
        return try? JSONDecoder().decode(FetchedResultsCache.self, from: data)
    }

    /// Writes the cache; a cache that cannot be written is simply not kept.
    func save(named name: String) {
        guard let data = try? JSONEncoder().encode(self) else { return }
        try? FileManager.default.createDirectory(at: Self.directory, withIntermediateDirectories: true)
        try? data.write(to: Self.file(named: name), options: .atomic)
    }

    /// Deletes a cache, or all of them.
    static func delete(named name: String?) {
        let target = name.map(file(named:)) ?? directory
        try? FileManager.default.removeItem(at: target)
    }

    /// The signature of a request's results in the stores of a coordinator; nil when a store
    /// has no file (an in-memory store), whose data cannot be known unchanged.
    static func signature(of request: NSFetchRequest<NSManagedObject>, entity: NSEntityDescription, sectionNameKeyPath: String?,
                          stores: [NSPersistentStore]) -> Signature? {
        var files: [String] = []
        for store in stores {
            guard let url = store.url, store.type != NSInMemoryStoreType else { return nil }
            for path in [url.path, url.path + "-wal"] {
                let attributes = try? FileManager.default.attributesOfItem(atPath: path)
                let size = (attributes?[.size] as? NSNumber)?.int64Value ?? -1
                let modified = (attributes?[.modificationDate] as? Date)?.timeIntervalSinceReferenceDate ?? 0
                files.append("\(path) \(size) \(modified)")
            }
        }
        return Signature(
            entityName: entity.name ?? "", entityVersionHash: entity.versionHash,
            sortDescriptors: (request.sortDescriptors ?? []).map(\.description), predicate: request.predicate?.predicateFormat,
            includesSubentities: request.includesSubentities, sectionNameKeyPath: sectionNameKeyPath, files: files
        )
    }
}
