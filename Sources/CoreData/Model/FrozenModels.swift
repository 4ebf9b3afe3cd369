/// The entities of the models frozen so far: the models coordinators use, whose entities
/// `NSManagedObject.entity()` searches for a class's entity when no context names one.
///
/// It holds each model's entities, not the model. A weak reference to the model would give it a
/// side table, after which every retain and release of the model (each managed object's, when it
/// is made and freed) takes the runtime's slow path; and an unretained one cannot be read safely
/// once the model's last reference is gone but its `deinit` has not yet removed it. The entities
/// are retained, so a search never touches a model, which another thread may be freeing; a model
/// removes its entry in `deinit`.
// `entries` is guarded by `lock`; models are frozen and freed on any thread.
final class FrozenModels: @unchecked Sendable {
    static let shared = FrozenModels()

    private struct Entry {
        let model: ObjectIdentifier
        let entities: [NSEntityDescription]
    }

    private let lock = NSLock()
    private var entries: [Entry] = []

    /// The entities of each frozen model still alive, in the order the models were frozen.
    var entitiesOfAllModels: [[NSEntityDescription]] {
        lock.withLock { entries.map(\.entities) }
    }

    func add(_ model: NSManagedObjectModel) {
        let entry = Entry(model: ObjectIdentifier(model), entities: model.entities)
        lock.withLock { entries.append(entry) }
    }

    /// Forgets a model that is being deallocated.
    func remove(_ model: ObjectIdentifier) {
        lock.withLock { entries.removeAll { $0.model == model } }
    }
}
