import CoreData

/// Model files named on the command line or found near a store.
enum ModelFileArgument {
    /// The current version of the model at `path`.
    ///
    /// - Throws: A ``CommandFailure`` saying why the model cannot be read.
    static func currentModel(at path: String) throws -> NSManagedObjectModel {
        do {
            return try NSManagedObjectModel(validatingContentsOf: URL(fileURLWithPath: path))
        } catch {
            throw CommandFailure.report(error)
        }
    }

    /// Every version of the model at `path`, by version name.
    ///
    /// - Throws: A ``CommandFailure`` saying why the model cannot be read.
    static func versions(at path: String) throws -> [(name: String, model: NSManagedObjectModel)] {
        do {
            return try NSManagedObjectModel.versions(inModelAt: URL(fileURLWithPath: path))
        } catch {
            throw CommandFailure.report(error)
        }
    }

    /// The version of the model at `path` that matches a store.
    ///
    /// - Throws: A ``CommandFailure`` when the model cannot be read or no version matches.
    static func version(at path: String, matching store: NamedStore) throws -> NSManagedObjectModel {
        guard let match = try versions(at: path).first(where: { $0.model.isConfiguration(withName: nil, compatibleWithStoreMetadata: store.metadata) }) else {
            throw CommandFailure.report("No version of \(path) matches the store \(store.name) (error \(NSPersistentStoreIncompatibleVersionHashError)).")
        }
        return match.model
    }

    /// The first version of a model file in the store file's directory or the current one, or
    /// below them (three levels down, past hidden and build directories), that matches the store.
    static func version(matching store: NamedStore) -> (file: URL, version: String, model: NSManagedObjectModel)? {
        let directories = [store.directory, URL(fileURLWithPath: FileManager.default.currentDirectoryPath)].compactMap { $0 }
        for file in modelFiles(in: directories) {
            for version in (try? NSManagedObjectModel.versions(inModelAt: file)) ?? []
            where version.model.isConfiguration(withName: nil, compatibleWithStoreMetadata: store.metadata) {
                return (file, version.name, version.model)
            }
        }
        return nil
    }

    private static func modelFiles(in directories: [URL]) -> [URL] {
        var seen = Set<String>()
        var files: [URL] = []
        for directory in directories where seen.insert(directory.standardizedFileURL.path).inserted {
            guard let enumerator = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil) else { continue }
            for case let url as URL in enumerator {
                let name = url.lastPathComponent
                if name.hasPrefix(".") || enumerator.level > 3 {
                    enumerator.skipDescendants()
                } else if url.pathExtension == "xcdatamodeld" || url.pathExtension == "xcdatamodel" {
                    files.append(url)
                    enumerator.skipDescendants()
                }
            }
        }
        return files.sorted { $0.path < $1.path }
    }
}
