/// An insertion-ordered list of objects holding strong references, with membership kept in a flag
/// of each object so that adding is O(1) without hashing.
///
/// Objects stay in the list until it is compacted; readers check the objects' current state.
struct TrackedObjects: Sequence {
    private let marker: ObjectFlags
    private(set) var objects: [NSManagedObject] = []

    init(marker: ObjectFlags) {
        self.marker = marker
    }

    var isEmpty: Bool { objects.isEmpty }

    mutating func append(_ object: NSManagedObject) {
        guard !object.flags.contains(marker) else { return }
        object.flags.insert(marker)
        objects.append(object)
    }

    /// Keeps only the objects that satisfy `isIncluded`.
    mutating func compact(keeping isIncluded: (NSManagedObject) -> Bool) {
        let marker = self.marker
        objects.removeAll { object in
            if isIncluded(object) { return false }
            object.flags.remove(marker)
            return true
        }
    }

    mutating func removeAll() {
        for object in objects { object.flags.remove(marker) }
        objects = []
    }

    func makeIterator() -> IndexingIterator<[NSManagedObject]> {
        objects.makeIterator()
    }
}
