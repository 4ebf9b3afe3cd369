// Dictionary fetches in SQL: one SELECT whose columns are the fetched properties and
// expressions, grouped, made distinct, sorted and paged by the database. A having condition is
// checked on the result dictionaries, which are few, before they are paged.
extension RelationalStore {
    package func fetchDictionaries(_ plan: FetchPlan, shape: DictionaryFetchShape) throws -> [NSDictionary] {
        let (connection, schema) = try readingDatabase()
        var columns: [(DictionaryColumn, SQLPredicateCompiler.SelectItem)] = []
        let pagedInSQL = shape.having == nil
        let query = try select(plan: plan, schema: schema, paged: pagedInSQL) { compiler, scope in
            columns = try shape.columns.map { ($0, try compiler.selectItem($0.expression, in: scope)) }
            let groupBy = try shape.groupBy.map { column in
                let item = try compiler.selectItem(column.expression, in: scope)
                return Self.selectedPosition(of: item, named: column.name, in: columns) ?? item.columns
            }
            return SQLProjection(
                columns: SQLFragment.joined(columns.map(\.1.columns), separator: ", "),
                groupBy: groupBy,
                distinct: shape.returnsDistinctResults
            )
        }
        let statement = try prepare(query, on: connection)
        var results: [[String: Any]] = []
        while try statement.step() {
            var entry: [String: Any] = [:]
            var position: Int32 = 0
            for (column, item) in columns {
                entry[column.name] = column.converted(decode(item.decoding, from: statement, at: &position, schema: schema))
            }
            results.append(entry)
        }
        guard let having = shape.having else { return results.map { NSDictionary(dictionary: $0) } }
        let kept = try results.filter { try having.evaluate(with: $0, variables: $0) }
        return plan.page(of: kept).map { NSDictionary(dictionary: $0) }
    }

    /// A grouped expression that takes parameters, as the position of the fetched column of the
    /// same name: PostgreSQL matches grouped and selected expressions by their text, in which
    /// their parameters differ.
    private static func selectedPosition(of item: SQLPredicateCompiler.SelectItem, named name: String,
                                         in columns: [(DictionaryColumn, SQLPredicateCompiler.SelectItem)]) -> SQLFragment? {
        guard !item.fragment.bindings.isEmpty, let index = columns.firstIndex(where: { $0.0.name == name }) else { return nil }
        let position = columns[..<index].reduce(1) { $0 + $1.1.columnCount }
        return SQLFragment(sql: String(position))
    }

    /// The value of a selected item, advancing `position` past its columns.
    private func decode(_ decoding: SQLPredicateCompiler.Decoding, from statement: Database.Statement, at position: inout Int32, schema: SQLSchema) -> Any? {
        defer { position += 1 }
        switch decoding {
        case .attribute(let attribute):
            return SQLValueCodec.decode(statement, at: position, for: attribute)
        case .objectID(let entity, let entityColumn):
            guard !statement.isNull(at: position) else {
                if entityColumn != nil { position += 1 }
                return nil
            }
            let primaryKey = statement.int64(at: position)
            var concrete = entity
            if entityColumn != nil {
                position += 1
                concrete = schema.rowEntity(number: statement.int64(at: position)) ?? entity
            }
            return objectID(for: concrete, primaryKey: primaryKey)
        case .computed:
            switch statement.value(at: position) {
            case .null: return nil
            case .integer(let value): return NSNumber(value: value)
            case .real(let value): return NSNumber(value: value)
            case .text(let value): return value
            case .blob(let value): return value
            }
        case .date:
            let seconds = statement.double(at: position)
            return statement.isNull(at: position) || !seconds.isFinite ? nil : Date(timeIntervalSinceReferenceDate: seconds)
        case .constant(let value):
            return value
        }
    }
}
