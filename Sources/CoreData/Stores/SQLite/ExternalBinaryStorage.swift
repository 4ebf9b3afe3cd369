/// Large values of attributes that allow external binary data storage, kept in files beside the
/// store: `<store directory>/.<store name>_SUPPORT/_EXTERNAL_DATA/<UUID>`.
///
/// Column encoding, as in stores Apple wrote (`spec/store-format.md` §2.5): a BLOB whose first
/// byte is `0x01` holds the value inline in the remaining bytes; a first byte of `0x02` is
/// followed by the ASCII UUID naming the file that holds the value and a `0x00` byte (read with or
/// without it). Values of at least `threshold` bytes (the project's choice) go to files, written
/// atomically, loaded only when read, and removed once the save that replaced or deleted them has
/// committed.
final class ExternalBinaryStorage: Sendable {
    /// Values of this many bytes or more are stored in files (128 KiB).
    static let threshold = 128 * 1024

    private static let inlineMarker: UInt8 = 0x01
    private static let externalMarker: UInt8 = 0x02

    let directory: URL

    init(storeURL: URL) {
        directory = Self.supportDirectory(for: storeURL).appendingPathComponent("_EXTERNAL_DATA", isDirectory: true)
    }

    /// The support folder that holds `_EXTERNAL_DATA` for a store.
    static func supportDirectory(for storeURL: URL) -> URL {
        let name = storeURL.deletingPathExtension().lastPathComponent
        return storeURL.deletingLastPathComponent().appendingPathComponent(".\(name)_SUPPORT", isDirectory: true)
    }

    /// The column value that holds data inline.
    static func inlineColumn(_ data: Data) -> Data {
        Data([inlineMarker]) + data
    }

    /// The column value for data: inline, or a reference to a newly written file (returned in
    /// `writtenFile` so a failed save can remove it).
    func encode(_ data: Data) throws -> (column: Data, writtenFile: URL?) {
        guard data.count >= Self.threshold else {
            return (Self.inlineColumn(data), nil)
        }
        let name = UUID().uuidString
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent(name)
        try data.write(to: file, options: .atomic)
        return (Data([Self.externalMarker]) + Data(name.utf8) + Data([0]), file)
    }

    /// The value a column holds: data, a lazy reference to a file, or the raw bytes when the
    /// column was not written with this encoding.
    func decode(_ column: Data) -> Any {
        guard let marker = column.first else { return column }
        switch marker {
        case Self.inlineMarker:
            return column.dropFirst()
        case Self.externalMarker:
            guard let name = Self.fileName(in: column) else { return column }
            return ExternalDataReference(url: directory.appendingPathComponent(name))
        default:
            return column
        }
    }

    /// The file a column refers to, if any.
    func referencedFile(_ column: Data?) -> URL? {
        guard let column, column.first == Self.externalMarker, let name = Self.fileName(in: column) else { return nil }
        return directory.appendingPathComponent(name)
    }

    /// The UUID after the external marker, without the `0x00` that ends it.
    private static func fileName(in column: Data) -> String? {
        var bytes = column.dropFirst()
        if bytes.last == 0 { bytes = bytes.dropLast() }
        guard let name = String(data: bytes, encoding: .ascii), UUID(uuidString: name) != nil else { return nil }
        return name
    }

    /// Removes files that no row refers to any more.
    func remove(_ files: [URL]) {
        for file in files {
            try? FileManager.default.removeItem(at: file)
        }
    }
}

/// An external binary value not read yet; reading the attribute loads the file.
final class ExternalDataReference: LazyAttributeValue {
    let url: URL

    init(url: URL) {
        self.url = url
    }

    func load() -> Any? {
        try? Data(contentsOf: url)
    }
}
