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
        let leavingObjects = Self.heldInstances(of: Self.objects(in: info, NSDeletedObjectsKey) + Self.objects(in: info, NSInvalidatedObjectsKey), in: content)
        let leaving = Set(leavingObjects.map(ObjectIdentifier.init))
        let changedItself = leavingObjects + Self.objects(in: info, NSUpdatedObjectsKey) + Self.objects(in: info, NSRefreshedObjectsKey)
        let changed = changedObjects(changedItself, inserted: Self.objects(in: info, NSInsertedObjectsKey), content: content, membership: membership)
        guard !changed.isEmpty, let delegate, let view = delegateView else { return }
        let oldObjectIDs = wantsDifference(delegate) ? content.objectIDs : nil
        let batch = FetchedResultsBatch(applying: changed, to: content) { object in
            !leaving.contains(ObjectIdentifier(object)) && membership.contains(object)
        }
        guard !batch.isEmpty else { return }
        deliver(batch, oldObjectIDs: oldObjectIDs, to: delegate, view: view)
    }

    /// The objects of the fetched entity whose place in the results may have changed, each once:
    /// those the notification lists, except inserted objects the results already hold where
    /// they belong (a merge of rows the last fetch read); and the objects whose sort or section
    /// key paths lead to a listed object of another entity, when their place changed.
    private func changedObjects(_ changedItself: [NSManagedObject], inserted: [NSManagedObject], content: FetchedResultsContent,
                                membership: FetchedResultsMembership) -> [NSManagedObject] {
        var seen = Set<ObjectIdentifier>()
        var changed: [NSManagedObject] = []
        var related: [NSManagedObject] = []
        for (object, isInsert) in changedItself.map({ ($0, false) }) + inserted.map({ ($0, true) }) {
            if !membership.isOfFetchedEntity(object) {
                related.append(object)
            } else if !seen.contains(ObjectIdentifier(object)), !(isInsert && isPlacedAlike(object, in: content)) {
                seen.insert(ObjectIdentifier(object))
                changed.append(object)
            }
        }
        guard !dependencies.isEmpty else { return changed }
        for object in related.flatMap(dependencies.dependents(of:)) where membership.isOfFetchedEntity(object) && !seen.contains(ObjectIdentifier(object)) {
            if content.key(of: object) != nil, !isPlacedAlike(object, in: content), seen.insert(ObjectIdentifier(object)).inserted {
                changed.append(object)
            }
        }
        return changed
    }

    /// Deleted objects, each replaced by the instance the results hold for it when the
    /// notification lists another: a merge reports, as a new instance outside the context, the
    /// delete of an object the context no longer held (one a save found gone), while the
    /// results, and the table that shows them, still hold the forgotten instance.
    private static func heldInstances(of objects: [NSManagedObject], in content: FetchedResultsContent) -> [NSManagedObject] {
        var unfound = Set<NSManagedObjectID>()
        let found = objects.map { object -> NSManagedObject in
            guard object.managedObjectContext == nil, !object.objectID.isTemporaryID else { return object }
            // Found by its row; otherwise only a scan finds the instance.
            guard let path = content.indexPath(of: object) else {
                unfound.insert(object.objectID)
                return object
            }
            return content.heldObject(at: path) ?? object
        }
        guard !unfound.isEmpty else { return found }
        let held = content.heldObjects(withIDs: unfound)
        return found.map { held[$0.objectID] ?? $0 }
    }

    /// Whether the results hold an object where its key places it now.
    private func isPlacedAlike(_ object: NSManagedObject, in content: FetchedResultsContent) -> Bool {
        guard let stored = content.key(of: object), let current = try? content.order.key(of: object) else { return false }
        return content.order.placesAlike(stored, current)
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
