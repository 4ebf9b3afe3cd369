/// The objects an undo or redo reinitialized, each with the snapshot events that did, so that
/// `awake(fromSnapshotEvents:)` runs once per object, with all of its events, after the whole
/// object graph is restored.
struct SnapshotEvents {
    private var objects: [NSManagedObject] = []
    private var eventsByObject: [ObjectIdentifier: NSSnapshotEventType] = [:]

    mutating func record(_ event: NSSnapshotEventType, for object: NSManagedObject) {
        let key = ObjectIdentifier(object)
        if eventsByObject[key] == nil { objects.append(object) }
        eventsByObject[key, default: []].insert(event)
    }

    /// Calls `awake(fromSnapshotEvents:)` on each recorded object that holds values.
    func awake() {
        for object in objects where !object.isFault {
            object.awake(fromSnapshotEvents: eventsByObject[ObjectIdentifier(object)] ?? [])
        }
    }
}
