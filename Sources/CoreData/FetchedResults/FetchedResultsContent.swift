import Foundation

/// The results of a fetched results controller: sections of objects in order, kept up to date
/// change by change (binary search, never a refetch).
///
/// Each object's key is read when a search first needs it and kept, so that an object that
/// changes is found where its old key put it. Objects whose key was never read are found by
/// scanning their section (whose name is kept for every object).
final class FetchedResultsContent {
    let order: FetchedResultsOrder
    private(set) var sections: [FetchedResultsSection] {
        didSet { if sections.count != oldValue.count { sectionIndexByName = nil } }
    }
    /// The index of each section by name, built on first use after the sections change.
    private var sectionIndexByName: [String: Int]?
    /// The section name of every object, by object identity.
    private var sectionNames: [ObjectIdentifier: String]
    private let indexTitle: (String) -> String?

    /// Content from sections of objects already in order; `indexTitle` gives each section its
    /// index title.
    init(order: FetchedResultsOrder, sections runs: [(name: String, entries: [FetchedResultsSection.Entry])], indexTitle: @escaping (String) -> String?) {
        self.order = order
        self.indexTitle = indexTitle
        var sectionNames: [ObjectIdentifier: String] = [:]
        sectionNames.reserveCapacity(runs.reduce(0) { $0 + $1.entries.count })
        for run in runs {
            for entry in run.entries { sectionNames[ObjectIdentifier(entry.object)] = run.name }
        }
        self.sectionNames = sectionNames
        sections = runs.map { FetchedResultsSection(name: $0.name, indexTitle: indexTitle($0.name), entries: $0.entries) }
        if order.sectionNameKeyPath == nil && sections.isEmpty {
            sections = [FetchedResultsSection(name: "", indexTitle: indexTitle(""), entries: [])]
        }
    }

    var isSectioned: Bool { order.sectionNameKeyPath != nil }

    var objects: [NSManagedObject] {
        sections.flatMap { $0.entries.map(\.object) }
    }

    func contains(_ object: NSManagedObject) -> Bool {
        sectionNames[ObjectIdentifier(object)] != nil
    }

    // MARK: Finding

    /// The index path of an object in the results, or nil.
    func indexPath(of object: NSManagedObject) -> IndexPath? {
        guard let name = sectionNames[ObjectIdentifier(object)], let section = sectionIndex(named: name) else { return nil }
        if let row = row(of: object, inSection: section) { return IndexPath(row: row, section: section) }
        return nil
    }

    /// The rows of objects in the results, found by one scan of each section that holds some.
    func indexPaths(of objects: [NSManagedObject]) -> [ObjectIdentifier: IndexPath] {
        var wanted: [Int: Set<ObjectIdentifier>] = [:]
        for object in objects {
            guard let name = sectionNames[ObjectIdentifier(object)], let section = sectionIndex(named: name) else { continue }
            wanted[section, default: []].insert(ObjectIdentifier(object))
        }
        var found: [ObjectIdentifier: IndexPath] = [:]
        for (section, identities) in wanted {
            for (row, entry) in sections[section].entries.enumerated() where identities.contains(ObjectIdentifier(entry.object)) {
                found[ObjectIdentifier(entry.object)] = IndexPath(row: row, section: section)
            }
        }
        return found
    }

    /// The row of an object in a section: by binary search when the object has no unprocessed
    /// changes (its key is then the one that placed it), else by scan.
    private func row(of object: NSManagedObject, inSection section: Int) -> Int? {
        if !object.hasChanges, let key = try? order.key(of: object) {
            var row = lowerBound(of: key, inSection: section)
            while row < sections[section].entries.count, order.compare(self.key(at: section, row), key) == .orderedSame {
                if sections[section].entries[row].object === object { return row }
                row += 1
            }
        }
        return sections[section].entries.firstIndex { $0.object === object }
    }

    private func sectionIndex(named name: String) -> Int? {
        guard isSectioned else { return sections.isEmpty ? nil : 0 }
        if let sectionIndexByName { return sectionIndexByName[name] }
        var indexes: [String: Int] = [:]
        for (index, section) in sections.enumerated() { indexes[section.name] = index }
        sectionIndexByName = indexes
        return indexes[name]
    }

    /// The key of the object at a row, read and kept on first use.
    private func key(at section: Int, _ row: Int) -> FetchedResultsKey {
        if let key = sections[section].entries[row].key { return key }
        let object = sections[section].entries[row].object
        let key = (try? order.key(of: object)) ?? FetchedResultsKey(values: order.descriptors.map { _ in nil }, sectionName: sections[section].name)
        sections[section].entries[row].key = key
        return key
    }

    /// The first section whose last object does not come before `key`.
    private func firstSection(notBefore key: FetchedResultsKey) -> Int {
        var low = 0, high = sections.count
        while low < high {
            let middle = (low + high) / 2
            let last = sections[middle].entries.count - 1
            if last >= 0, order.compare(self.key(at: middle, last), key) == .orderedAscending {
                low = middle + 1
            } else {
                high = middle
            }
        }
        return low
    }

    private func lowerBound(of key: FetchedResultsKey, inSection section: Int) -> Int {
        var low = 0, high = sections[section].entries.count
        while low < high {
            let middle = (low + high) / 2
            if order.compare(self.key(at: section, middle), key) == .orderedAscending { low = middle + 1 } else { high = middle }
        }
        return low
    }

    private func upperBound(of key: FetchedResultsKey, inSection section: Int) -> Int {
        var low = 0, high = sections[section].entries.count
        while low < high {
            let middle = (low + high) / 2
            if order.compare(self.key(at: section, middle), key) == .orderedDescending { high = middle } else { low = middle + 1 }
        }
        return low
    }

    // MARK: Changing

    /// Removes objects found at their index paths; a section left empty goes too (except the
    /// single section of an unsectioned controller).
    func remove(_ placed: [(object: NSManagedObject, path: IndexPath)]) {
        for (object, path) in placed.sorted(by: { $0.path > $1.path }) {
            sectionNames[ObjectIdentifier(object)] = nil
            sections[path.section].entries.remove(at: path.row)
        }
        if isSectioned { sections.removeAll { $0.entries.isEmpty } }
    }

    /// Inserts an object at the place its key gives (after objects with an equal key), in its
    /// section, which is created when no section has its name yet.
    func insert(_ object: NSManagedObject, key: FetchedResultsKey) {
        sectionNames[ObjectIdentifier(object)] = key.sectionName
        let entry = FetchedResultsSection.Entry(object: object, key: key)
        guard isSectioned else {
            if sections.isEmpty { sections = [FetchedResultsSection(name: "", indexTitle: indexTitle(""), entries: [])] }
            sections[0].entries.insert(entry, at: upperBound(of: key, inSection: 0))
            return
        }
        if let section = sectionIndex(named: key.sectionName) {
            sections[section].entries.insert(entry, at: upperBound(of: key, inSection: section))
            return
        }
        sections.insert(FetchedResultsSection(name: key.sectionName, indexTitle: indexTitle(key.sectionName), entries: [entry]),
                        at: firstSection(notBefore: key))
    }

    /// The index path of an object just inserted with `key`.
    ///
    /// The scan goes past the objects with an equal key: an object whose key was never read and
    /// that has unprocessed changes reads a key other than the one that placed it.
    func indexPath(ofInserted object: NSManagedObject, key: FetchedResultsKey) -> IndexPath? {
        guard let section = sectionIndex(named: key.sectionName) else { return nil }
        let entries = sections[section].entries
        return entries[lowerBound(of: key, inSection: section)...].firstIndex { $0.object === object }.map { IndexPath(row: $0, section: section) }
    }

    /// The position of every section's first object among all objects.
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
