/// The binary store (`NSBinaryStoreType`): an atomic store in a binary property list (see
/// `BinaryStoreFormat`).
final class BinaryStore: AtomicFileStore<BinaryStoreFormat>, @unchecked Sendable {
    override var type: String {
        NSBinaryStoreType
    }
}
