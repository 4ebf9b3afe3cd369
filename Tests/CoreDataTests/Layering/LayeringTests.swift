import Foundation
import Testing

/// Keeps the layering of `Sources/CoreData` from getting worse: every folder has a layer, no
/// reference runs against the layer plan unless the allow list names it with a reason, and the
/// allow list names nothing the code no longer does.
@Suite struct LayeringTests {
    /// Read once for the suite: the whole module, a fraction of a second.
    private static let graph = Result { try TypeReferenceGraph(sourceRoot: sourceRoot) }

    /// `Sources/CoreData`, found from this file: `Tests/CoreDataTests/Layering/` is three folders
    /// below the package.
    private static var sourceRoot: URL {
        (0..<4).reduce(URL(fileURLWithPath: #filePath)) { url, _ in url.deletingLastPathComponent() }
            .appendingPathComponent("Sources/CoreData")
    }

    @Test func readsTheModule() throws {
        let graph = try Self.graph.get()
        #expect(graph.folders.isSuperset(of: ["Support", "Predicate", "Model", "Context", "Stores/SQLite"]))
        #expect(graph.edges[FolderEdge(from: "Context", to: "Objects")]?["NSManagedObject"] != nil)
    }

    @Test func everyFolderHasALayer() throws {
        let graph = try Self.graph.get()
        for folder in graph.folders.sorted() where LayerPlan.layers[folder] == nil {
            Issue.record("Sources/CoreData/\(folder) has no layer: give it one in LayerPlan.layers, as ARCHITECTURE.md's table does")
        }
    }

    @Test func noReferenceBreaksTheLayersOutsideTheAllowList() throws {
        let graph = try Self.graph.get()
        let allowed = LayeringAllowList.typesByEdge
        let cycles = graph.cycles
        for edge in graph.edges.keys.sorted() {
            let breaches = graph.edges[edge, default: [:]].compactMap { type, location in
                LayerPlan.breach(of: edge, by: type).map { (type: type, location: location, rule: $0) }
            }
            let unlisted = breaches.filter { !allowed[edge, default: []].contains($0.type) }
            for (rule, uses) in Dictionary(grouping: unlisted, by: \.rule).sorted(by: { $0.key < $1.key }) {
                let list = uses.sorted { $0.location < $1.location }
                    .map { "\($0.type) at \($0.location)" }.joined(separator: ", ")
                let cycle = cycles.first { $0.contains(edge.from) && $0.contains(edge.to) }
                let inCycle = cycle.map { " It is part of the cycle through \($0.joined(separator: ", "))." } ?? ""
                Issue.record("""
                    \(edge) breaks the layers (\(rule)): \(list).\(inCycle) Remove the reference, \
                    or add it to LayeringAllowList with the reason it has to stay.
                    """)
            }
        }
    }

    @Test func theAllowListNamesOnlyReferencesThatStillBreakTheLayers() throws {
        let graph = try Self.graph.get()
        for (edge, entries) in Dictionary(grouping: LayeringAllowList.entries, by: \.edge) where entries.count > 1 {
            Issue.record("LayeringAllowList has \(entries.count) entries for \(edge): merge them")
        }
        for entry in LayeringAllowList.entries {
            #expect(!entry.reason.isEmpty, "LayeringAllowList: \(entry.edge) needs a reason")
            for type in entry.types.sorted() {
                if graph.edges[entry.edge]?[type] == nil {
                    Issue.record("\(entry.edge) no longer uses \(type): remove it from LayeringAllowList")
                } else if LayerPlan.breach(of: entry.edge, by: type) == nil {
                    Issue.record("\(entry.edge) may use \(type) under the layer plan: remove it from LayeringAllowList")
                }
            }
        }
    }

    @Test func thePlanForbidsUpwardSidewaysAndNarrowedReferences() {
        #expect(LayerPlan.breach(of: FolderEdge(from: "Context", to: "Predicate"), by: "NSPredicate") == nil)
        #expect(LayerPlan.breach(of: FolderEdge(from: "Context", to: "Coordinator"), by: "RowCache") == nil)
        #expect(LayerPlan.breach(of: FolderEdge(from: "Predicate", to: "Model"), by: "NSEntityDescription") != nil)
        #expect(LayerPlan.breach(of: FolderEdge(from: "Stores/SQLite", to: "Stores/Memory"), by: "InMemoryStore") != nil)
        #expect(LayerPlan.breach(of: FolderEdge(from: "Stores/SQLite", to: "ModelFile"), by: "ModelLocator") != nil)
        #expect(LayerPlan.breach(of: FolderEdge(from: "Model", to: "Coordinator"), by: "NSFetchRequest") == nil)
        #expect(LayerPlan.breach(of: FolderEdge(from: "Model", to: "Coordinator"), by: "RowCache") != nil)
        #expect(LayerPlan.breach(of: FolderEdge(from: "Objects", to: "Context"), by: "NSManagedObjectContext") == nil)
        #expect(LayerPlan.breach(of: FolderEdge(from: "Objects", to: "Context"), by: "UndoRecord") != nil)
    }
}
