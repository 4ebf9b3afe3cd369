@testable import CoreData
import Glibc

/// File access with an ordinary user's permissions, so that tests of a directory that cannot be
/// written work when they run as root (as in CI), which ignores file permissions.
///
/// As root, `run` makes the calling thread's file-system user `nobody` while its body runs
/// (Linux's `setfsuid`, which changes the calling thread only and drops root's permission
/// overrides with it); the body must stay on that thread. Others run the body as they are.
enum UnprivilegedFileAccess {
    private static let nobody: uid_t = 65534
    private static var isRoot: Bool { geteuid() == 0 }

    /// Makes a file belong to the user `run` runs as, so that only its directory refuses.
    static func giveToRunningUser(_ url: URL) throws {
        guard isRoot else { return }
        try FileManager.default.setAttributes([.ownerAccountID: NSNumber(value: nobody)], ofItemAtPath: url.path)
    }

    static func run<Result>(_ body: () throws -> Result) rethrows -> Result {
        guard isRoot else { return try body() }
        // glibc declares setfsuid in a header Swift's Glibc module does not import.
        typealias SetFileSystemUser = @convention(c) (uid_t) -> Int32
        guard let symbol = dlsym(nil, "setfsuid") else { return try body() }
        let setFileSystemUser = unsafeBitCast(symbol, to: SetFileSystemUser.self)
        _ = setFileSystemUser(nobody)
        defer { _ = setFileSystemUser(0) }
        return try body()
    }
}
