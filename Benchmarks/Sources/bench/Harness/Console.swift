import Foundation

/// Unbuffered output, so that every finished workload's report survives a later crash.
enum Console {
    /// Writes one line to standard output.
    static func line(_ text: String = "") {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    /// Writes one line to standard error.
    static func error(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}
