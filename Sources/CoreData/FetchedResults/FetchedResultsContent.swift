import Foundation

/// The results of a fetched results controller: sections of entries in order, kept up to date
/// change by change (binary search, never a refetch).
///
/// Every entry keeps the key that placed it, and the content keeps each entry's key by object or
/// by row too, so that an object that changed is found where its old key put it.
final class FetchedResultsContent {
    typealias Entry = FetchedResultsSection.Entry

    let order: FetchedResultsOrder
    /// The rows of the fetch's store, for entries that are rows; nil when the fetch made objects.
    let rows: FetchedResultsRows?
    private(set) var sections: [FetchedResultsSection] {
        didSet { if sections.count != oldValue.count { sectionIndexByName = nil } }
    }
    /// The index of each section by name, built on first use after the sections change.
    private var sectionIndexByName: [String: Int]?
    /// The keys of entries without a row, by object.
    private var keysByObject: [ObjectIdentifier: FetchedResultsKey] = [:]
    /// The keys of entries with a row, by primary key.
    private var keysByRow: [Int64: FetchedResultsKey] = [:]
    private let indexTitle: (String) -> String?

    /// Content from sections of entries already in order; `indexTitle` gives each section its
    /// index title.
    init(order: FetchedResultsOrder, sections runs: [(name: String, entries: [Entry])], rows: FetchedResultsRows?,
         indexTitle: @escaping (String) -> String?) {
        self.order = order
        self.rows = rows
        self.indexTitle = indexTitle
        sections = runs.map { FetchedResultsSection(name: $0.name, indexTitle: indexTitle($0.name), entries: $0.entries, rows: rows) }
        if order.sectionNameKeyPath == nil && sections.isEmpty {
            sections = [makeSection(named: "", entries: [])]
        }
        keysByRow.reserveCapacity(rows == nil ? 0 : runs.reduce(0) { $0 + $1.entries.count })
        for run in runs {
            // By field, so that no entry is copied whole.
            for index in run.entries.indices {
                if let row = run.entries[index].row {
                    keysByRow[row.primaryKey] = run.entries[index].key
                } else if let object = run.entries[index].object {
                    keysByObject[ObjectIdentifier(object)] = run.entries[index].key
                }
            }
        }
    }

    var isSectioned: Bool { order.sectionNameKeyPath != nil }

    /// Every object, made where entries are still rows.
    var objects: [NSManagedObject] {
        sections.flatMap(\.managedObjects)
    }

    /// Every object's ID, without making objects.
    var objectIDs: [NSManagedObjectID] {
        sections.flatMap(\.objectIDs)
    }

    // MARK: Finding

    /// The key that placed an object in the results, or nil when it is not in them; `row` is the
    /// object's row among the fetched rows, if any.
    private func key(of object: NSManagedObject, row: FetchedResultsRows.Row?) -> FetchedResultsKey? {
        if let key = keysByObject[ObjectIdentifier(object)] { return key }
        guard let row else { return nil }
        return keysByRow[row.primaryKey]
    }

    /// The key that placed an object in the results, or nil when it is not in them.
    func key(of object: NSManagedObject) -> FetchedResultsKey? {
        key(of: object, row: rows?.row(of: object))
    }

    /// The object the entry at an index path holds, if it was made.
    func heldObject(at path: IndexPath) -> NSManagedObject? {
        sections[path.section].entries[path.row].object
    }

    /// The objects the results hold under some object IDs, by ID: one scan of the entries.
    func heldObjects(withIDs objectIDs: Set<NSManagedObjectID>) -> [NSManagedObjectID: NSManagedObject] {
        var held: [NSManagedObjectID: NSManagedObject] = [:]
        for section in sections {
            for entry in section.entries {
                if let object = entry.object, objectIDs.contains(object.objectID) { held[object.objectID] = object }
            }
        }
        return held
    }

    /// The index path of an object in the results, or nil: a binary search for its key, then a
    /// look at the entries with an equal key.
    func indexPath(of object: NSManagedObject) -> IndexPath? {
        let row = rows?.row(of: object)
        guard let key = key(of: object, row: row), let section = sectionIndex(named: key.sectionName) else { return nil }
        let entries = sections[section].entries
        var index = lowerBound(of: key, inSection: section)
        while index < entries.count, order.compare(entries[index].key, key) == .orderedSame {
            if entries[index].holds(object, row: row) { return IndexPath(row: index, section: section) }
            index += 1
        }
        // Keys that do not order consistently (NaN) defeat the search; the section still has it.
        return entries.firstIndex { $0.holds(object, row: row) }.map { IndexPath(row: $0, section: section) }
    }

    private func sectionIndex(named name: String) -> Int? {
        guard isSectioned else { return sections.isEmpty ? nil : 0 }
        if let sectionIndexByName { return sectionIndexByName[name] }
        var indexes: [String: Int] = [:]
        for (index, section) in sections.enumerated() { indexes[section.name] = index }
        sectionIndexByName = indexes
        return indexes[name]
    }

    /// The first section whose last entry does not come before `key`.
    private func firstSection(notBefore key: FetchedResultsKey) -> Int {
        var low = 0, high = sections.count
        while low < high {
            let middle = (low + high) / 2
            if let last = sections[middle].entries.last, order.compare(last.key, key) == .orderedAscending {
                low = middle + 1
            } else {
                high = middle
            }
        }
        return low
    }

    private func lowerBound(of key: FetchedResultsKey, inSection section: Int) -> Int {
        let entries = sections[section].entries
        var low = 0, high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if order.compare(entries[middle].key, key) == .orderedAscending { low = middle + 1 } else { high = middle }
        }
        return low
    }

    private func upperBound(of key: FetchedResultsKey, inSection section: Int) -> Int {
        let entries = sections[section].entries
        var low = 0, high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if order.compare(entries[middle].key, key) == .orderedDescending { high = middle } else { low = middle + 1 }
        }
        return low
    }

    // MARK: Changing

    /// Removes the entries at index paths; a section left empty goes too (except the single
    /// section of an unsectioned controller).
    func remove(at paths: [IndexPath]) {
        for path in paths.sorted(by: >) {
            forget(sections[path.section].entries.remove(at: path.row))
        }
        if isSectioned { sections.removeAll { $0.entries.isEmpty } }
    }

    /// Inserts an object at the place its key gives (after entries with an equal key), in its
    /// section, which is created when no section has its name yet.
    func insert(_ object: NSManagedObject, key: FetchedResultsKey) {
        let entry = Entry(object: object, row: rows?.row(of: object), key: key)
        remember(entry)
        guard isSectioned else {
            if sections.isEmpty { sections = [makeSection(named: "", entries: [])] }
            sections[0].entries.insert(entry, at: upperBound(of: key, inSection: 0))
            return
        }
        if let section = sectionIndex(named: key.sectionName) {
            sections[section].entries.insert(entry, at: upperBound(of: key, inSection: section))
            return
        }
        sections.insert(makeSection(named: key.sectionName, entries: [entry]), at: firstSection(notBefore: key))
    }

    private func makeSection(named name: String, entries: [Entry]) -> FetchedResultsSection {
        FetchedResultsSection(name: name, indexTitle: indexTitle(name), entries: entries, rows: rows)
    }

    private func remember(_ entry: Entry) {
        if let row = entry.row {
            keysByRow[row.primaryKey] = entry.key
        } else if let object = entry.object {
            keysByObject[ObjectIdentifier(object)] = entry.key
        }
    }

    private func forget(_ entry: Entry) {
        if let row = entry.row {
            keysByRow[row.primaryKey] = nil
        } else if let object = entry.object {
            keysByObject[ObjectIdentifier(object)] = nil
        }
    }

    /// The position of every section's first entry among all entries.
    func sectionStarts() -> [Int] {
        var starts: [Int] = []
        starts.reserveCapacity(sections.count)
        var total = 0
        for section in sections {
            starts.append(total)
            total += section.entries.count
        }
        return starts
    }
}
