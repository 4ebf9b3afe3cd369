import Foundation

/// A place in `Sources/CoreData`: a path relative to it and a line.
struct SourceFileLine: Comparable, CustomStringConvertible {
    let file: String
    let line: Int

    var description: String { "\(file):\(line)" }

    static func < (lhs: SourceFileLine, rhs: SourceFileLine) -> Bool {
        (lhs.file, lhs.line) < (rhs.file, rhs.line)
    }
}

/// One folder of `Sources/CoreData` using types another folder declares.
struct FolderEdge: Hashable, Comparable, CustomStringConvertible {
    let from: String
    let to: String

    var description: String { "\(from) → \(to)" }

    static func < (lhs: FolderEdge, rhs: FolderEdge) -> Bool {
        (lhs.from, lhs.to) < (rhs.from, rhs.to)
    }
}

/// The type references between the folders of `Sources/CoreData`, read from the source text.
///
/// A folder is a top folder (`Context`, `Predicate` with its subfolders) or, under `Stores/`, each
/// store's own folder (`Stores/SQLite`). A folder declares the types its files name after `class`,
/// `struct`, `enum`, `protocol`, `actor` or `typealias`, at any depth. A reference is an
/// identifier in code (not in a comment or a string) that names a type declared in another folder,
/// except after a `.`: in `Outer.Inner` or `Foundation.NSPredicate` the name before the dot is
/// the reference.
///
/// Names that cannot be told apart are skipped rather than guessed: a name declared in several
/// folders (`Kind`, `Entry`) belongs to none of them, and a type declared only inside another
/// type or in an extension is reached by bare name only from code that already names its outer
/// type (`NSExpression.Kind`, an `extension NSManagedObject`), so the outer name carries the edge.
struct TypeReferenceGraph {
    /// For each edge, each type it uses with the first place that uses it.
    let edges: [FolderEdge: [String: SourceFileLine]]

    /// Names declared in more than one folder, with those folders; they make no edges.
    let ambiguousNames: [String: [String]]

    /// Every folder that holds a Swift file.
    let folders: Set<String>

    /// Reads every Swift file under `sourceRoot`, the `Sources/CoreData` directory.
    init(sourceRoot: URL) throws {
        let paths = try Self.swiftFiles(under: sourceRoot)
        try self.init(files: paths.map { path in
            (path, try String(contentsOf: sourceRoot.appendingPathComponent(path), encoding: .utf8))
        })
    }

    /// Builds the graph from files given by their path relative to `Sources/CoreData`.
    init(files: [(path: String, source: String)]) {
        let sortedFiles = files.sorted { $0.path < $1.path }
        let scanned = sortedFiles.map { ScannedFile(path: $0.path, source: $0.source) }
        var foldersByName: [String: Set<String>] = [:]
        var topLevelNames: Set<String> = []
        for file in scanned {
            for declaration in file.declarations {
                foldersByName[declaration.name, default: []].insert(file.folder)
                if declaration.isTopLevel { topLevelNames.insert(declaration.name) }
            }
        }
        var owner: [String: String] = [:]
        var ambiguous: [String: [String]] = [:]
        for (name, folders) in foldersByName {
            if folders.count > 1 {
                ambiguous[name] = folders.sorted()
            } else if topLevelNames.contains(name), let folder = folders.first {
                owner[name] = folder
            }
        }
        var edges: [FolderEdge: [String: SourceFileLine]] = [:]
        for file in scanned {
            for (name, line) in file.references() {
                guard let target = owner[name], target != file.folder else { continue }
                let edge = FolderEdge(from: file.folder, to: target)
                if edges[edge]?[name] == nil {
                    edges[edge, default: [:]][name] = SourceFileLine(file: file.path, line: line)
                }
            }
        }
        self.edges = edges
        ambiguousNames = ambiguous
        folders = Set(scanned.map(\.folder))
    }

    /// The folder a file belongs to, from its path relative to `Sources/CoreData`; files at the
    /// top of the module belong to `.`.
    static func folder(ofPath path: String) -> String {
        let components = path.split(separator: "/")
        guard components.count > 1 else { return "." }
        if components[0] == "Stores" && components.count > 2 { return "Stores/\(components[1])" }
        return String(components[0])
    }

    /// The folders that reach each other through the edges (strongly connected components of
    /// more than one folder), each sorted, in sorted order.
    var cycles: [[String]] {
        let successors = Dictionary(grouping: edges.keys, by: \.from).mapValues { $0.map(\.to) }
        let folders = Set(edges.keys.flatMap { [$0.from, $0.to] })
        func reachable(from start: String) -> Set<String> {
            var seen: Set<String> = [start]
            var pending = [start]
            while let folder = pending.popLast() {
                for next in successors[folder, default: []] where seen.insert(next).inserted {
                    pending.append(next)
                }
            }
            return seen
        }
        let reach = Dictionary(uniqueKeysWithValues: folders.map { ($0, reachable(from: $0)) })
        let components = Set(folders.map { folder in
            reach[folder, default: []].filter { reach[$0, default: []].contains(folder) }.sorted()
        })
        return components.filter { $0.count > 1 }.sorted { $0.lexicographicallyPrecedes($1) }
    }

    private static func swiftFiles(under root: URL) throws -> [String] {
        let rootPath = root.standardizedFileURL.path
        guard let enumerator = FileManager.default.enumerator(atPath: rootPath) else {
            throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: rootPath])
        }
        return enumerator.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.sorted()
    }
}

/// A type declaration found in a file.
private struct Declaration {
    let name: String
    let isTopLevel: Bool
}

/// One source file, tokenized once, with the type declarations it makes.
private struct ScannedFile {
    let path: String
    let folder: String
    let tokens: [SwiftToken]
    let declarations: [Declaration]
    /// Indices of the tokens that are declared names, not references.
    private let declaredNameIndices: Set<Int>

    /// The words that declare a type when a name follows them.
    private static let declaringKeywords: Set<String> = [
        "class", "struct", "enum", "protocol", "actor", "typealias",
    ]

    /// Words that can follow `class` when it is a modifier (`class func`), not a declaration.
    private static let wordsAfterClassModifier: Set<String> = [
        "func", "var", "let", "subscript", "override", "final", "static", "required",
        "convenience", "dynamic", "nonisolated", "public", "internal", "package", "fileprivate",
        "private", "open",
    ]

    init(path: String, source: String) {
        self.path = path
        folder = TypeReferenceGraph.folder(ofPath: path)
        tokens = SwiftTokenizer.tokens(of: source)
        var declarations: [Declaration] = []
        var declaredNameIndices: Set<Int> = []
        var braceDepth = 0
        // Index loops rather than `enumerated()`: this runs unoptimised over the whole module.
        var index = 0
        while index < tokens.count {
            let token = tokens[index]
            index += 1
            switch token.kind {
            case .openBrace:
                braceDepth += 1
            case .closeBrace:
                braceDepth -= 1
            case .memberName:
                break
            case .name:
                guard index < tokens.count, Self.declaringKeywords.contains(token.text) else { break }
                let name = tokens[index]
                guard name.kind == .name, !Self.wordsAfterClassModifier.contains(name.text) else { break }
                declarations.append(Declaration(name: name.text, isTopLevel: braceDepth == 0))
                declaredNameIndices.insert(index)
            }
        }
        self.declarations = declarations
        self.declaredNameIndices = declaredNameIndices
    }

    /// The names in code that may name a type, with their lines, in order.
    func references() -> [(name: String, line: Int)] {
        var references: [(name: String, line: Int)] = []
        var index = 0
        while index < tokens.count {
            let token = tokens[index]
            if token.kind == .name && !declaredNameIndices.contains(index) {
                references.append((token.text, token.line))
            }
            index += 1
        }
        return references
    }
}
