/// The resource bundles SwiftPM builds beside a program's executable, one per target with
/// resources, named `<Package>_<Target>.resources`: where a SwiftPM program keeps what an Xcode
/// app keeps in its main bundle.
enum SwiftPMResourceBundles {
    /// The resource bundles in the directory of a bundle's executable, by name.
    ///
    /// A package with macros has SwiftPM build some targets twice, once for the host's tools,
    /// whose bundle (`<Package>_<Target>-tool.resources`) holds the same resources: it is left out
    /// when the target's own bundle is there.
    static func besideExecutable(of bundle: Bundle) -> [URL] {
        guard let directory = bundle.executableURL?.deletingLastPathComponent(),
              let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return [] }
        let bundles = Set(names.filter { $0.hasSuffix(".resources") })
        let toolSuffix = "-tool.resources"
        let ownBundles = bundles.filter { name in
            !name.hasSuffix(toolSuffix) || !bundles.contains(name.dropLast(toolSuffix.count) + ".resources")
        }
        return ownBundles.sorted().map { directory.appendingPathComponent($0) }
    }

    /// The names the modules owning the main executable's resource bundles may have.
    ///
    /// Since the package's and the target's names may both contain underscores, every part of a
    /// bundle's name after an underscore is a candidate (with `-` spelled `_`, as in module names).
    static func moduleNames() -> Set<String> {
        var names: Set<String> = []
        for bundle in besideExecutable(of: Bundle.main) {
            var rest = Substring(bundle.deletingPathExtension().lastPathComponent)
            while let underscore = rest.firstIndex(of: "_") {
                rest = rest[rest.index(after: underscore)...]
                if !rest.isEmpty { names.insert(rest.replacingOccurrences(of: "-", with: "_")) }
            }
        }
        return names
    }
}
