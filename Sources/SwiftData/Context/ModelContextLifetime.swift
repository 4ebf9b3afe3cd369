/// What keeps a model context alive while models from it are.
///
/// Each context object of a model holds it, rather than the context: the context has weak
/// references (from its Core Data context), which move its reference count to a side table, so
/// that retaining it for each fetched model would take the runtime's slow path. Nothing refers
/// to a lifetime weakly; the context refers to it without keeping it alive, and makes a new one
/// when the models of the last are gone.
final class ModelContextLifetime {
    let context: ModelContext

    init(_ context: ModelContext) {
        self.context = context
    }
}
