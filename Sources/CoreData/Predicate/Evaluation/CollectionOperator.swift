/// Key-value coding's collection operators (`@count`, `@sum`, `@avg`, `@min`, `@max` and the
/// union operators), applied to a collection and the key path to their right.
enum CollectionOperator: String {
    case count
    case sum
    case avg
    case min
    case max
    case unionOfObjects
    case distinctUnionOfObjects
    case unionOfArrays
    case distinctUnionOfArrays
    case distinctUnionOfSets

    /// The operator name of a key path component such as `@count`, or nil for a plain key.
    static func name(of component: String) -> String? {
        component.hasPrefix("@") ? String(component.dropFirst()) : nil
    }

    /// Applies the operator `name` to the elements of `collection`, each read through the key path
    /// `rest` first (`@count` ignores `rest`, as key-value coding does). A nil collection gives nil.
    static func apply(_ name: String, to collection: Any?, rest: ArraySlice<String>) throws -> Any? {
        guard let collectionOperator = CollectionOperator(rawValue: name) else {
            throw PredicateEvaluationError.unknownKey("@" + name, typeName: "collection")
        }
        guard !ValueUnwrapping.isNull(collection) else { return nil }
        guard let elements = CollectionElements.elements(of: collection) else {
            let typeName = String(describing: type(of: collection ?? NSNull()))
            throw PredicateEvaluationError.unknownKey("@" + name, typeName: typeName)
        }
        return try collectionOperator.aggregate(elements, rest: rest)
    }

    /// Aggregates the elements, each read through the key path `rest` first; nil values are
    /// skipped, except by `@count`, which counts the elements themselves.
    private func aggregate(_ elements: [Any], rest: ArraySlice<String>) throws -> Any? {
        let values = {
            try elements.compactMap { try ValueUnwrapping.nonNull(KeyValueReader.value(atKeyPath: rest, of: $0)) }
        }
        switch self {
        case .count: return NSNumber(value: elements.count)
        case .sum: return try Self.sum(values()).nsNumber
        case .avg: return try Self.average(values())
        case .min: return try Self.extreme(values(), keeping: .orderedAscending)
        case .max: return try Self.extreme(values(), keeping: .orderedDescending)
        case .unionOfObjects: return try values()
        case .distinctUnionOfObjects: return try Self.distinct(values())
        case .unionOfArrays: return try Self.flattened(values())
        case .distinctUnionOfArrays, .distinctUnionOfSets: return try Self.distinct(Self.flattened(values()))
        }
    }

    /// The sum, as an integer while every addend is one and the sum fits, as a double otherwise.
    static func sum(_ values: [Any]) throws -> PredicateNumber {
        var total = PredicateNumber.integer(0)
        for value in values {
            guard let number = PredicateNumber(value) else {
                throw PredicateEvaluationError.invalidOperand("@sum needs numbers, found \(value)")
            }
            total = add(total, number)
        }
        return total
    }

    private static func add(_ lhs: PredicateNumber, _ rhs: PredicateNumber) -> PredicateNumber {
        if case .integer(let lhs) = lhs, case .integer(let rhs) = rhs {
            let (sum, overflow) = lhs.addingReportingOverflow(rhs)
            if !overflow { return .integer(sum) }
        }
        return .floating(lhs.doubleValue + rhs.doubleValue)
    }

    static func average(_ values: [Any]) throws -> Any? {
        guard !values.isEmpty else { return nil }
        return NSNumber(value: try sum(values).doubleValue / Double(values.count))
    }

    static func extreme(_ values: [Any], keeping order: ComparisonResult) -> Any? {
        values.dropFirst().reduce(values.first) { best, value in
            ValueComparison.order(value, best) == order ? value : best
        }
    }

    private static func flattened(_ values: [Any]) -> [Any] {
        values.flatMap { CollectionElements.elements(of: $0) ?? [$0] }
    }

    static func distinct(_ values: [Any]) -> [Any] {
        values.reduce(into: []) { unique, value in
            if !unique.contains(where: { ValueComparison.isEqual($0, value) }) {
                unique.append(value)
            }
        }
    }
}
