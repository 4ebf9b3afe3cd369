import Foundation

/// A fresh directory under the system temporary directory, removed when the benchmark ends.
final class TemporaryDirectory {
    /// The directory's location.
    let url: URL

    /// Creates a uniquely named directory (`mkdtemp`) whose name starts with `prefix`.
    init(prefix: String) throws {
        let template = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix).XXXXXX").path
        var bytes = Array(template.utf8CString)
        let path = bytes.withUnsafeMutableBufferPointer { buffer in
            mkdtemp(buffer.baseAddress!).map { String(cString: $0) }
        }
        guard let path else {
            throw BenchmarkError.io("cannot create a temporary directory from \(template)")
        }
        url = URL(fileURLWithPath: path, isDirectory: true)
    }

    /// Creates a new, empty subdirectory.
    func makeSubdirectory(_ name: String) throws -> URL {
        let subdirectory = url.appendingPathComponent(name, isDirectory: true)
        try FileManager.default.createDirectory(at: subdirectory, withIntermediateDirectories: true)
        return subdirectory
    }

    /// Removes a subdirectory and everything in it.
    func remove(_ subdirectory: URL) {
        try? FileManager.default.removeItem(at: subdirectory)
    }

    /// Removes the directory and everything in it.
    func removeAll() {
        try? FileManager.default.removeItem(at: url)
    }
}
