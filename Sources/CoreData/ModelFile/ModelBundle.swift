/// A model on disk as Xcode keeps it: an `.xcdatamodeld` bundle holding one `.xcdatamodel`
/// directory per version and a `.xccurrentversion` naming the current one, or a lone
/// `.xcdatamodel` directory. Each version's XML is its directory's `contents` file.
struct ModelBundle {
    /// The `.xcdatamodeld` or `.xcdatamodel` directory.
    let url: URL
    /// The version directories, sorted by name.
    let versionURLs: [URL]
    /// The directory of the current version.
    let currentVersionURL: URL

    /// The bundle or version directory at a URL.
    ///
    /// - Throws: `ModelFileError` when the URL is neither, is missing, or has no current version.
    init(url: URL) throws {
        self.url = url
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw ModelFileError.missing(url, "no model exists at this path")
        }
        switch url.pathExtension {
        case "xcdatamodel":
            versionURLs = [url]
            currentVersionURL = url
        case "xcdatamodeld":
            let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
            versionURLs = names.filter { $0.hasSuffix(".xcdatamodel") }.sorted().map { url.appendingPathComponent($0) }
            currentVersionURL = try Self.currentVersion(of: url, among: versionURLs)
        default:
            var error = ModelFileError("a model is an .xcdatamodeld bundle or an .xcdatamodel directory")
            error.file = url
            throw error
        }
    }

    /// The version `.xccurrentversion` names, or the only version when there is no such file.
    private static func currentVersion(of url: URL, among versions: [URL]) throws -> URL {
        let file = url.appendingPathComponent(".xccurrentversion")
        guard let data = FileManager.default.contents(atPath: file.path) else {
            guard versions.count == 1 else {
                var error = ModelFileError(versions.isEmpty ? "the bundle holds no .xcdatamodel version" : "the bundle has \(versions.count) versions and no .xccurrentversion naming the current one")
                error.file = url
                throw error
            }
            return versions[0]
        }
        let plist = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any]
        guard let name = plist?["_XCCurrentVersionName"] as? String, !name.isEmpty else {
            var error = ModelFileError("the file is not a property list naming the current version in _XCCurrentVersionName")
            error.file = file
            throw error
        }
        guard let current = versions.first(where: { $0.lastPathComponent == name }) else {
            var error = ModelFileError("the current version \"\(name)\" is not in the bundle")
            error.file = file
            throw error
        }
        return current
    }

    /// Fills an empty model with the current version of the model at a URL.
    static func read(currentVersionOf url: URL, into model: NSManagedObjectModel) throws {
        try read(versionAt: ModelBundle(url: url).currentVersionURL, into: model)
    }

    /// The model of the current version.
    func currentModel() throws -> NSManagedObjectModel {
        try Self.model(versionAt: currentVersionURL)
    }

    /// The models of every version, in the order of `versionURLs`.
    func allModels() throws -> [NSManagedObjectModel] {
        try versionURLs.map(Self.model(versionAt:))
    }

    /// A new model read from an `.xcdatamodel` directory.
    private static func model(versionAt url: URL) throws -> NSManagedObjectModel {
        let model = NSManagedObjectModel()
        try read(versionAt: url, into: model)
        return model
    }

    /// Fills an empty model with the model of an `.xcdatamodel` directory.
    static func read(versionAt url: URL, into model: NSManagedObjectModel) throws {
        let contents = url.appendingPathComponent("contents")
        guard FileManager.default.fileExists(atPath: contents.path) else {
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("elements").path) {
                var error = ModelFileError("the model was saved by an Xcode older than 4.0 (binary 'elements' and 'layout' files); only Xcode 4.0+ model files are supported: open it in a current Xcode and save it")
                error.file = url
                throw error
            }
            throw ModelFileError.missing(contents, "the model version has no 'contents' file")
        }
        try ModelFileReader.read(contentsOf: contents, into: model)
        model.versionDirectoryURL = url
    }

    /// The other versions of the `.xcdatamodeld` bundle a model was read from; none for a model
    /// built in code or read from a lone `.xcdatamodel`.
    static func siblingVersions(of model: NSManagedObjectModel) -> [NSManagedObjectModel] {
        guard let version = model.versionDirectoryURL, version.deletingLastPathComponent().pathExtension == "xcdatamodeld",
              let bundle = try? ModelBundle(url: version.deletingLastPathComponent()) else { return [] }
        return bundle.versionURLs.filter { $0.standardizedFileURL != version.standardizedFileURL }.compactMap { try? Self.model(versionAt: $0) }
    }
}
