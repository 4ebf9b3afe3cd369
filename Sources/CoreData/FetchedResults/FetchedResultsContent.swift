import Foundation

/// The results of a fetched results controller: sections of objects in order, with the key of
/// every object, kept up to date change by change (binary search, never a refetch).
final class FetchedResultsContent {
    let order: FetchedResultsOrder
    private(set) var sections: [FetchedResultsSection]
    /// The key that placed each object, by object identity: how an object's old position is
    /// found after its values changed.
    private(set) var keys: [ObjectIdentifier: FetchedResultsKey]
    private let indexTitle: (String) -> String?

    /// Content from objects already in order; `indexTitle` gives a new section its index title.
    ///
    /// - Throws: 134060 when a section name comes back after another one: the section key path
    ///   does not follow the sort, as Apple's controller reports it.
    init(order: FetchedResultsOrder, entries: [FetchedResultsSection.Entry], indexTitle: @escaping (String) -> String?) throws {
        self.order = order
        self.indexTitle = indexTitle
        var keys: [ObjectIdentifier: FetchedResultsKey] = [:]
        keys.reserveCapacity(entries.count)
        for entry in entries { keys[ObjectIdentifier(entry.object)] = entry.key }
        self.keys = keys
        guard order.sectionNameKeyPath != nil else {
            sections = [FetchedResultsSection(name: "", indexTitle: indexTitle(""), entries: entries)]
            return
        }
        var sections: [FetchedResultsSection] = []
        var seen = Set<String>()
        for (index, entry) in entries.enumerated() {
            if let last = sections.last, last.name == entry.key.sectionName {
                last.entries.append(entry)
                continue
            }
            guard seen.insert(entry.key.sectionName).inserted else {
                throw CoreDataError.make(
                    NSCoreDataError,
                    "The fetched object at index \(index) has an out of order section name '\(entry.key.sectionName). Objects must be sorted by section name'",
                    userInfo: ["reason": "The fetched object at index \(index) has an out of order section name '\(entry.key.sectionName). Objects must be sorted by section name'"]
                )
            }
            sections.append(FetchedResultsSection(name: entry.key.sectionName, indexTitle: indexTitle(entry.key.sectionName), entries: [entry]))
        }
        self.sections = sections
    }

    var isSectioned: Bool { order.sectionNameKeyPath != nil }

    var objects: [NSManagedObject] {
        sections.flatMap { $0.entries.map(\.object) }
    }

    func contains(_ object: NSManagedObject) -> Bool {
        keys[ObjectIdentifier(object)] != nil
    }

    // MARK: Finding

    /// The index path of an object in the results, or nil.
    func indexPath(of object: NSManagedObject) -> IndexPath? {
        guard let key = keys[ObjectIdentifier(object)], let (section, row) = locate(object, key: key) else { return nil }
        return IndexPath(row: row, section: section)
    }

    /// The section and row of an object placed with `key`.
    private func locate(_ object: NSManagedObject, key: FetchedResultsKey) -> (section: Int, row: Int)? {
        guard let section = section(for: key) else { return nil }
        let entries = sections[section].entries
        var row = lowerBound(of: key, in: entries)
        while row < entries.count, order.compare(entries[row].key, key) == .orderedSame {
            if entries[row].object === object { return (section, row) }
            row += 1
        }
        return entries.firstIndex { $0.object === object }.map { (section, $0) }
    }

    /// The index of the section holding objects with `key`'s section name.
    private func section(for key: FetchedResultsKey) -> Int? {
        guard isSectioned else { return sections.isEmpty ? nil : 0 }
        let candidate = firstSection(notBefore: key)
        for index in [candidate, candidate - 1] where sections.indices.contains(index) && sections[index].name == key.sectionName {
            return index
        }
        return sections.firstIndex { $0.name == key.sectionName }
    }

    /// The first section whose last object does not come before `key`.
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

    private func lowerBound(of key: FetchedResultsKey, in entries: [FetchedResultsSection.Entry]) -> Int {
        var low = 0, high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if order.compare(entries[middle].key, key) == .orderedAscending { low = middle + 1 } else { high = middle }
        }
        return low
    }

    private func upperBound(of key: FetchedResultsKey, in entries: [FetchedResultsSection.Entry]) -> Int {
        var low = 0, high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if order.compare(entries[middle].key, key) == .orderedDescending { high = middle } else { low = middle + 1 }
        }
        return low
    }

    // MARK: Changing

    /// Removes an object; a section left empty goes too (except the single section of an
    /// unsectioned controller). Returns whether the object was in the results.
    @discardableResult
    func remove(_ object: NSManagedObject) -> Bool {
        guard let key = keys.removeValue(forKey: ObjectIdentifier(object)), let (section, row) = locate(object, key: key) else { return false }
        sections[section].entries.remove(at: row)
        if sections[section].entries.isEmpty && isSectioned {
            sections.remove(at: section)
        }
        return true
    }

    /// Inserts an object at the place its key gives (after objects with an equal key), in its
    /// section, which is created when no section has its name yet.
    func insert(_ object: NSManagedObject, key: FetchedResultsKey) {
        keys[ObjectIdentifier(object)] = key
        let entry = FetchedResultsSection.Entry(object: object, key: key)
        guard isSectioned else {
            if sections.isEmpty { sections = [FetchedResultsSection(name: "", indexTitle: indexTitle(""), entries: [])] }
            sections[0].entries.insert(entry, at: upperBound(of: key, in: sections[0].entries))
            return
        }
        if let section = section(for: key) {
            sections[section].entries.insert(entry, at: upperBound(of: key, in: sections[section].entries))
            return
        }
        let position = firstSection(notBefore: key)
        sections.insert(FetchedResultsSection(name: key.sectionName, indexTitle: indexTitle(key.sectionName), entries: [entry]), at: position)
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
