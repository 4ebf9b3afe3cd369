/// Computes dictionary results in memory from the matching rows, in fetch order: the columns of
/// each row, or of each group with its aggregates, then the having condition, distinct results
/// and the page of the fetch. Stores that cannot compute them in their own query language use it.
struct DictionaryResultBuilder {
    let shape: DictionaryFetchShape
    private let evaluator = PredicateEvaluator()

    init(shape: DictionaryFetchShape) {
        self.shape = shape
    }

    /// The dictionaries for `records` (rows or objects that read like objects), already
    /// filtered and sorted; offset and limit are applied to the dictionaries.
    func results(for records: [AnyObject], plan: FetchPlan) throws -> [NSDictionary] {
        var dictionaries = shape.isGrouped ? try groupedResults(records) : try records.map(values(of:))
        if let having = shape.having {
            dictionaries = try dictionaries.filter { try having.evaluate(with: $0, variables: $0) }
        }
        if shape.returnsDistinctResults {
            dictionaries = Self.distinct(dictionaries)
        }
        return plan.page(of: dictionaries).map { NSDictionary(dictionary: $0) }
    }

    private func values(of record: AnyObject) throws -> [String: Any] {
        var entry: [String: Any] = [:]
        for column in shape.columns {
            entry[column.name] = try column.converted(Self.resultValue(evaluator.value(of: column.expression, with: record)))
        }
        return entry
    }

    /// One dictionary per group, in the order in which groups first appear: the grouped columns
    /// of the group's first record, and each aggregate over the group's records.
    private func groupedResults(_ records: [AnyObject]) throws -> [[String: Any]] {
        var groups: [[PredicateValueKey]: Int] = [:]
        var members: [[AnyObject]] = []
        for record in records {
            let key = try shape.groupBy.map { PredicateValueKey(Self.resultValue(try evaluator.value(of: $0.expression, with: record))) }
            if let index = groups[key] {
                members[index].append(record)
            } else {
                groups[key] = members.count
                members.append([record])
            }
        }
        if members.isEmpty && shape.groupBy.isEmpty {
            members = [[]]
        }
        return try members.map(groupValues(of:))
    }

    private func groupValues(of group: [AnyObject]) throws -> [String: Any] {
        var entry: [String: Any] = [:]
        for column in shape.columns {
            if let (function, argument) = column.aggregate {
                let values = try group.map { try Self.resultValue(evaluator.value(of: argument, with: $0)) ?? NSNull() }
                entry[column.name] = try column.converted(Self.aggregate(function, values))
            } else if let first = group.first {
                entry[column.name] = try column.converted(Self.resultValue(evaluator.value(of: column.expression, with: first)))
            }
        }
        return entry
    }

    /// Aggregates as SQL computes them: over the non-null values, `count:` counting them,
    /// `min:` and `max:` ordering any comparable values (dates and strings too), `sum:` of
    /// nothing 0 and `average:` of nothing null.
    private static func aggregate(_ function: ExpressionFunction, _ values: [Any]) throws -> Any? {
        let present = values.compactMap(ValueUnwrapping.nonNull)
        switch function {
        case .count: return NSNumber(value: present.count)
        case .sum: return try CollectionOperator.sum(present).nsNumber
        case .average: return try CollectionOperator.average(present)
        case .min: return CollectionOperator.extreme(present, keeping: .orderedAscending)
        default: return CollectionOperator.extreme(present, keeping: .orderedDescending)
        }
    }

    /// Objects and rows become their object IDs, as dictionary results hold relationships.
    private static func resultValue(_ value: Any?) -> Any? {
        switch value {
        case let row as StoredRow: row.row.objectID
        case let object as NSManagedObject: object.objectID
        default: value
        }
    }

    private static func distinct(_ dictionaries: [[String: Any]]) -> [[String: Any]] {
        var seen = Set<[String: PredicateValueKey]>()
        return dictionaries.filter { seen.insert($0.mapValues(PredicateValueKey.init)).inserted }
    }
}
