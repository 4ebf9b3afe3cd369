/// Which generation of the stores' data a context reads (spec MOC-34).
enum QueryGenerationState {
    /// The latest data, read by read (the default).
    case unpinned
    /// Pinned to the generation current at the context's next read.
    case pendingCurrent
    case pinned(NSQueryGenerationToken)
}
