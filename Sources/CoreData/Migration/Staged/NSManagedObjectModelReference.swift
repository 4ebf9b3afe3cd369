/// A specific version of a model, for the stages of a staged migration: a model in hand, a model
/// file, a model found by name, or the version whose entity hashes are given, always with the
/// version's checksum (`NSManagedObjectModel.versionChecksum`).
open class NSManagedObjectModelReference: NSObject {
    private enum Source {
        case model(NSManagedObjectModel)
        case file(URL)
        case name(String, Bundle?)
        case entityHashes([String: Data], Bundle?)
    }

    private let source: Source

    /// The checksum of the referenced version.
    public let versionChecksum: String

    private var resolution: Result<NSManagedObjectModel, NSError>?

    /// A reference to a model in hand.
    public init(model: NSManagedObjectModel, versionChecksum: String) {
        source = .model(model)
        self.versionChecksum = versionChecksum
        super.init()
    }

    /// A reference to a model file (`.xcdatamodeld`, `.xcdatamodel`, or a compiled `.momd` or
    /// `.mom` with its source beside it); in a `.xcdatamodeld`, the version with the checksum.
    public init(fileURL: URL, versionChecksum: String) {
        source = .file(fileURL)
        self.versionChecksum = versionChecksum
        super.init()
    }

    /// A reference to the model named `modelName` in a bundle (nil for the main bundle); in a
    /// `.xcdatamodeld`, the version with the checksum.
    public init(name modelName: String, in bundle: Bundle?, versionChecksum: String) {
        source = .name(modelName, bundle)
        self.versionChecksum = versionChecksum
        super.init()
    }

    /// A reference to the model version, among the versions of the models in a bundle (nil for
    /// the main bundle), whose entities have exactly the version hashes given by entity name.
    public init(entityVersionHashes versionHash: [AnyHashable: Any], in bundle: Bundle?, versionChecksum: String) {
        let hashes = versionHash.compactMap { key, value in
            (key as? String).flatMap { name in NSManagedObjectModel.hash(value).map { (name, $0) } }
        }
        source = .entityHashes(Dictionary(hashes, uniquingKeysWith: { first, _ in first }), bundle)
        self.versionChecksum = versionChecksum
        super.init()
    }

    /// The referenced model; an empty model when the reference cannot be resolved, which a
    /// staged migration reports as `NSManagedObjectModelReferenceNotFoundError` (134504).
    open var resolvedModel: NSManagedObjectModel {
        (try? resolve()) ?? NSManagedObjectModel()
    }

    /// The referenced model, whose checksum must be the reference's.
    ///
    /// - Throws: `NSManagedObjectModelReferenceNotFoundError` (134504) when no model is found or
    ///   the one found has another checksum.
    func resolve() throws -> NSManagedObjectModel {
        if let resolution { return try resolution.get() }
        let result = Result { try find() }.mapError { $0 as NSError }
        resolution = result
        return try result.get()
    }

    private func find() throws -> NSManagedObjectModel {
        let model: NSManagedObjectModel?
        switch source {
        case .model(let given):
            model = given
        case .file(let url):
            model = version(in: [ModelLocator.sourceURL(for: url)])
        case .name(let name, let bundle):
            model = ModelLocator.modelURL(named: name, in: ModelLocator.searchDirectories(for: bundle.map { [$0] })).flatMap { version(in: [$0]) }
        case .entityHashes(let hashes, let bundle):
            model = versions(in: ModelLocator.modelURLs(in: ModelLocator.searchDirectories(for: bundle.map { [$0] })))
                .first { $0.entityVersionHashesByName == hashes }
        }
        guard let model else {
            throw CoreDataError.make(NSManagedObjectModelReferenceNotFoundError, "The model reference \(self) cannot be resolved: no such model was found.")
        }
        guard model.versionChecksum == versionChecksum else {
            throw CoreDataError.make(
                NSManagedObjectModelReferenceNotFoundError,
                "The model reference \(self) cannot be resolved: the model found has the checksum \(model.versionChecksum).",
                userInfo: ["versionChecksum": model.versionChecksum]
            )
        }
        return model
    }

    /// The version with the reference's checksum among the versions of the model files, or
    /// else the current version of the first.
    private func version(in urls: [URL]) -> NSManagedObjectModel? {
        versions(in: urls).first { $0.versionChecksum == versionChecksum } ?? urls.first.flatMap { try? ModelBundle(url: $0).currentModel() }
    }

    private func versions(in urls: [URL]) -> [NSManagedObjectModel] {
        urls.flatMap { (try? ModelBundle(url: $0).allModels()) ?? [] }
    }

    open override var description: String {
        let target = switch source {
        case .model: "a model"
        case .file(let url): url.path
        case .name(let name, _): "the model named \(name)"
        case .entityHashes(let hashes, _): "the model of entities \(hashes.keys.sorted())"
        }
        return "<NSManagedObjectModelReference: \(target), versionChecksum \(versionChecksum)>"
    }
}
