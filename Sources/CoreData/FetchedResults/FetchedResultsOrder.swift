import Foundation

/// The order of a fetched results controller's results: reads an object's key (its sort-key
/// values and section name) and compares keys as the request's sort descriptors do.
struct FetchedResultsOrder {
    let descriptors: [NSSortDescriptor]
    let sectionNameKeyPath: String?
    private let orders: [(Any?, Any?) -> ComparisonResult]

    /// - Throws: the error of a sort descriptor whose selector names no supported comparison.
    init(descriptors: [NSSortDescriptor], sectionNameKeyPath: String?) throws {
        self.descriptors = descriptors
        self.sectionNameKeyPath = sectionNameKeyPath
        orders = try descriptors.map { try $0.valueOrder() }
    }

    /// The key of an object as it is now.
    func key(of object: NSManagedObject) throws -> FetchedResultsKey {
        FetchedResultsKey(values: try descriptors.map { try $0.value(of: object) }, sectionName: sectionName(of: object))
    }

    /// The name of an object's section: its `sectionNameKeyPath` value as a string, the empty
    /// string for nil or without a key path.
    func sectionName(of object: NSManagedObject) -> String {
        guard let sectionNameKeyPath else { return "" }
        return sectionName(ofValue: object.value(forKeyPath: sectionNameKeyPath))
    }

    /// The section name of a section key path's value.
    func sectionName(ofValue value: Any?) -> String {
        switch value {
        case nil, is NSNull: return ""
        case let string as String: return string
        case let value?: return "\(value)"
        }
    }

    /// How two keys compare in the results' order.
    func compare(_ lhs: FetchedResultsKey, _ rhs: FetchedResultsKey) -> ComparisonResult {
        for (index, descriptor) in descriptors.enumerated() {
            let result = orders[index](lhs.values[index], rhs.values[index])
            if result != .orderedSame {
                return (result == .orderedAscending) == descriptor.ascending ? .orderedAscending : .orderedDescending
            }
        }
        return .orderedSame
    }
}
