import Foundation

/// A store file in a directory of its own, removed when the value goes away.
final class TemporaryStore {
    let directory: URL
    let url: URL

    init(name: String = "default.store") {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("SwiftDataTests-\(UUID().uuidString)", isDirectory: true)
        url = directory.appendingPathComponent(name)
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }
}
