/// How a context confines its work to a queue.
public enum NSManagedObjectContextConcurrencyType: UInt, Sendable {
    /// Deprecated by Apple: the context is used from the thread that created it.
    case confinementConcurrencyType = 0
    /// The context owns a private serial queue; use it through `perform` and `performAndWait`.
    case privateQueueConcurrencyType = 1
    /// The context uses the main queue.
    case mainQueueConcurrencyType = 2
}
