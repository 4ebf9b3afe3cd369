/// Sorting in memory by sort descriptors, reading values through key-value coding: used for
/// fetch results merged with unsaved changes and by the in-memory store.
enum SortOrdering {
    /// The elements in the order the descriptors give (stable for equal keys).
    ///
    /// - Throws: the error of a key the elements do not have, or of a descriptor whose selector
    ///   names no supported comparison method.
    static func sorted<Element>(_ elements: [Element], by descriptors: [NSSortDescriptor]) throws -> [Element] {
        let orders = try descriptors.map { try $0.valueOrder() }
        let keys = try elements.map { element in
            try descriptors.map { try $0.value(of: element) }
        }
        let order = keys.indices.sorted { lhs, rhs in
            for (index, descriptor) in descriptors.enumerated() {
                let result = orders[index](keys[lhs][index], keys[rhs][index])
                if result != .orderedSame { return (result == .orderedAscending) == descriptor.ascending }
            }
            return lhs < rhs
        }
        return order.map { elements[$0] }
    }
}
