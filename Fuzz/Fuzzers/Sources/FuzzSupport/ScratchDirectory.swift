import Foundation

/// A directory of this process's own under the temporary directory, emptied before each input,
/// for the targets that read their input from files (model bundles, store files).
public struct ScratchDirectory: Sendable {
    public let url: URL

    /// A directory named after the target and the process, so that parallel fuzzing jobs do not
    /// share one.
    public init(_ name: String) {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("coredata-fuzz-\(name)-\(ProcessInfo.processInfo.processIdentifier)", isDirectory: true)
    }

    /// Removes what the previous input left and returns the empty directory.
    @discardableResult
    public func reset() throws -> URL {
        try? FileManager.default.removeItem(at: url)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
