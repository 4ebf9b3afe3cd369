/// The XML store (`NSXMLStoreType`): an atomic store in the XML format of Apple's Core Data (see
/// `XMLStoreFormat`).
final class XMLStore: AtomicFileStore<XMLStoreFormat>, @unchecked Sendable {
    override var type: String {
        NSXMLStoreType
    }
}
