/// What a `.dictionaryResultType` fetch returns, resolved against the entity: the columns of each
/// dictionary, the grouping, the condition on groups and whether duplicates are dropped.
///
/// Apple's rules are checked here, before any store runs: key paths lead through to-one
/// relationships only, and with `propertiesToGroupBy` every fetched column is either grouped by
/// or an aggregate.
package struct DictionaryFetchShape {
    let columns: [DictionaryColumn]
    let groupBy: [DictionaryColumn]
    /// The condition on each result dictionary; its keys and `$variables` name columns.
    let having: NSPredicate?
    let returnsDistinctResults: Bool

    /// Whether the results are groups: grouped by columns, or one group of all matching objects
    /// when aggregates are fetched without grouping.
    var isGrouped: Bool {
        !groupBy.isEmpty || columns.contains { $0.aggregate != nil }
    }

    init<T>(request: NSFetchRequest<T>, entity: NSEntityDescription) throws {
        let fetched = try (request.propertiesToFetch ?? []).map { try DictionaryColumn($0, entity: entity) }
        columns = fetched.isEmpty ? Self.allAttributes(of: entity) : fetched
        groupBy = try (request.propertiesToGroupBy ?? []).map { try DictionaryColumn($0, entity: entity) }
        having = request.havingPredicate
        returnsDistinctResults = request.returnsDistinctResults
        try checkGrouping()
        if let error = having?.parseError {
            throw error
        }
    }

    private static func allAttributes(of entity: NSEntityDescription) -> [DictionaryColumn] {
        entity.layout.persistentAttributeSlots.map { slot in
            let name = entity.layout.slots[slot].name
            return DictionaryColumn(name: name, expression: .keyPath(base: nil, components: [name]), resultType: .undefinedAttributeType)
        }
    }

    private func checkGrouping() throws {
        if having != nil && groupBy.isEmpty {
            throw CoreDataError.invalidRequest("A fetch request with a havingPredicate must also have propertiesToGroupBy.")
        }
        // Without grouping, aggregates make one group of every row, which has no single value
        // for a plain column (SQLite would pick one row's, memory another's).
        guard !groupBy.isEmpty || columns.contains(where: { $0.aggregate != nil }) else { return }
        let grouped = Set(groupBy.map(\.expression))
        for column in columns where column.aggregate == nil && !grouped.contains(column.expression) {
            throw CoreDataError.invalidRequest(
                "The fetched property '\(column.name)' is neither in propertiesToGroupBy nor an aggregate: SELECT clauses in queries with GROUP BY components can only contain properties named in the GROUP BY or aggregate functions."
            )
        }
    }
}

/// One column of dictionary results: its key in each dictionary and the expression that computes
/// it, which is a key path for properties named in `propertiesToFetch`.
struct DictionaryColumn {
    let name: String
    let expression: ExpressionNode
    /// The type the value is converted to, or `.undefinedAttributeType` to keep it as computed.
    let resultType: NSAttributeType

    /// The aggregate a column computes over a group, and the expression it aggregates.
    var aggregate: (function: ExpressionFunction, argument: ExpressionNode)? {
        guard case .function(let function, let arguments) = expression, arguments.count == 1,
              [.sum, .count, .min, .max, .average].contains(function) else { return nil }
        return (function, arguments[0])
    }

    init(name: String, expression: ExpressionNode, resultType: NSAttributeType) {
        self.name = name
        self.expression = expression
        self.resultType = resultType
    }

    /// Resolves an entry of `propertiesToFetch` or `propertiesToGroupBy`: a property name or key
    /// path, an `NSPropertyDescription`, or an `NSExpressionDescription`.
    init(_ property: Any, entity: NSEntityDescription) throws {
        switch property {
        case let description as NSExpressionDescription:
            guard let expression = description.expression else {
                throw CoreDataError.invalidRequest("The expression description '\(description.name)' has no expression.")
            }
            if let error = expression.parseError {
                throw error
            }
            self.init(name: description.name, expression: expression.node, resultType: description.expressionResultType)
        case let description as NSPropertyDescription:
            try self.init(keyPath: description.name, entity: entity)
        case let keyPath as String:
            try self.init(keyPath: keyPath, entity: entity)
        default:
            throw CoreDataError.invalidRequest("propertiesToFetch and propertiesToGroupBy hold property names, key paths or property descriptions, not \(property).")
        }
    }

    /// A key path through to-one relationships to an attribute, an element of a composite
    /// attribute, or a to-one relationship.
    private init(keyPath: String, entity: NSEntityDescription) throws {
        let resolved = try entity.resolve(keyPath: keyPath)
        if let toMany = resolved.firstToManyIndex {
            throw CoreDataError.invalidRequest("The key path '\(keyPath)' of \(entity.entityName) goes through the to-many relationship '\(resolved.steps[toMany].property.name)', which a dictionary fetch cannot return.")
        }
        if let composite = resolved.steps.last?.property as? NSCompositeAttributeDescription, resolved.remainder.isEmpty {
            throw CoreDataError.invalidRequest("A dictionary fetch returns the elements of the composite attribute '\(composite.name)' of \(entity.entityName) (such as '\(keyPath).\(composite.elements.first?.name ?? "element")'), not the composite itself.")
        }
        guard resolved.remainder.isEmpty || resolved.compositeLeaf != nil else {
            throw CoreDataError.unknownKey(keyPath, entity: entity.entityName)
        }
        self.init(name: keyPath, expression: .keyPath(base: nil, components: resolved.components), resultType: .undefinedAttributeType)
    }

    /// The value converted to the column's result type.
    func converted(_ value: Any?) -> Any? {
        guard let value = ValueUnwrapping.nonNull(value) else { return nil }
        let number = PredicateNumber(value) ?? (value as? Date).map { .floating($0.timeIntervalSinceReferenceDate) }
        switch resultType {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType:
            guard let integer = number.flatMap({ $0.exactInteger ?? Int64(exactly: $0.doubleValue.rounded(.towardZero)) }) else { return value }
            return NSNumber(value: integer)
        case .doubleAttributeType, .floatAttributeType:
            return number.map { NSNumber(value: $0.doubleValue) } ?? value
        case .decimalAttributeType:
            return number.map { NSDecimalNumber(string: ConstantFormatter.format($0)) } ?? value
        case .booleanAttributeType:
            return number.map { NSNumber(value: $0.doubleValue != 0) } ?? value
        case .dateAttributeType:
            guard !(value is Date), let seconds = number?.doubleValue, seconds.isFinite else { return value }
            return Date(timeIntervalSinceReferenceDate: seconds)
        case .stringAttributeType:
            return value as? String ?? number.map { ConstantFormatter.format($0) } ?? value
        default:
            return value
        }
    }
}
