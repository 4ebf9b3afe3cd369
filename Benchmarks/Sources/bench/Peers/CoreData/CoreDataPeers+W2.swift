#if canImport(CoreData)
import CoreData

extension CoreDataPeers {
    /// W2 ours (2a): `context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Item"))` with the
    /// default `returnsObjectsAsFaults` (the fetch fills the row cache), then `value(forKey:)` for the
    /// ten attributes of every object, summed.
    static var fetchItems: Peer {
        fetchPeer(named: "ours") { _ in }
    }

    /// W2b ours: the same with `includesPropertyValues = false`, so reading the attributes fires the
    /// faults (which must be fetched in batches, never one SELECT per object).
    static var fetchItemFaults: Peer {
        fetchPeer(named: "ours-faults") { request in
            request.includesPropertyValues = false
        }
    }

    /// W2c ours: the same as 2a through the class the `CoreDataCodegen` plugin generates from
    /// `Item.xcdatamodeld` (W1's entity, its attributes with scalar types): `Item.fetchRequest()`,
    /// then the ten generated `Int64` properties of every object, which read by property index.
    static var fetchGeneratedItems: Peer {
        Peer(name: "ours-generated", family: .ours) { input in
            guard let modelURL = Bundle.module.url(forResource: "Item", withExtension: "xcdatamodeld") else {
                throw BenchmarkError.io("Item.xcdatamodeld is missing from the bench resources.")
            }
            let model = try NSManagedObjectModel(validatingContentsOf: modelURL)
            let stack = try CoreDataItemStack(storeURL: input.storeURL, settings: input.settings, model: model)
            return PreparedRun(
                body: {
                    try stack.context.performAndWait {
                        let request: NSFetchRequest<Item> = Item.fetchRequest()
                        var sum: Int64 = 0
                        for item in try stack.context.fetch(request) {
                            sum &+= item.i0 &+ item.i1 &+ item.i2 &+ item.i3 &+ item.i4
                            sum &+= item.i5 &+ item.i6 &+ item.i7 &+ item.i8 &+ item.i9
                        }
                        return sum
                    }
                },
                tearDown: { try stack.close() })
        }
    }

    /// W2d ours: 2a on a binary store (`NSBinaryStoreType`) holding the fixture's items, which
    /// the set-up moves there from the SQLite fixture and opens (reading the whole graph).
    static var fetchItemsFromBinaryStore: Peer {
        fetchPeer(named: "ours-binary", storeType: .binary) { _ in }
    }

    /// W2d-xml ours: the same on an XML store (`NSXMLStoreType`).
    static var fetchItemsFromXMLStore: Peer {
        fetchPeer(named: "ours-xml", storeType: .xml) { _ in }
    }

    /// A W2 peer. Set-up (not measured): build the model and the coordinator, add the SQLite store
    /// on the fixture copy (or a store of another type moved from it), make the private-queue context.
    private static func fetchPeer(
        named name: String, storeType: NSPersistentStore.StoreType = .sqlite, configure: @escaping (NSFetchRequest<NSManagedObject>) -> Void
    ) -> Peer {
        Peer(name: name, family: .ours) { input in
            var storeURL = input.storeURL
            if storeType != .sqlite {
                let fixture = try CoreDataItemStack(storeURL: input.storeURL, settings: input.settings)
                storeURL = input.storeURL.appendingPathExtension(storeType.rawValue)
                _ = try fixture.coordinator.migratePersistentStore(fixture.store, to: storeURL, type: storeType)
            }
            let stack = try CoreDataItemStack(storeURL: storeURL, settings: input.settings, type: storeType)
            return PreparedRun(
                body: { try fetchAttributeSum(from: stack, peer: name, configure: configure) },
                tearDown: { try stack.close() })
        }
    }

    /// W2's measured work: inside `performAndWait`, `fetch` of every `Item` (the request set up
    /// by `configure`), then the sum of `value(forKey:)` of the ten attributes of every object.
    static func fetchAttributeSum(
        from stack: CoreDataItemStack, peer name: String, configure: (NSFetchRequest<NSManagedObject>) -> Void = { _ in }
    ) throws -> Int64 {
        try stack.context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Item")
            configure(request)
            let items = try stack.context.fetch(request)
            var sum: Int64 = 0
            for item in items {
                sum &+= try CoreDataItemStack.attributeSum(of: item, peer: name)
            }
            return sum
        }
    }
}
#endif
