import Foundation

/// The directory for the program's data files on Linux: `$XDG_DATA_HOME`, or `~/.local/share`.
enum ApplicationDataDirectory {
    static var url: URL {
        if let data = ProcessInfo.processInfo.environment["XDG_DATA_HOME"], !data.isEmpty {
            return URL(fileURLWithPath: data, isDirectory: true)
        }
        return FileManager.default.homeDirectoryForCurrentUser
            .appendingPathComponent(".local", isDirectory: true)
            .appendingPathComponent("share", isDirectory: true)
    }
}
