import Foundation

/// The rows a fetched results controller's fetch found in its store, known by primary key and
/// entity until the program asks for their objects: a controller over a hundred thousand rows
/// makes only the objects that are shown.
// Used on the context's queue, like the controller.
final class FetchedResultsRows {
    /// A row of the store, by primary key and its entity's number in `identifiers`.
    struct Row {
        let primaryKey: Int64
        let entity: UInt32
    }

    private let context: NSManagedObjectContext
    /// The store, and the numbers of the entities the rows belong to.
    private let identifiers: FetchedObjectIDs
    /// How many objects one query loads when their faults fire.
    let batchSize: Int

    init(context: NSManagedObjectContext, identifiers: FetchedObjectIDs, batchSize: Int) {
        self.context = context
        self.identifiers = identifiers
        self.batchSize = batchSize
    }

    /// The row the fetch found at a position of its results.
    func row(at position: Int) -> Row {
        Row(primaryKey: identifiers.primaryKey(at: position), entity: identifiers.entityIndex(at: position))
    }

    /// The row of a saved object of the store; nil for objects of other stores and new objects.
    func row(of object: NSManagedObject) -> Row? {
        guard let objectID = object.identifier, !objectID.isTemporaryID, objectID.persistentStore === identifiers.store,
              let primaryKey = objectID.primaryKey else { return nil }
        return Row(primaryKey: primaryKey, entity: identifiers.entityIndex(of: objectID.entity))
    }

    func objectID(of row: Row) -> NSManagedObjectID {
        identifiers.objectID(primaryKey: row.primaryKey, entityIndex: row.entity)
    }

    /// The objects of rows, as faults that load their rows `batchSize` at a time when they fire.
    func objects(of rows: [Row]) -> [NSManagedObject] {
        let objectIDs = FetchedObjectIDs(store: identifiers.store)
        objectIDs.reserveCapacity(rows.count)
        for row in rows {
            objectIDs.append(primaryKey: row.primaryKey, entity: identifiers.entity(numbered: row.entity))
        }
        return context.batchedFaults(FaultBatch(objectIDs: objectIDs, size: batchSize), refreshes: false)
    }
}
