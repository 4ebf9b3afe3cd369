import ArgumentParser
import CoreData

/// `coredata history`: the transactions a store's persistent history records, and their changes,
/// read through Core Data's history requests.
struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Prints the transactions and changes of a store's persistent history."
    )

    @Argument(help: "The store that records persistent history (opened with NSPersistentHistoryTrackingKey): a SQLite file, or a PostgreSQL store, postgres://user@host:port/database?schema=name.")
    var store: String

    @Option(help: "Only transactions after this one: a token (transaction number) the output shows, or an ISO 8601 date (2026-11-28T09:30:00Z).")
    var after: String?

    @Option(help: "Only the transactions of this author (a context's transactionAuthor).")
    var author: String?

    @Option(help: "The model (.xcdatamodeld or .xcdatamodel); without it, a model near the store or in the current directory that matches it is looked for.")
    var model: String?

    func run() throws {
        let namedStore = try NamedStore(store)
        // The metadata says so; counting the history tables' rows would read the whole store.
        guard namedStore.recordsHistory else {
            throw CommandFailure.report("\(namedStore.name) records no persistent history.")
        }
        let model = try matchingModel(for: namedStore)
        let request = NSPersistentHistoryChangeRequest.fetchHistory(withFetch: try fetchRequest())
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = try namedStore.open(with: model, readingHistory: true)
        let lines: [String]
        do {
            lines = try context.performAndWait {
                let transactions = (try context.execute(request) as? NSPersistentHistoryResult)?.result as? [NSPersistentHistoryTransaction] ?? []
                return transactions.flatMap(Self.lines(for:)) + ["\(transactions.count) \(transactions.count == 1 ? "transaction" : "transactions")"]
            }
        } catch {
            throw CommandFailure.report(error)
        }
        print(lines.joined(separator: "\n"))
    }

    private func matchingModel(for store: NamedStore) throws -> NSManagedObjectModel {
        if let model {
            return try ModelFileArgument.version(at: model, matching: store)
        }
        guard let found = ModelFileArgument.version(matching: store) else {
            throw CommandFailure.report("No model near \(store.name) matches it; name one with --model.")
        }
        return found.model
    }

    /// The transactions `--after` and `--author` keep.
    private func fetchRequest() throws -> NSFetchRequest<NSFetchRequestResult> {
        guard let request = NSPersistentHistoryTransaction.fetchRequest else {
            throw CommandFailure.report("Persistent history cannot be fetched.")
        }
        var predicates: [NSPredicate] = []
        if let after {
            if let number = Int64(after) {
                predicates.append(NSPredicate(format: "transactionNumber > %lld", number))
            } else if let date = try? Date(after, strategy: .iso8601) {
                predicates.append(NSPredicate(format: "timestamp > %@", date as NSDate))
            } else {
                throw CommandFailure.report("--after takes a token (a transaction number) or an ISO 8601 date, not \(after).")
            }
        }
        if let author {
            predicates.append(NSPredicate(format: "author == %@", author))
        }
        request.predicate = predicates.isEmpty ? nil : NSCompoundPredicate(andPredicateWithSubpredicates: predicates)
        return request
    }

    /// A transaction's line, then a line per change.
    private static func lines(for transaction: NSPersistentHistoryTransaction) -> [String] {
        let details = [
            transaction.timestamp.formatted(.iso8601),
            transaction.author.map { "author \($0)" },
            transaction.contextName.map { "context \($0)" },
        ].compactMap { $0 }
        var table = TextTable("change", "entity", "object", "properties")
        for change in transaction.changes ?? [] {
            let properties = (change.updatedProperties ?? []).map(\.name).sorted().joined(separator: ", ")
            table.append(cells: [Self.name(of: change.changeType), change.changedObjectID.entity.name ?? "?", change.changedObjectID.uriRepresentation().absoluteString, properties])
        }
        return ["Transaction \(transaction.transactionNumber) (token \(transaction.transactionNumber))  \(details.joined(separator: "  "))", table.rendered]
    }

    private static func name(of type: NSPersistentHistoryChangeType) -> String {
        switch type {
        case .insert: "insert"
        case .update: "update"
        case .delete: "delete"
        @unknown default: "change"
        }
    }
}
