#if canImport(CoreData)
import CoreData

extension CoreDataPeers {
    /// W1 ours: inside `performAndWait`, `insertNewObject(forEntityName: "Item", into:)` and ten
    /// `setValue(NSNumber, forKey:)` per item, then one `save()`.
    ///
    /// Set-up (not measured): build the model, the coordinator, add the SQLite store (which creates
    /// the file and its schema), make the private-queue context.
    static var insertItems: Peer {
        insertPeer(named: "ours", type: .sqlite)
    }

    /// W1-batch's `ours-save`: W1's peer under another name, beside the batch insert.
    static var insertItemsBySave: Peer {
        insertPeer(named: "ours-save", type: .sqlite)
    }

    /// W1-history's `ours-history`: W1 into a store that records persistent history.
    static var insertItemsWithHistory: Peer {
        insertPeer(named: "ours-history", type: .sqlite, recordsHistory: true)
    }

    /// W1d ours: the same into a new binary store (`NSBinaryStoreType`), which writes the whole
    /// graph to its file at the save.
    static var insertItemsIntoBinaryStore: Peer {
        insertPeer(named: "ours-binary", type: .binary)
    }

    /// W1d-xml ours: the same into a new XML store (`NSXMLStoreType`).
    static var insertItemsIntoXMLStore: Peer {
        insertPeer(named: "ours-xml", type: .xml)
    }

    private static func insertPeer(named name: String, type: NSPersistentStore.StoreType, recordsHistory: Bool = false) -> Peer {
        Peer(name: name, family: .ours) { input in
            let options: [AnyHashable: Any] = recordsHistory ? [NSPersistentHistoryTrackingKey: true] : [:]
            let stack = try CoreDataItemStack(storeURL: input.storeURL, settings: input.settings, type: type, options: options)
            return PreparedRun(
                body: { try insertAndSave(input.count, into: stack) },
                tearDown: { try stack.close() })
        }
    }

    /// W1's measured work: inside `performAndWait`, `count` items inserted
    /// (``CoreDataItemStack/insertItems(count:)``), then one `save()`. Returns the count.
    static func insertAndSave(_ count: Int, into stack: CoreDataItemStack) throws -> Int64 {
        try stack.context.performAndWait {
            try stack.insertItems(count: count)
            try stack.context.save()
        }
        return Int64(count)
    }
}
#endif
