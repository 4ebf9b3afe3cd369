import Foundation

/// A token that identifies a generation of the persistent stores' data: what a context pinned to
/// a query generation reads.
///
/// Pass `current` to `NSManagedObjectContext.setQueryGenerationFrom(_:)` to pin a context to the
/// data as it is at its next read, or another context's `queryGenerationToken` to pin it to that
/// context's generation. A generation of a SQLite store in WAL mode (the default) is a read
/// transaction kept open on a connection of its own; stores that cannot keep one (in-memory
/// stores, SQLite stores in another journal mode) keep reading their current data.
// Immutable; the pin it holds is itself immutable and read only under the coordinator's lock.
open class NSQueryGenerationToken: NSObject, NSCopying, @unchecked Sendable {
    /// The frozen data, or nil for the `current` token.
    let pin: QueryGenerationPin?

    init(pin: QueryGenerationPin?) {
        self.pin = pin
        super.init()
    }

    /// A token that tells a context to use the generation current at its next read.
    public static let current = NSQueryGenerationToken(pin: nil)

    open func copy(with zone: NSZone? = nil) -> Any {
        self
    }

    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? NSQueryGenerationToken else { return false }
        return other.pin === pin
    }

    open override var hash: Int {
        pin.map { ObjectIdentifier($0).hashValue } ?? 0
    }

    open override var description: String {
        pin == nil ? "<NSQueryGenerationToken: current>" : "<NSQueryGenerationToken: \(Unmanaged.passUnretained(self).toOpaque())>"
    }
}
