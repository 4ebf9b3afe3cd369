/// The methods a fetched results controller calls on its delegate when its results change.
///
/// Every method is optional, as on Apple platforms: the protocol's extension implements each one
/// as doing nothing. The controller calls, per batch of changes, the first of these the delegate
/// implements: `controller(_:didChangeContentWith:)` taking a snapshot; then, for a controller
/// without a section key path, the one taking a `CollectionDifference`; otherwise
/// `controllerWillChangeContent(_:)`, the section changes, the object changes and
/// `controllerDidChangeContent(_:)`.
///
/// The controller passed is an `NSFetchedResultsController<NSFetchRequestResult>` whatever the
/// result type of the controller that calls: a view of the same controller (the same object
/// when its result type is `NSFetchRequestResult`).
public protocol NSFetchedResultsControllerDelegate: AnyObject {
    /// Called before the controller reports a batch of changes.
    func controllerWillChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>)

    /// Called for each object that was inserted, deleted, moved or updated: `indexPath` is its
    /// index path before the batch (nil for an insert), `newIndexPath` after it (nil for a delete).
    func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>, didChange anObject: Any,
                    at indexPath: IndexPath?, for type: NSFetchedResultsChangeType, newIndexPath: IndexPath?)

    /// Called for each section inserted (index after the batch) or deleted (index before it),
    /// before the object changes.
    func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>, didChange sectionInfo: NSFetchedResultsSectionInfo,
                    atSectionIndex sectionIndex: Int, for type: NSFetchedResultsChangeType)

    /// Called after the controller reported a batch of changes.
    func controllerDidChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>)

    /// The index title of a section; when implemented, it replaces the controller's
    /// `sectionIndexTitle(forSectionName:)`.
    func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>, sectionIndexTitleForSectionName sectionName: String) -> String?

    /// Called after each batch of changes with the whole new content; when implemented, no other
    /// change method is called.
    func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>, didChangeContentWith snapshot: NSDiffableDataSourceSnapshotReference)

    /// Called after each batch of changes with the difference between the old and new objects,
    /// for a controller without a section key path; when implemented (and no snapshot method
    /// is), no other change method is called.
    func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>, didChangeContentWith diff: CollectionDifference<NSManagedObjectID>)
}

extension NSFetchedResultsControllerDelegate {
    public func controllerWillChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) {}

    public func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>, didChange anObject: Any,
                           at indexPath: IndexPath?, for type: NSFetchedResultsChangeType, newIndexPath: IndexPath?) {}

    public func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>, didChange sectionInfo: NSFetchedResultsSectionInfo,
                           atSectionIndex sectionIndex: Int, for type: NSFetchedResultsChangeType) {}

    public func controllerDidChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) {}

    // The three defaults below tell the controller that the delegate does not implement them,
    // which is how it chooses what to call (Swift has no optional protocol methods).

    public func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>, sectionIndexTitleForSectionName sectionName: String) -> String? {
        controller.engine.delegateLacks(.sectionIndexTitle)
        return nil
    }

    public func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>, didChangeContentWith snapshot: NSDiffableDataSourceSnapshotReference) {
        controller.engine.delegateLacks(.snapshot)
    }

    public func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>, didChangeContentWith diff: CollectionDifference<NSManagedObjectID>) {
        controller.engine.delegateLacks(.difference)
    }
}
