/// The layers of `Sources/CoreData`, as the house plan (`ARCHITECTURE.md`, "Inside
/// Sources/CoreData, by layer") draws them: a folder may use the folders of lower layers, never
/// those of a higher one, and the plan narrows a few pairs further.
enum LayerPlan {
    /// Each folder's layer. Subfolders belong to their top folder (`Predicate/Parsing`,
    /// `Migration/Staged`, `ModelFile/CodeGeneration`) except under `Stores/`, where each store is
    /// its own folder. `.` is the module's top: `CoreData.swift`, the Foundation re-export.
    /// Folders the plan names before they exist are listed so that they start in their layer.
    static let layers: [String: Int] = [
        ".": 0, "Support": 0,
        "Predicate": 1,
        // One layer: the cycle Apple's API imposes (a fetched property holds a fetch request, a
        // request names its stores, an object names its context and ID, an ID names its store).
        "Model": 2, "Objects": 2, "Context": 2, "Coordinator": 2,
        "ModelFile": 3,
        "Stores/SQL": 3, "Stores/SQLite": 4, "Stores/Memory": 4, "Stores/Atomic": 4, "Stores/Custom": 4,
        "Migration": 5, "FetchedResults": 5, "Container": 5, "Batch": 5, "History": 5,
    ]

    /// The request types: what `Model/` and `ModelFile/` may know of the coordinator's folder
    /// (a fetched property and a model file's fetch request templates hold fetch requests).
    static let requestTypes: Set<String> = [
        "NSFetchRequest", "NSFetchRequestResult", "NSFetchRequestResultType",
        "NSPersistentStoreRequest", "NSPersistentStoreRequestType",
    ]

    /// Why using `type` along `edge` breaks the plan, or nil when the plan allows it. Folders
    /// without a layer are reported on their own, so they break nothing here.
    static func breach(of edge: FolderEdge, by type: String) -> String? {
        guard let from = layers[edge.from], let to = layers[edge.to] else { return nil }
        if to > from { return "upward: layer \(from) uses layer \(to)" }
        if to == from && from != 2 { return "sideways inside layer \(from)" }
        if let narrowing = narrowing(of: edge), !narrowing.allowed.contains(type) {
            return narrowing.rule
        }
        return nil
    }

    /// The plan's rules that allow only some types (or none) along a downward or inner edge.
    private static func narrowing(of edge: FolderEdge) -> (allowed: Set<String>, rule: String)? {
        switch (edge.from, edge.to) {
        case ("Model", "Coordinator"), ("Model", "Objects"), ("Model", "Context"):
            return (requestTypes, "inside layer 2, Model knows only the request types")
        case ("ModelFile", "Coordinator"), ("ModelFile", "Objects"), ("ModelFile", "Context"):
            return (requestTypes, "ModelFile knows Model, Predicate and the request types")
        case ("Objects", "Context"):
            return (["NSManagedObjectContext"], "inside layer 2, objects reach their context only "
                + "through one narrow internal protocol (and name NSManagedObjectContext, Apple's API)")
        case (_, "ModelFile") where layers[edge.from] == 4:
            return ([], "stores know layers 0–2")
        default:
            return nil
        }
    }
}
