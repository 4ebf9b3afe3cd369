extension NSManagedObjectContext {
    /// The concurrency types a context can have, in the form Apple added in iOS 15.
    ///
    /// Each value wraps the `NSManagedObjectContextConcurrencyType` it stands for, so the two
    /// forms convert both ways: `ConcurrencyType(rawValue: .mainQueueConcurrencyType)` is
    /// `.mainQueue`, and `context.concurrencyType` holds the raw value.
    public struct ConcurrencyType: RawRepresentable, Hashable, Sendable {
        /// The concurrency type in its older form.
        public var rawValue: NSManagedObjectContextConcurrencyType

        /// Creates a concurrency type from its older form.
        public init(rawValue: NSManagedObjectContextConcurrencyType) {
            self.rawValue = rawValue
        }

        /// A concurrency type where the context performs its tasks on a private queue.
        public static let privateQueue = ConcurrencyType(rawValue: .privateQueueConcurrencyType)

        /// A concurrency type where the context performs its tasks on the main queue.
        public static let mainQueue = ConcurrencyType(rawValue: .mainQueueConcurrencyType)
    }

    /// Creates a context that uses the specified concurrency type.
    ///
    /// - Parameter type: The context's concurrency type: `.privateQueue` or `.mainQueue`.
    public convenience init(_ type: NSManagedObjectContext.ConcurrencyType) {
        self.init(concurrencyType: type.rawValue)
    }
}
