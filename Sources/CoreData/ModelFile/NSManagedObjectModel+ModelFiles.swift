// Models read from Xcode's model files, and the models a program's bundles ship.
extension NSManagedObjectModel {
    /// Creates a model from a model file.
    ///
    /// The URL names an `.xcdatamodeld` bundle (whose current version is read), an
    /// `.xcdatamodel` directory, or a compiled `.momd` or `.mom`, for which the source of the
    /// same name beside it is read: Linux has no model compiler, so programs ship the sources.
    ///
    /// - Parameter url: The model's location.
    /// - Returns: nil when there is no model there or it cannot be read;
    ///   `init(validatingContentsOf:)` says why.
    public convenience init?(contentsOf url: URL) {
        self.init()
        do {
            try ModelBundle.read(currentVersionOf: ModelLocator.sourceURL(for: url), into: self)
        } catch {
            return nil
        }
    }

    /// Creates a model from a model file, throwing when it cannot be read.
    ///
    /// This initializer is not part of Apple's API. It reads what `init?(contentsOf:)` reads.
    ///
    /// - Parameter url: The model's location.
    /// - Throws: An `NSError` in `NSCocoaErrorDomain` whose description names the file, the line
    ///   and the element that is wrong: `NSFileReadNoSuchFileError` (260) when there is no model,
    ///   `NSFileReadCorruptFileError` (259) when it is malformed, refers to something it does not
    ///   declare, or was saved by an Xcode older than 4.0.
    public convenience init(validatingContentsOf url: URL) throws {
        self.init()
        do {
            try ModelBundle.read(currentVersionOf: ModelLocator.sourceURL(for: url), into: self)
        } catch let error as ModelFileError {
            throw error.nsError
        }
    }

    /// Every version of the model in a model file, by version name, in the order of their names;
    /// a lone `.xcdatamodel` is its only version. For tools that look at a model's history
    /// (`coredata model`, `coredata migrate`).
    ///
    /// - Throws: What `init(validatingContentsOf:)` throws for a file that cannot be read.
    package static func versions(inModelAt url: URL) throws -> [(name: String, model: NSManagedObjectModel)] {
        do {
            let bundle = try ModelBundle(url: ModelLocator.sourceURL(for: url))
            return try zip(bundle.versionURLs, bundle.allModels()).map { ($0.deletingPathExtension().lastPathComponent, $1) }
        } catch let error as ModelFileError {
            throw error.nsError
        }
    }

    /// A model merging every model found in the bundles.
    ///
    /// Each bundle's resources are searched for `.xcdatamodeld` bundles (their current version)
    /// and `.xcdatamodel` directories; the main bundle's search includes the SwiftPM resource
    /// bundles beside the executable.
    ///
    /// - Parameter bundles: The bundles to search; nil searches the main bundle.
    /// - Returns: nil when no model is found, one cannot be read, or two declare an entity of
    ///   the same name.
    public class func mergedModel(from bundles: [Bundle]?) -> NSManagedObjectModel? {
        let urls = ModelLocator.modelURLs(in: ModelLocator.searchDirectories(for: bundles))
        guard !urls.isEmpty, let models = try? urls.map({ try ModelBundle(url: $0).currentModel() }) else { return nil }
        return models.count == 1 ? models[0] : NSManagedObjectModel(byMerging: models)
    }

    /// The model, among every version of every model in the bundles, that a store with the
    /// metadata was created with.
    ///
    /// - Parameters:
    ///   - bundles: The bundles to search; nil searches the main bundle.
    ///   - metadata: The store's metadata, with its `NSStoreModelVersionHashes`.
    /// - Returns: nil when no version matches.
    public class func mergedModel(from bundles: [Bundle]?, forStoreMetadata metadata: [String: Any]) -> NSManagedObjectModel? {
        mergedModel(from: bundles, forStoreMetadata: metadata, configuration: nil)
    }

    /// The version that matches a store's configuration, or else the merge of one version of each
    /// model whose entities all appear, with the same hashes, in the store's metadata.
    static func mergedModel(from bundles: [Bundle]?, forStoreMetadata metadata: [String: Any], configuration: String?) -> NSManagedObjectModel? {
        let urls = ModelLocator.modelURLs(in: ModelLocator.searchDirectories(for: bundles))
        let versionsByModel = urls.map { url in (try? ModelBundle(url: url).allModels()) ?? [] }
        let matching = versionsByModel.joined().first { version in
            let name = configuration.flatMap { version.configurations.contains($0) ? $0 : nil }
            return version.isConfiguration(withName: name, compatibleWithStoreMetadata: metadata)
        }
        if let matching { return matching }
        guard let stored = metadata[NSStoreModelVersionHashesKey] as? [String: Any] else { return nil }
        let parts = versionsByModel.compactMap { versions in
            versions.first { version in
                version.entityVersionHashesByName.allSatisfy { name, hash in Self.hash(stored[name]) == hash }
            }
        }
        guard parts.count > 1, let merged = NSManagedObjectModel(byMerging: parts),
              merged.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata) else { return nil }
        return merged
    }
}

// Writing models as model files.
extension NSManagedObjectModel {
    /// Writes the model as Xcode's model editor saves one, so that Xcode, and
    /// `init(contentsOf:)`, can open it.
    ///
    /// This method is not part of Apple's API. An `.xcdatamodel` URL gets a version directory
    /// with its `contents` file; an `.xcdatamodeld` URL gets a bundle holding one version of the
    /// same name and the `.xccurrentversion` that names it. Existing files are replaced.
    ///
    /// - Parameter url: Where to write the model.
    /// - Throws: An `NSError` in `NSCocoaErrorDomain` when the model holds something a model
    ///   file cannot state (a validation predicate Xcode's editor cannot set, a sort descriptor
    ///   in a fetch request template, an expression property) or the files cannot be written.
    public func write(toModelFileAt url: URL) throws {
        do {
            let contents = try ModelFileWriter.contents(of: self)
            let version: URL
            switch url.pathExtension {
            case "xcdatamodel":
                version = url
            case "xcdatamodeld":
                let name = url.deletingPathExtension().lastPathComponent + ".xcdatamodel"
                version = url.appendingPathComponent(name)
                try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
                let current = try PropertyListSerialization.data(fromPropertyList: ["_XCCurrentVersionName": name], format: .xml, options: 0)
                try current.write(to: url.appendingPathComponent(".xccurrentversion"))
            default:
                var error = ModelFileError("a model file is an .xcdatamodel directory or an .xcdatamodeld bundle")
                error.code = CocoaError.fileWriteUnknown.rawValue
                error.file = url
                throw error
            }
            try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
            try Data(contents.utf8).write(to: version.appendingPathComponent("contents"))
        } catch let error as ModelFileError {
            throw error.inFile(url).nsError
        }
    }
}
