import Foundation

// Tracking: each ObjectsDidChange of the context is applied to the results and reported to the
// delegate, by the first of its change methods it implements.
extension FetchedResultsEngine {
    func contextDidChange(_ notification: Notification) {
        guard let content, let membership else { return }
        let info = notification.userInfo ?? [:]
        if info[NSInvalidatedAllObjectsKey] != nil {
            // The objects are gone (reset): the program fetches again, as Apple documents.
            self.content = nil
            observeContextIfNeeded()
            return
        }
        let leaving = Set((Self.objects(in: info, NSDeletedObjectsKey) + Self.objects(in: info, NSInvalidatedObjectsKey)).map(ObjectIdentifier.init))
        var seen = Set<ObjectIdentifier>()
        let listed = [NSInsertedObjectsKey, NSUpdatedObjectsKey, NSRefreshedObjectsKey, NSDeletedObjectsKey, NSInvalidatedObjectsKey]
            .flatMap { Self.objects(in: info, $0) }
        let dependents = dependencies.isEmpty ? [] : listed.filter { !membership.isOfFetchedEntity($0) }.flatMap(dependencies.dependents(of:))
        let changed = (listed + dependents).filter { membership.isOfFetchedEntity($0) && seen.insert(ObjectIdentifier($0)).inserted }
        guard !changed.isEmpty, let delegate, let view = delegateView else { return }
        let oldObjectIDs = wantsDifference(delegate) ? content.objectIDs : nil
        let batch = FetchedResultsBatch(applying: changed, to: content) { object in
            !leaving.contains(ObjectIdentifier(object)) && membership.contains(object)
        }
        guard !batch.isEmpty else { return }
        deliver(batch, oldObjectIDs: oldObjectIDs, to: delegate, view: view)
    }

    /// After `performFetch()`, a delegate that takes snapshots receives the first one.
    func deliverSnapshotAfterFetch() {
        guard let delegate, let view = delegateView, let content else { return }
        _ = call(.snapshot, on: delegate) { delegate.controller(view, didChangeContentWith: snapshot(of: content, reloading: [])) }
    }

    private func deliver(_ batch: FetchedResultsBatch, oldObjectIDs: [NSManagedObjectID]?, to delegate: any NSFetchedResultsControllerDelegate,
                         view: NSFetchedResultsController<NSFetchRequestResult>) {
        guard let content else { return }
        let updated = batch.objectChanges.filter { $0.type == .update }.map(\.object.objectID)
        if call(.snapshot, on: delegate, { delegate.controller(view, didChangeContentWith: snapshot(of: content, reloading: updated)) }) {
            return
        }
        if let oldObjectIDs, call(.difference, on: delegate, {
            delegate.controller(view, didChangeContentWith: content.objectIDs.difference(from: oldObjectIDs).inferringMoves())
        }) {
            return
        }
        delegate.controllerWillChangeContent(view)
        for change in batch.sectionChanges {
            delegate.controller(view, didChange: change.section, atSectionIndex: change.index, for: change.type)
        }
        for change in batch.objectChanges {
            delegate.controller(view, didChange: change.object, at: change.indexPath, for: change.type, newIndexPath: change.newIndexPath)
        }
        delegate.controllerDidChangeContent(view)
    }

    /// Whether the delegate may take differences: a controller without sections, and a delegate
    /// not known to lack the method or to take snapshots instead.
    private func wantsDifference(_ delegate: any NSFetchedResultsControllerDelegate) -> Bool {
        sectionNameKeyPath == nil && !lacks(.difference, delegate) && implements(.snapshot, delegate) != true
    }

    private func snapshot(of content: FetchedResultsContent, reloading reloaded: [NSManagedObjectID]) -> NSDiffableDataSourceSnapshotReference {
        var snapshot = NSDiffableDataSourceSnapshot<String, NSManagedObjectID>()
        for section in content.sections {
            snapshot.appendSections([section.name])
            snapshot.appendItems(section.objectIDs)
        }
        snapshot.reloadItems(reloaded)
        return NSDiffableDataSourceSnapshotReference(snapshot)
    }

    private static func objects(in info: [AnyHashable: Any], _ key: String) -> [NSManagedObject] {
        switch info[key] {
        case let set as Set<NSManagedObject>: return Array(set)
        case let array as [NSManagedObject]: return array
        case let set as NSSet: return set.allObjects.compactMap { $0 as? NSManagedObject }
        default: return []
        }
    }
}
