#if canImport(CoreData)
import CoreData

/// The "ours" peers: our Core Data, driven strictly through Apple's Core Data API, exactly as an iOS
/// app would write it with `import CoreData`. Each workload adds its peers in an extension
/// (`CoreDataPeers+W1.swift` …). Files using Core Data import `CoreData` alone: it re-exports
/// Foundation, and importing GRDB or Foundation beside it makes names ambiguous.
enum CoreDataPeers {
    /// Creates a store at `url` holding `count` items inserted and saved by our Core Data, exactly
    /// as W1 does, and closes it. The fixture builder for the read workloads, so that the store
    /// carries our metadata tables.
    static func createItemStore(at url: URL, count: Int, settings: StoreSettings) throws {
        try fillItemStore(CoreDataItemStack(storeURL: url, settings: settings), count: count)
    }

    /// Inserts `count` items into the store of `stack` and saves them, exactly as W1 does, then
    /// closes the stack.
    static func fillItemStore(_ stack: CoreDataItemStack, count: Int) throws {
        _ = try insertAndSave(count, into: stack)
        try stack.close()
    }
}

/// A Core Data stack over one store file: model built in code (W1's `Item` unless another is
/// given), coordinator, SQLite store with the run's pragmas, private-queue context.
final class CoreDataItemStack {
    /// The `Item` attributes: `i0` … `i9`, Int64, optional.
    static let attributeNames = (0..<10).map { "i\($0)" }

    let coordinator: NSPersistentStoreCoordinator
    let store: NSPersistentStore
    let context: NSManagedObjectContext

    /// Adds the store at `storeURL` (creating it if needed; SQLite unless `type` says otherwise)
    /// for `model`, with `options` beside the SQLite pragmas, and makes a private-queue context
    /// on it.
    init(
        storeURL: URL, settings: StoreSettings, model: NSManagedObjectModel = makeModel(),
        type: NSPersistentStore.StoreType = .sqlite, options extraOptions: [AnyHashable: Any] = [:]
    ) throws {
        coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        let pragmas: [String: String] = ["journal_mode": settings.journalMode, "synchronous": settings.synchronous]
        var options = extraOptions
        if type == .sqlite {
            options[NSSQLitePragmasOption] = pragmas
        }
        store = try coordinator.addPersistentStore(
            ofType: type.rawValue, configurationName: nil, at: storeURL, options: options.isEmpty ? nil : options)
        context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
    }

    /// The model: one entity `Item` with ten optional Int64 attributes, built in code.
    static func makeModel() -> NSManagedObjectModel {
        let entity = NSEntityDescription()
        entity.name = "Item"
        entity.properties = attributeNames.map { name in
            let attribute = NSAttributeDescription()
            attribute.name = name
            attribute.attributeType = .integer64AttributeType
            attribute.isOptional = true
            return attribute
        }
        let model = NSManagedObjectModel()
        model.entities = [entity]
        return model
    }

    /// Inserts `count` items (item `i` holds `(i, …, i)`) with `insertNewObject(forEntityName:into:)`
    /// and ten `setValue(_:forKey:)` each. Call it on the context's queue.
    func insertItems(count: Int) throws {
        for index in 0..<count {
            let item = NSEntityDescription.insertNewObject(forEntityName: "Item", into: context)
            let value = NSNumber(value: Int64(index))
            for name in Self.attributeNames {
                item.setValue(value, forKey: name)
            }
        }
    }

    /// The sum of the ten attributes of `object`, read with `value(forKey:)` (which fires the
    /// fault). Call it on the context's queue.
    static func attributeSum(of object: NSManagedObject, peer: String) throws -> Int64 {
        var sum: Int64 = 0
        for name in attributeNames {
            sum &+= try int64(object.value(forKey: name), key: name, peer: peer)
        }
        return sum
    }

    /// An Int64 attribute value as KVC returns it: an `NSNumber` on Apple platforms.
    static func int64(_ value: Any?, key: String, peer: String) throws -> Int64 {
        if let number = value as? NSNumber {
            return number.int64Value
        }
        if let integer = value as? Int64 {
            return integer
        }
        throw BenchmarkError.unexpectedValue(
            peer: peer, detail: "value(forKey: \"\(key)\") returned \(value.map { "\($0) (\(type(of: $0)))" } ?? "nil")")
    }

    /// Forgets the context's objects and removes the store from the coordinator, closing the file.
    func close() throws {
        context.performAndWait {
            context.reset()
        }
        try coordinator.remove(store)
    }
}
#endif
