/// The kinds of merge policy, with Apple's raw values.
public enum NSMergePolicyType: UInt, Sendable {
    /// A save with conflicts fails (the default policy).
    case errorMergePolicyType = 0
    /// Per property, the store's value wins where both sides changed.
    case mergeByPropertyStoreTrumpMergePolicyType = 1
    /// Per property, the in-memory value wins where both sides changed.
    case mergeByPropertyObjectTrumpMergePolicyType = 2
    /// The in-memory state of each conflicting object is written over the store, whole.
    case overwriteMergePolicyType = 3
    /// The in-memory changes of each conflicting object are discarded for the store's state.
    case rollbackMergePolicyType = 4
}
