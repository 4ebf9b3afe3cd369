/// A description's reference to the description that owns it (a property's or an index's entity,
/// a sub-entity's superentity, an entity's model): not retained, and cleared by the owner when it
/// is deallocated or lets the description go, so that it reads nil afterwards as a weak reference
/// would.
///
/// A weak reference would give the owner a side table, after which every retain and release of
/// it takes the runtime's slow path: every object ID retains its entity, and every managed object
/// reads and retains its model. Apple's own references here are unowned (`assign`).
struct OwnerReference<Owner: AnyObject> {
    private var unmanaged: Unmanaged<Owner>?

    init(_ owner: Owner? = nil) {
        unmanaged = owner.map(Unmanaged.passUnretained)
    }

    /// The owner, nil once it has let go of the description.
    var owner: Owner? {
        unmanaged?.takeUnretainedValue()
    }

    /// Whether the reference is to `candidate`; compares addresses, so it is safe in `deinit`.
    func refers(to candidate: Owner) -> Bool {
        unmanaged?.toOpaque() == Unmanaged.passUnretained(candidate).toOpaque()
    }
}
