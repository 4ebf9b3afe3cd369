#if canImport(CoreData)
import CoreData

extension CoreDataPeers {
    /// W8 ours: opens the store with the changed model and Apple's automatic lightweight
    /// migration options, as an app does after a model update. Set-up (not measured): write both
    /// model versions into an `.xcdatamodeld` bundle, as Xcode keeps them, so that migration finds
    /// the store's version beside the current one.
    static func migrateItems(_ change: ItemMigration) -> Peer {
        Peer(name: "ours", family: .ours) { input in
            let model = try itemModelBundle(for: change, in: input.storeURL.deletingLastPathComponent())
            let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
            let options: [AnyHashable: Any] = [
                NSSQLitePragmasOption: ["journal_mode": input.settings.journalMode, "synchronous": input.settings.synchronous],
                NSMigratePersistentStoresAutomaticallyOption: true,
                NSInferMappingModelAutomaticallyOption: true,
            ]
            return PreparedRun(
                body: {
                    try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: input.storeURL, options: options)
                    return 0
                },
                tearDown: {
                    for store in coordinator.persistentStores {
                        try coordinator.remove(store)
                    }
                })
        }
    }

    /// The current version of an `Items.xcdatamodeld` written into `directory`, whose first
    /// version is W1's `Item` model and whose second makes the change.
    private static func itemModelBundle(for change: ItemMigration, in directory: URL) throws -> NSManagedObjectModel {
        let bundle = directory.appendingPathComponent("Items.xcdatamodeld")
        try CoreDataItemStack.makeModel().write(toModelFileAt: bundle.appendingPathComponent("Items.xcdatamodel"))
        try changedItemModel(change).write(toModelFileAt: bundle.appendingPathComponent("Items 2.xcdatamodel"))
        let currentVersion = ["_XCCurrentVersionName": "Items 2.xcdatamodel"]
        try PropertyListSerialization.data(fromPropertyList: currentVersion, format: .xml, options: 0)
            .write(to: bundle.appendingPathComponent(".xccurrentversion"))
        guard let model = NSManagedObjectModel(contentsOf: bundle) else {
            throw BenchmarkError.unexpectedValue(peer: "ours", detail: "cannot read back \(bundle.path)")
        }
        return model
    }

    private static func changedItemModel(_ change: ItemMigration) -> NSManagedObjectModel {
        let model = CoreDataItemStack.makeModel()
        let item = model.entitiesByName["Item"]!
        let attributes = item.properties.compactMap { $0 as? NSAttributeDescription }
        switch change {
        case .addAttribute:
            let note = NSAttributeDescription()
            note.name = "note"
            note.attributeType = .stringAttributeType
            item.properties = attributes + [note]
        case .renameAndWiden:
            attributes[9].name = "total"
            attributes[9].renamingIdentifier = "i9"
            attributes[8].attributeType = .doubleAttributeType
        case .addIndex:
            attributes[0].isIndexed = true
            item.versionHashModifier = "index i0"
        }
        return model
    }
}
#endif
