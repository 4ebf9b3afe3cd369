/// Finds the model files a program ships, where an Xcode app would find its compiled models:
/// at the top of each bundle's resources and, for the main bundle, in every SwiftPM resource
/// bundle (`<Package>_<Target>.resources`) beside the executable.
enum ModelLocator {
    /// The directories searched for the bundles; nil means the main bundle.
    static func searchDirectories(for bundles: [Bundle]?) -> [URL] {
        var directories: [URL] = []
        for bundle in bundles ?? [Bundle.main] {
            directories.append(bundle.resourceURL ?? bundle.bundleURL)
            if bundle == Bundle.main { directories += SwiftPMResourceBundles.besideExecutable(of: bundle) }
        }
        var seen = Set<String>()
        return directories.filter { seen.insert($0.standardizedFileURL.path).inserted }
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
