/// What a managed object holds of its context: one link per context, shared by its objects.
///
/// Objects do not reference their context directly. Weak references give the context a side
/// table, which makes every retain and release of it take the runtime's slow path; an object
/// keeping a weak reference would also pay for forming, loading and destroying it. The link has
/// no weak references to it, so objects retain it cheaply, and it reaches the registry without
/// the context, which lets an object unregister from its `deinit` on any thread.
// `context` is written only by the context's `init` and `deinit`: while any object could reach
// the context through it, the context lives (Apple's `managedObjectContext` is unowned too).
final class ObjectContextLink: @unchecked Sendable {
    /// The context, not retained; nil once the context is deallocated.
    private(set) var unretainedContext: Unmanaged<NSManagedObjectContext>?

    /// The context; nil once the context is deallocated.
    var context: NSManagedObjectContext? {
        get { unretainedContext?.takeUnretainedValue() }
        set { unretainedContext = newValue.map(Unmanaged.passUnretained) }
    }
    /// The context's registered objects, which outlive the context while objects hold the link.
    let registry: any ObjectUnregistering

    init(registry: any ObjectUnregistering) {
        self.registry = registry
    }
}

/// Where a deallocated object removes its registration: its context's registry.
protocol ObjectUnregistering: AnyObject, Sendable {
    /// Removes the registration of an identity when it is `object`'s.
    func unregister(_ identity: ObjectIdentity, object: NSManagedObject)
}
