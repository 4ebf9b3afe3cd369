/// Sorting in memory by sort descriptors, reading values through key-value coding: used for
/// fetch results merged with unsaved changes and by the in-memory store.
enum SortOrdering {
    /// The elements in the order the descriptors give (stable for equal keys).
    ///
    /// - Throws: the error of a key the elements do not have.
    static func sorted<Element>(_ elements: [Element], by descriptors: [NSSortDescriptor]) throws -> [Element] {
        let keys = try elements.map { element in
            try descriptors.map { descriptor -> Any? in
                guard let key = descriptor.key else { return element }
                return try KeyValueReader.value(atKeyPath: key.split(separator: ".").map(String.init), of: element)
            }
        }
        let order = keys.indices.sorted { lhs, rhs in
            for (index, descriptor) in descriptors.enumerated() {
                var result = ValueComparison.sortOrder(keys[lhs][index], keys[rhs][index])
                if !descriptor.ascending { result = ComparisonResult(rawValue: -result.rawValue) ?? result }
                if result != .orderedSame { return result == .orderedAscending }
            }
            return lhs < rhs
        }
        return order.map { elements[$0] }
    }
}
