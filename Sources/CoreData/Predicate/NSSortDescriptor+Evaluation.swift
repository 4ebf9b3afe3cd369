// Reading and ordering values, shared by `compare(_:to:)`, sorting in memory (`SortOrdering`)
// and the SQLite store's ORDER BY terms.
extension NSSortDescriptor {
    /// The key path split into its components; nil when the descriptor has no key.
    var keyPathComponents: [String]? {
        key.map { $0.split(separator: ".", omittingEmptySubsequences: false).map(String.init) }
    }

    /// The value the descriptor orders `object` by: the value at its key path, else at its Swift
    /// key path, else the object itself.
    ///
    /// - Throws: the error of a key the object does not have.
    func value(of object: Any) throws -> Any? {
        if let keyPathComponents {
            return try KeyValueReader.value(atKeyPath: keyPathComponents[...], of: object)
        }
        if let keyPath {
            // An object of another type than the key path's root reads as nil.
            return object[keyPath: keyPath]
        }
        return object
    }

    /// The ascending order of two values, as the descriptor's comparison gives it: nil first,
    /// then the comparison method or comparator block.
    ///
    /// - Throws: an error naming the selector when the descriptor's method is not supported.
    func valueOrder() throws -> (Any?, Any?) -> ComparisonResult {
        switch comparison {
        case .selector:
            return try selectorComparison().order
        case .comparator(let box):
            let comparator = box.comparator
            return { lhs, rhs in
                switch (ValueUnwrapping.nonNull(lhs), ValueUnwrapping.nonNull(rhs)) {
                case (nil, nil): .orderedSame
                case (nil, _): .orderedAscending
                case (_, nil): .orderedDescending
                case (let lhs?, let rhs?): comparator(lhs, rhs)
                }
            }
        }
    }

    /// The comparison method the descriptor names; what a SQLite fetch can order by.
    ///
    /// - Throws: for a comparator block, or a selector that names no supported method, an error
    ///   in `NSCocoaErrorDomain` with the message Apple's SQLite store gives for them.
    func selectorComparison() throws -> SortComparison {
        switch comparison {
        case .comparator:
            throw CoreDataError.invalidRequest("unsupported NSSortDescriptor (comparator blocks are not supported): \(self)")
        case .selector(let selector):
            guard let comparison = SortComparison(selector) else {
                throw CoreDataError.invalidRequest("unsupported NSSortDescriptor selector: \(selector) in \(self)")
            }
            return comparison
        }
    }
}
