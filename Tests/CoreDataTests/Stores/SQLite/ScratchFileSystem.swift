@testable import CoreData
import Glibc
import Testing

/// A small tmpfs mounted on a fresh directory, for tests of a full disk and a read-only volume.
///
/// Mounting needs root (CI runs as root); the tests that need it are skipped with a message
/// elsewhere (`canMount`). `unmount()` detaches it even while a file in it is open, and removes
/// the directory.
final class ScratchFileSystem {
    let url: URL
    private var filler: URL { url.appendingPathComponent("filler") }

    /// Whether this process can mount a tmpfs.
    static let canMount: Bool = {
        guard let probe = try? ScratchFileSystem(kibibytes: 64) else { return false }
        probe.unmount()
        return true
    }()

    /// Why tests of a full disk or a read-only volume are skipped when mounting is not possible.
    static let skipReason: Comment = "mounting a tmpfs needs root (as in CI): run the tests as root to test a full disk and a read-only volume"

    struct MountError: Error {
        let errno: Int32
    }

    init(kibibytes: Int) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("cd-tmpfs-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        guard mount("tmpfs", url.path, "tmpfs", 0, "size=\(kibibytes)k,mode=0755") == 0 else {
            let failure = errno
            try? FileManager.default.removeItem(at: url)
            throw MountError(errno: failure)
        }
    }

    func file(_ name: String) -> URL {
        url.appendingPathComponent(name)
    }

    /// Fills the file system with a file until no byte is left.
    func fill() throws {
        _ = FileManager.default.createFile(atPath: filler.path, contents: nil)
        let handle = try FileHandle(forWritingTo: filler)
        defer { try? handle.close() }
        let chunk = Data(count: 4096)
        while (try? handle.write(contentsOf: chunk)) != nil {}
        // The last chunk may have been written in part.
        while (try? handle.write(contentsOf: Data(count: 1))) != nil {}
    }

    /// Removes the file `fill()` wrote.
    func free() throws {
        try FileManager.default.removeItem(at: filler)
    }

    /// Makes the file system read-only; every file in it must be closed.
    func remountReadOnly() throws {
        guard mount("tmpfs", url.path, "tmpfs", UInt(MS_REMOUNT | MS_RDONLY), nil) == 0 else {
            throw MountError(errno: errno)
        }
    }

    func unmount() {
        umount2(url.path, Int32(MNT_DETACH))
        try? FileManager.default.removeItem(at: url)
    }
}
