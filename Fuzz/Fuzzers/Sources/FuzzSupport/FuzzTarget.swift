import Foundation

/// What every fuzz target shares: one function that takes an input's bytes, called by libFuzzer
/// in a fuzzing build and by a small replay program in an ordinary build.
///
/// A fuzzing build (`Fuzz/run`, which passes `-sanitize=fuzzer` and `-D FUZZING`) links
/// libFuzzer, whose `main` calls each target's `LLVMFuzzerTestOneInput`. An ordinary build has no
/// libFuzzer, so each target declares its own `main` outside `FUZZING`; it runs the same
/// function on the files its command line names, which reproduces a crash under a debugger
/// without the fuzzer and keeps `swift build` of the whole package working.
public protocol FuzzTarget {
    /// Runs one input; a crash, a trap or a sanitizer report is a finding, anything else passes.
    static func run(_ input: Data)

    /// Writes the seed inputs this target's corpus is made from into `directory`, for the ones
    /// the project's own code makes (`--make-seeds`); the others are copied by hand (see
    /// `Fuzz/README.md`).
    static func makeSeeds(in directory: URL) throws
}

extension FuzzTarget {
    public static func makeSeeds(in directory: URL) throws {}

    /// The body of `LLVMFuzzerTestOneInput`.
    public static func run(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
        run(Data(bytes: bytes, count: count))
        return 0
    }

    /// The replay program: `Target FILE-OR-DIRECTORY…` runs each file (each file of a
    /// directory, by name) and prints how many ran; `Target --make-seeds DIRECTORY` writes the
    /// target's seeds.
    public static func replay(_ arguments: [String] = Array(CommandLine.arguments.dropFirst())) throws {
        if arguments.first == "--make-seeds", arguments.count == 2 {
            let directory = URL(fileURLWithPath: arguments[1], isDirectory: true)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try makeSeeds(in: directory)
            return
        }
        var count = 0
        for file in try arguments.flatMap(inputFiles(at:)) {
            run(try Data(contentsOf: file))
            count += 1
        }
        print("\(self): ran \(count) input\(count == 1 ? "" : "s") without a crash")
    }

    private static func inputFiles(at path: String) throws -> [URL] {
        let url = URL(fileURLWithPath: path)
        guard url.hasDirectoryPath || (try? url.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true else { return [url] }
        return try FileManager.default.contentsOfDirectory(at: url, includingPropertiesForKeys: nil)
            .filter { !$0.lastPathComponent.hasPrefix(".") }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }
}
