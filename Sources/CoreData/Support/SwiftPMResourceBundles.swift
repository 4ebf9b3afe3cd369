/// The resource bundles SwiftPM builds beside a program's executable, one per target with
/// resources, named `<Package>_<Target>.resources`: where a SwiftPM program keeps what an Xcode
/// app keeps in its main bundle.
enum SwiftPMResourceBundles {
    /// The resource bundles in the directory of a bundle's executable, by name.
    ///
    /// SwiftPM builds the targets of a package with macros for the host's tools (tests that
    /// depend on a macro target run on the host), and their bundles are then named
    /// `<Package>_<Target>-tool.resources`; a build that has both names for a target (one made
    /// before the package had macros) is searched once, through the target's own name.
    static func besideExecutable(of bundle: Bundle) -> [URL] {
        guard let directory = bundle.executableURL?.deletingLastPathComponent(),
              let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return [] }
        let bundles = Set(names.filter { $0.hasSuffix(".resources") })
        let ownBundles = bundles.filter { name in
            let target = name.dropLast(".resources".count)
            guard target.hasSuffix(toolSuffix) else { return true }
            return !bundles.contains(target.dropLast(toolSuffix.count) + ".resources")
        }
        return ownBundles.sorted().map { directory.appendingPathComponent($0) }
    }

    /// What SwiftPM appends to the name of a bundle built for the host's tools.
    private static let toolSuffix = "-tool"

    /// The names the modules owning the main executable's resource bundles may have.
    ///
    /// Since the package's and the target's names may both contain underscores, every part of a
    /// bundle's name after an underscore is a candidate (with `-` spelled `_`, as in module names).
    static func moduleNames() -> Set<String> {
        var names: Set<String> = []
        for bundle in besideExecutable(of: Bundle.main) {
            var rest = Substring(bundle.deletingPathExtension().lastPathComponent)
            if rest.hasSuffix(toolSuffix) { rest = rest.dropLast(toolSuffix.count) }
            while let underscore = rest.firstIndex(of: "_") {
                rest = rest[rest.index(after: underscore)...]
                if !rest.isEmpty { names.insert(rest.replacingOccurrences(of: "-", with: "_")) }
            }
        }
        return names
    }
}
