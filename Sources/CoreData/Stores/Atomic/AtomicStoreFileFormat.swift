/// A file format of a built-in atomic store: how `AtomicFileStore` reads and writes its file.
protocol AtomicStoreFileFormat {
    /// A file read and checked, its objects not yet read for a model.
    associatedtype File

    /// Reads a store file.
    ///
    /// - Throws: `NSPersistentStoreOpenError` (134080) for data that is not such a store.
    static func file(from data: Data, url: URL) throws -> File

    /// The metadata a store file holds.
    static func metadata(of file: File) -> [String: Any]

    /// The bytes of `file` with `metadata` in place of the metadata it holds.
    static func data(of file: File, replacingMetadataWith metadata: [String: Any]) throws -> Data

    /// Everything a store file holds, read for `model`.
    ///
    /// - Throws: `NSPersistentStoreOpenError` (134080) for a damaged file or one that holds
    ///   entities the model lacks.
    static func contents(of file: File, url: URL, model: NSManagedObjectModel) throws -> AtomicStoreContents

    /// The bytes of a store file holding `contents`.
    static func data(of contents: AtomicStoreContents) throws -> Data
}
