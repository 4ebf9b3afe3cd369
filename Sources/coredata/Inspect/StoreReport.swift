import CoreData

/// What `coredata inspect` reports of a store, printed as text or encoded as JSON.
struct StoreReport: Encodable {
    struct Entity: Encodable {
        let name: String
        /// Its rows; nil when they cannot be counted (a store other than SQLite without a model
        /// that matches it).
        let rows: Int?
        /// The version hash the store records for it, in base 64.
        let versionHash: String?
    }

    struct ModelMatch: Encodable {
        /// The model file.
        let path: String
        /// The version of it compared with the store: the matching one when the model was found
        /// near the store, the current one when it was named.
        let version: String?
        let matches: Bool
        /// The entities whose version hash differs between the model and the store, or that
        /// only one of them has.
        let differingEntities: [String]
    }

    struct History: Encodable {
        let transactions: Int
        let changes: Int
    }

    struct ExternalData: Encodable {
        let files: Int
        let bytes: Int
    }

    struct File: Encodable {
        let name: String
        let bytes: Int
    }

    /// The store file's path, or the PostgreSQL server and schema.
    let path: String
    let type: String
    let uuid: String?
    let metadataKeys: [String]
    let entities: [Entity]
    /// The model compared with the store; nil when none was named and none near the store matches.
    let model: ModelMatch?
    /// Persistent history; nil for a store that records none, or one other than SQLite without a
    /// model that matches it.
    let history: History?
    let externalData: ExternalData?
    /// The store's files; none for a store on a server.
    let files: [File]
}

extension StoreReport {
    /// The report of a store, compared with `model` when one is given.
    init(store: NamedStore, model: (path: String, version: String?, model: NSManagedObjectModel)?) throws {
        let inventory = try store.type == NSSQLiteStoreType ? SQLiteStoreInventory(storeAt: store.url) : nil
        let matches = model.map { $0.model.isConfiguration(withName: nil, compatibleWithStoreMetadata: store.metadata) } ?? false
        let counted = try inventory == nil && matches ? model.map { try Self.count(store, with: $0.model) } : nil
        let rows = inventory?.rowCountsByEntity ?? counted?.rows ?? [:]
        let hashes = store.versionHashes
        path = store.directory == nil ? store.name : store.url.path
        type = store.type
        uuid = store.metadata[NSStoreUUIDKey] as? String
        metadataKeys = store.metadata.keys.sorted()
        entities = Set(hashes.keys).union(rows.keys).sorted().map { name in
            Entity(name: name, rows: rows[name], versionHash: hashes[name]?.base64EncodedString())
        }
        self.model = model.map { model in
            let modelHashes = model.model.entityVersionHashesByName
            let differing = Set(modelHashes.keys).union(hashes.keys).filter { modelHashes[$0] != hashes[$0] }
            return ModelMatch(path: model.path, version: model.version, matches: matches, differingEntities: differing.sorted())
        }
        history = inventory.flatMap { inventory in
            inventory.historyTransactions.map { History(transactions: $0, changes: inventory.historyChanges ?? 0) }
        } ?? counted?.history
        externalData = inventory.map { ExternalData(files: $0.externalDataFiles, bytes: $0.externalDataBytes) }
        files = inventory?.fileSizes.map { File(name: $0.name, bytes: $0.bytes) }
            ?? (store.directory == nil ? [] : [File(name: store.url.lastPathComponent, bytes: (try? store.url.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? 0)])
    }

    /// The rows of each entity, and the size of persistent history when the store records it,
    /// of a store the tool has no inventory of (binary, XML, PostgreSQL), counted through the
    /// public API.
    private static func count(_ store: NamedStore, with model: NSManagedObjectModel) throws -> (rows: [String: Int], history: History?) {
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = try store.open(with: model, readingHistory: store.recordsHistory)
        return try context.performAndWait {
            var counts: [String: Int] = [:]
            for entity in model.entities where !entity.isAbstract {
                let request = NSFetchRequest<NSManagedObject>(entityName: entity.name ?? "")
                request.includesSubentities = false
                counts[entity.name ?? ""] = try context.count(for: request)
            }
            return (counts, store.recordsHistory ? try historySize(in: context) : nil)
        }
    }

    /// The transactions and changes of persistent history, counted by fetching the transactions
    /// (a history request has no count).
    private static func historySize(in context: NSManagedObjectContext) throws -> History {
        let result = try context.execute(NSPersistentHistoryChangeRequest.fetchHistory(after: nil as NSPersistentHistoryToken?)) as? NSPersistentHistoryResult
        let transactions = result?.result as? [NSPersistentHistoryTransaction] ?? []
        return History(transactions: transactions.count, changes: transactions.reduce(0) { $0 + ($1.changes?.count ?? 0) })
    }

    /// The report as the terminal shows it.
    var text: String {
        var lines = [
            "Store     \(path)",
            "Type      \(type)",
            "UUID      \(uuid ?? "none")",
            "Metadata  \(metadataKeys.joined(separator: ", "))",
        ]
        if let model {
            let version = model.version.map { " (\($0))" } ?? ""
            let verdict = model.matches ? "matches" : "does not match: \(model.differingEntities.joined(separator: ", ")) differ"
            lines.append("Model     \(model.path)\(version) \(verdict)")
        } else {
            lines.append("Model     none given, and none found near the store matches it")
        }
        var table = TextTable("entity", "rows", "version hash")
        for entity in entities {
            table.append(entity.name, entity.rows.map(String.init) ?? "?", entity.versionHash ?? "")
        }
        lines += ["Entities", table.rendered]
        lines.append("History   " + (history.map { "\($0.transactions) transactions, \($0.changes) changes" } ?? "not recorded"))
        if let externalData {
            lines.append("External  \(externalData.files) files, \(externalData.bytes) bytes")
        }
        if !files.isEmpty {
            var fileTable = TextTable("file", "bytes")
            for file in files {
                fileTable.append(file.name, String(file.bytes))
            }
            lines += ["Files", fileTable.rendered]
        }
        return lines.joined(separator: "\n")
    }
}
