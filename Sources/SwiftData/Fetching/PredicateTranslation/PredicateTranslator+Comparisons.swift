internal import CoreData

/// Comparisons that answer as Swift does.
///
/// SQL's comparisons with NULL are unknown, and so are their negations; Swift's comparisons
/// with nil are true or false (`nil == nil`, `nil != "a"`). Each comparison of a value that
/// may be nil therefore tests for nil itself, so that the store's answer is Swift's, also
/// under `!`.
extension PredicateTranslator {
    typealias Operator = NSComparisonPredicate.Operator

    /// The comparison of two terms, for each value each may have.
    func compare(_ left: PredicateTerm, _ right: PredicateTerm, _ type: Operator) throws -> NSPredicate {
        try PredicateTerm.decide([left, right]) { values in try compareValues(values[0], values[1], type) }
    }

    /// Whether a collection contains an element: a constant collection or a to-many relationship.
    func membership(of element: PredicateTerm, in collection: PredicateTerm) throws -> NSPredicate {
        try PredicateTerm.decide([element, collection]) { values in
            let (element, collection) = (values[0], values[1])
            let collectionHoldsNil = Self.holdsNil(collection)
            if element.isNil { return NSPredicate(value: collectionHoldsNil) }
            let test = NSComparisonPredicate(
                leftExpression: try element.expression(), rightExpression: try collection.expression(), modifier: .direct, type: .in, options: [])
            // `x IN {…, nil}` tests for nil itself; without a nil, a nil `x` is in nothing.
            guard element.isOptional, !collectionHoldsNil else { return test }
            return NSCompoundPredicate(andPredicateWithSubpredicates: [try isPresent(element), test])
        }
    }

    private func compareValues(_ left: PredicateTerm, _ right: PredicateTerm, _ type: Operator) throws -> NSPredicate {
        if type == .equalTo {
            return try equality(left, right)
        }
        if type == .notEqualTo {
            if case .value = left.kind, case .value = right.kind, !left.isOptional, !right.isOptional {
                return try plain(left, right, .notEqualTo)
            }
            return NSCompoundPredicate(notPredicateWithSubpredicate: try equality(left, right))
        }
        // Swift orders and searches only values that are there.
        if left.isNil || right.isNil { return NSPredicate(value: false) }
        var conditions = try [left, right].filter(\.isOptional).map(isPresent)
        if type == .contains || type == .beginsWith {
            if let needle = right.constantValue as? String, needle.isEmpty {
                // Swift finds the empty string in every string; the store's search finds it in none.
                return conditions.isEmpty ? NSPredicate(value: true) : NSCompoundPredicate(andPredicateWithSubpredicates: conditions)
            }
            if !right.isConstant {
                let search = try plain(left, right, type)
                let emptyNeedle = try equality(right, PredicateTerm(NSExpression(forConstantValue: ""), type: String.self))
                conditions.append(NSCompoundPredicate(orPredicateWithSubpredicates: [emptyNeedle, search]))
                return NSCompoundPredicate(andPredicateWithSubpredicates: conditions)
            }
        }
        conditions.append(try plain(left, right, type))
        return conditions.count == 1 ? conditions[0] : NSCompoundPredicate(andPredicateWithSubpredicates: conditions)
    }

    /// Whether two values are equal, as Swift answers: nil equals nil only, and conditions are
    /// equal when both hold or neither does.
    private func equality(_ left: PredicateTerm, _ right: PredicateTerm) throws -> NSPredicate {
        switch (left.isNil, right.isNil) {
        case (true, true): return NSPredicate(value: true)
        case (true, false): return try isAbsent(right)
        case (false, true): return try isAbsent(left)
        case (false, false): break
        }
        if case .condition = left.kind { return try sameTruth(left, right) }
        if case .condition = right.kind { return try sameTruth(left, right) }
        let equal = try plain(left, right, .equalTo)
        switch (left.isOptional, right.isOptional) {
        case (false, false):
            return equal
        case (true, false), (false, true):
            let optional = left.isOptional ? left : right
            return NSCompoundPredicate(andPredicateWithSubpredicates: [try isPresent(optional), equal])
        case (true, true):
            let bothPresent = NSCompoundPredicate(andPredicateWithSubpredicates: [try isPresent(left), try isPresent(right), equal])
            let bothAbsent = NSCompoundPredicate(andPredicateWithSubpredicates: [try isAbsent(left), try isAbsent(right)])
            return NSCompoundPredicate(orPredicateWithSubpredicates: [bothPresent, bothAbsent])
        }
    }

    /// `(a AND b) OR (NOT a AND NOT b)`.
    private func sameTruth(_ left: PredicateTerm, _ right: PredicateTerm) throws -> NSPredicate {
        let (a, b) = (try left.condition(), try right.condition())
        let both = NSCompoundPredicate(andPredicateWithSubpredicates: [a, b])
        let neither = NSCompoundPredicate(andPredicateWithSubpredicates: [
            NSCompoundPredicate(notPredicateWithSubpredicate: a), NSCompoundPredicate(notPredicateWithSubpredicate: b),
        ])
        return NSCompoundPredicate(orPredicateWithSubpredicates: [both, neither])
    }

    /// `value != nil`: true or false in the store, never unknown.
    private func isPresent(_ term: PredicateTerm) throws -> NSPredicate {
        NSComparisonPredicate(leftExpression: try term.expression(), rightExpression: NSExpression(forConstantValue: nil), modifier: .direct, type: .notEqualTo, options: [])
    }

    /// `value == nil`; a condition is never nil.
    private func isAbsent(_ term: PredicateTerm) throws -> NSPredicate {
        if case .condition = term.kind { return NSPredicate(value: false) }
        return NSComparisonPredicate(leftExpression: try term.expression(), rightExpression: NSExpression(forConstantValue: nil), modifier: .direct, type: .equalTo, options: [])
    }

    /// The engine's comparison of two values, as SQL answers it.
    private func plain(_ left: PredicateTerm, _ right: PredicateTerm, _ type: Operator) throws -> NSPredicate {
        NSComparisonPredicate(leftExpression: try left.expression(), rightExpression: try right.expression(), modifier: .direct, type: type, options: [])
    }

    /// Whether a constant collection holds nil (an empty optional, inside `Any`).
    private static func holdsNil(_ collection: PredicateTerm) -> Bool {
        let elements = collection.constantValue as? [Any] ?? []
        return elements.contains { ($0 as? any OptionalValue).map { $0.wrappedValue == nil } ?? false }
    }
}
