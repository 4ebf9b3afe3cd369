/// Finds the model files a program ships, where an Xcode app would find its compiled models:
/// at the top of each bundle's resources and, for the main bundle, in every SwiftPM resource
/// bundle (`<Package>_<Target>.resources`) beside the executable.
enum ModelLocator {
    /// The directories searched for the bundles; nil means the main bundle.
    static func searchDirectories(for bundles: [Bundle]?) -> [URL] {
        var directories: [URL] = []
        for bundle in bundles ?? [Bundle.main] {
            directories.append(bundle.resourceURL ?? bundle.bundleURL)
            if bundle == Bundle.main { directories += resourceBundles(besideExecutableOf: bundle) }
        }
        var seen = Set<String>()
        return directories.filter { seen.insert($0.standardizedFileURL.path).inserted }
    }

    /// The names the module owning each SwiftPM resource bundle beside the executable may have.
    ///
    /// A bundle is named `<Package>_<Target>.resources`; since either name may contain
    /// underscores, every part after an underscore is a candidate.
    static func resourceBundleModuleNames() -> Set<String> {
        var names: Set<String> = []
        for bundle in resourceBundles(besideExecutableOf: Bundle.main) {
            let name = bundle.deletingPathExtension().lastPathComponent
            var rest = Substring(name)
            while let underscore = rest.firstIndex(of: "_") {
                rest = rest[rest.index(after: underscore)...]
                if !rest.isEmpty { names.insert(String(rest).replacingOccurrences(of: "-", with: "_")) }
            }
        }
        return names
    }

    /// SwiftPM's resource bundles in the directory of a bundle's executable.
    private static func resourceBundles(besideExecutableOf bundle: Bundle) -> [URL] {
        guard let directory = bundle.executableURL?.deletingLastPathComponent(),
              let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return [] }
        return names.filter { $0.hasSuffix(".resources") }.sorted().map { directory.appendingPathComponent($0) }
    }

    /// The models (`.xcdatamodeld` bundles, then lone `.xcdatamodel` directories) directly
    /// inside the directories.
    static func modelURLs(in directories: [URL]) -> [URL] {
        directories.flatMap { directory -> [URL] in
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
            return (names.filter { $0.hasSuffix(".xcdatamodeld") } + names.filter { $0.hasSuffix(".xcdatamodel") })
                .map { directory.appendingPathComponent($0) }
        }
    }

    /// The model named `name` (`<name>.xcdatamodeld` or `<name>.xcdatamodel`) in the directories.
    static func modelURL(named name: String, in directories: [URL]) -> URL? {
        modelURLs(in: directories).first { $0.deletingPathExtension().lastPathComponent == name }
    }

    /// The model file a URL stands for: the URL itself for Xcode's formats; for a compiled
    /// `.momd` or `.mom` (which Linux cannot read), the source of the same name beside it.
    static func sourceURL(for url: URL) -> URL {
        let name = url.deletingPathExtension().lastPathComponent
        let directory = url.deletingLastPathComponent()
        switch url.pathExtension {
        case "momd":
            return directory.appendingPathComponent("\(name).xcdatamodeld")
        case "mom" where directory.pathExtension == "momd":
            let bundle = directory.deletingPathExtension().lastPathComponent
            return directory.deletingLastPathComponent().appendingPathComponent("\(bundle).xcdatamodeld/\(name).xcdatamodel")
        case "mom":
            let version = directory.appendingPathComponent("\(name).xcdatamodel")
            return FileManager.default.fileExists(atPath: version.path) ? version : directory.appendingPathComponent("\(name).xcdatamodeld")
        default:
            return url
        }
    }
}
