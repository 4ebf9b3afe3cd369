import Foundation

/// The order of a fetched results controller's results: reads an object's key (its sort-key
/// values and section name) and compares keys as the request's sort descriptors do.
struct FetchedResultsOrder {
    let descriptors: [NSSortDescriptor]
    let sectionNameKeyPath: String?
    /// The key paths whose values make a key, for a query to read: the sort descriptors' keys,
    /// then the section key path unless a descriptor sorts by it. Nil when a descriptor has no
    /// key.
    let keyPaths: [String]?
    /// The position of the section key path's value among the values of `keyPaths`.
    private let sectionValueIndex: Int?
    /// The comparison method of each descriptor; nil for a descriptor with a comparator.
    private let comparisons: [SortComparison?]
    /// The order of each descriptor's values, for descriptors with a comparator.
    private let orders: [(Any?, Any?) -> ComparisonResult]

    /// - Throws: the error of a sort descriptor whose selector names no supported comparison.
    init(descriptors: [NSSortDescriptor], sectionNameKeyPath: String?) throws {
        self.descriptors = descriptors
        self.sectionNameKeyPath = sectionNameKeyPath
        orders = try descriptors.map { try $0.valueOrder() }
        comparisons = descriptors.map { try? $0.selectorComparison() }
        let sortKeys = descriptors.compactMap(\.key)
        if sortKeys.count < descriptors.count {
            keyPaths = nil
            sectionValueIndex = nil
        } else if let sectionNameKeyPath {
            let index = sortKeys.firstIndex(of: sectionNameKeyPath)
            keyPaths = index == nil ? sortKeys + [sectionNameKeyPath] : sortKeys
            sectionValueIndex = index ?? sortKeys.count
        } else {
            keyPaths = sortKeys
            sectionValueIndex = nil
        }
    }

    /// The key of an object as it is now.
    func key(of object: NSManagedObject) throws -> FetchedResultsKey {
        let values = try descriptors.map { descriptor in
            if let key = descriptor.key, let read = Self.attribute(named: key, of: object) { return SortKeyValue(read.value) }
            return SortKeyValue(try descriptor.value(of: object))
        }
        return FetchedResultsKey(values: values, sectionName: sectionName(of: object))
    }

    /// The name of an object's section: its `sectionNameKeyPath` value as a string, the empty
    /// string for nil or without a key path.
    func sectionName(of object: NSManagedObject) -> String {
        guard let sectionNameKeyPath else { return "" }
        if let read = Self.attribute(named: sectionNameKeyPath, of: object) { return sectionName(ofValue: read.value) }
        return sectionName(ofValue: object.value(forKeyPath: sectionNameKeyPath))
    }

    /// A value read without key-value coding.
    private struct AttributeRead {
        let value: Any?
    }

    /// The value of an attribute read straight from the object's slot, or from its row while it
    /// is a fault that holds one, so that reading keys does not turn faults into objects. Nil
    /// (read it by key path instead) for other keys, and for faults without their row.
    private static func attribute(named key: String, of object: NSManagedObject) -> AttributeRead? {
        guard let slot = object.layout.slotIndex(forKey: key), object.layout.tags[slot] == .attribute, !object.layout.lazySlots[slot] else { return nil }
        if !object.isFault { return object.values.indices.contains(slot) ? AttributeRead(value: object.values[slot]) : nil }
        return object.snapshot.map { AttributeRead(value: $0.values[slot]) }
    }

    /// The section name of the values of `keyPaths`, as a query read them.
    func sectionName(ofValues values: [SortKeyValue]) -> String {
        guard let sectionValueIndex else { return "" }
        if case .string(let name) = values[sectionValueIndex] { return name }
        return sectionName(ofValue: values[sectionValueIndex].objectValue)
    }

    /// The section name of a section key path's value.
    func sectionName(ofValue value: Any?) -> String {
        // Strings first: a fetch names every object's section, and most names are strings.
        guard let value else { return "" }
        if let string = value as? String { return string }
        return value is NSNull ? "" : "\(value)"
    }

    /// Whether two keys place an object alike: the same section, and the same place among
    /// other objects.
    func placesAlike(_ lhs: FetchedResultsKey, _ rhs: FetchedResultsKey) -> Bool {
        lhs.sectionName == rhs.sectionName && compare(lhs, rhs) == .orderedSame
    }

    /// How two keys compare in the results' order.
    func compare(_ lhs: FetchedResultsKey, _ rhs: FetchedResultsKey) -> ComparisonResult {
        for (index, descriptor) in descriptors.enumerated() {
            let result = comparisons[index].map { lhs.values[index].order(rhs.values[index], by: $0) }
                ?? orders[index](lhs.values[index].objectValue, rhs.values[index].objectValue)
            if result != .orderedSame {
                return (result == .orderedAscending) == descriptor.ascending ? .orderedAscending : .orderedDescending
            }
        }
        return .orderedSame
    }
}
