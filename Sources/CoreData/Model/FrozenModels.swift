/// The models frozen so far, held weakly: the models coordinators use, which
/// `NSManagedObject.entity()` searches for a class's entity when no context names one.
// `models` is guarded by `lock`; models are frozen from any thread.
final class FrozenModels: @unchecked Sendable {
    static let shared = FrozenModels()

    private struct WeakModel {
        weak var model: NSManagedObjectModel?
    }

    private let lock = NSLock()
    private var models: [WeakModel] = []

    /// The frozen models still alive, in the order they were frozen.
    var all: [NSManagedObjectModel] {
        lock.withLock { models.compactMap(\.model) }
    }

    func add(_ model: NSManagedObjectModel) {
        lock.withLock {
            models.removeAll { $0.model == nil }
            models.append(WeakModel(model: model))
        }
    }
}
