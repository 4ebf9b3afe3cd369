/// Large values of attributes that allow external binary data storage, kept in files beside the
/// store: `<store directory>/.<store name>_SUPPORT/_EXTERNAL_DATA/<UUID>`.
///
/// Column encoding, as in stores Apple wrote (`spec/store-format.md` §2.5): a BLOB whose first
/// byte is `0x01` holds the value inline in the remaining bytes; a first byte of `0x02` is
/// followed by the ASCII UUID naming the file that holds the value and a `0x00` byte (read with or
/// without it). Values of at least `threshold` bytes (the project's choice) go to files, written
/// inside the save's write transaction under a temporary name and then renamed, loaded only when
/// read, and removed once the save that replaced or deleted them has committed. What a process
/// that stopped mid-save left behind is removed when the store is next opened
/// (`SQLiteStore.collectUnreferencedExternalFiles`).
final class ExternalBinaryStorage: ExternalDataReading, Sendable {
    /// Values of this many bytes or more are stored in files (128 KiB).
    static let threshold = 128 * 1024

    private static let inlineMarker: UInt8 = 0x01
    private static let externalMarker: UInt8 = 0x02
    /// Ends the name of a file being written: `<UUID>.partial` until it is complete.
    private static let partialSuffix = ".partial"
    /// Begins the names of the temporary files of Foundation's atomic writes, which this project
    /// used for external data before November 2026.
    private static let atomicWritePrefix = ".dat.nosync"

    let directory: URL

    init(storeURL: URL) {
        directory = Self.supportDirectory(for: storeURL).appendingPathComponent("_EXTERNAL_DATA", isDirectory: true)
    }

    /// The support folder that holds `_EXTERNAL_DATA` for a store.
    static func supportDirectory(for storeURL: URL) -> URL {
        let name = storeURL.deletingPathExtension().lastPathComponent
        return storeURL.deletingLastPathComponent().appendingPathComponent(".\(name)_SUPPORT", isDirectory: true)
    }

    /// Whether another file beside a store would keep its external data in the same support
    /// folder, as `Docs.sqlite` and `Docs.db` both use `.Docs_SUPPORT`; the store's own log and
    /// journal files do not count.
    static func sharesSupportDirectory(_ storeURL: URL) -> Bool {
        let store = storeURL.lastPathComponent
        let name = storeURL.deletingPathExtension().lastPathComponent
        let siblings = (try? FileManager.default.contentsOfDirectory(atPath: storeURL.deletingLastPathComponent().path)) ?? []
        return siblings.contains { file in
            file != store && !file.hasPrefix(store + "-") && !file.hasPrefix(".")
                && URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent == name
        }
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
        let partial = directory.appendingPathComponent(name + Self.partialSuffix)
        do {
            try data.write(to: partial)
            try FileManager.default.moveItem(at: partial, to: file)
        } catch {
            // A full disk leaves part of the value written.
            try? FileManager.default.removeItem(at: partial)
            throw error
        }
        return (Data([Self.externalMarker]) + Data(name.utf8) + Data([0]), file)
    }

    /// The byte counts of a column that refers to a file: the marker and the UUID, with or
    /// without the `0x00` after it.
    static let referenceLengths = [37, 38]

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
        Self.referencedName(column).map(directory.appendingPathComponent)
    }

    /// The name of the file a column refers to, if any.
    static func referencedName(_ column: Data?) -> String? {
        guard let column, column.first == externalMarker else { return nil }
        return fileName(in: column)
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

    /// Whether the folder holds anything.
    var hasFiles: Bool {
        !((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).isEmpty
    }

    /// Removes the value files whose names are not in `referenced`, and the files of writes that
    /// never finished; other files are left alone. Only safe while no save can be writing files:
    /// the caller holds the store's write lock.
    func removeFiles(notIn referenced: Set<String>) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        remove(names.filter { !referenced.contains($0) && Self.isCollectable($0) }.map(directory.appendingPathComponent))
    }

    /// Whether a name is a value file's (a UUID), or a file of a write that never finished.
    private static func isCollectable(_ name: String) -> Bool {
        let stem = name.hasSuffix(partialSuffix) ? String(name.dropLast(partialSuffix.count)) : name
        return UUID(uuidString: stem) != nil || name.hasPrefix(atomicWritePrefix)
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
