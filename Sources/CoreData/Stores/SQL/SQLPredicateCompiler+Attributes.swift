/// Comparisons of an attribute's column with a constant, another column or a computed value.
///
/// Constants bind as the kind of value they are, not as the column's type, so that `i16 == 3.5`
/// matches no integer; a constant of another kind than the attribute's values (a string for a
/// number) is never equal to them, as in memory, and cannot order or search them.
extension SQLPredicateCompiler {
    typealias Operator = NSComparisonPredicate.Operator
    typealias Options = NSComparisonPredicate.Options

    mutating func compileAttribute(_ column: String, attribute: NSAttributeDescription, type: Operator, options: Options, right: Operand) throws -> SQLFragment {
        let isString = attribute.attributeType == .stringAttributeType
        let stringOptions = isString ? Self.stringOptions(options) : []
        if Self.isStringOperator(type) && !isString {
            throw unsupported("\(PredicateFormatPrinter.spelling(of: type)) on the non-string attribute '\(attribute.name)'")
        }
        if Self.isOrdering(type) && !(isString || attribute.attributeType.isNumeric || attribute.attributeType == .dateAttributeType) {
            throw unsupported("\(PredicateFormatPrinter.spelling(of: type)) on the attribute '\(attribute.name)', whose values have no order")
        }
        let other: SQLFragment
        switch right {
        case .constant(let value):
            switch type {
            case .in:
                return try inList(column, values: value, attribute: attribute, options: stringOptions)
            case .between:
                return try between(column, bounds: value, attribute: attribute, options: stringOptions)
            case .equalTo where ValueUnwrapping.isNull(value):
                return SQLFragment(sql: "\(column) IS NULL")
            case .notEqualTo where ValueUnwrapping.isNull(value):
                return SQLFragment(sql: "\(column) IS NOT NULL")
            default:
                guard let constant = ValueUnwrapping.nonNull(value) else {
                    throw CoreDataError.invalidRequest("Illegal comparison with NULL in a fetch from a \(dialect.storeName) store.")
                }
                guard let binding = try binding(constant, for: attribute) else {
                    return try mismatch(column, attribute: attribute, type: type, against: "\(Swift.type(of: constant)) \(constant)")
                }
                if type == .beginsWith, stringOptions.isEmpty, case .text(let prefix) = binding {
                    return prefixRange(column, prefix: prefix)
                }
                other = .parameter(binding)
            }
        case .attribute(let otherColumn, let otherAttribute):
            guard Self.valueKind(of: attribute) == Self.valueKind(of: otherAttribute) else {
                return try mismatch(column, attribute: attribute, type: type, against: "the attribute '\(otherAttribute.name)'")
            }
            other = SQLFragment(sql: otherColumn)
        case .scalar(let fragment):
            other = fragment
        case .objectKey, .toMany, .keys:
            throw unsupported("comparing an attribute with a relationship")
        }
        return try compare(SQLFragment(sql: column), type, other, stringOptions: stringOptions)
    }

    /// `subject <type> other`, through the string functions when string options apply.
    private func compare(_ subject: SQLFragment, _ type: Operator, _ other: SQLFragment, stringOptions: Options) throws -> SQLFragment {
        let options = stringOptions.rawValue
        let bindings = subject.bindings + other.bindings
        switch type {
        case .equalTo, .notEqualTo:
            guard !stringOptions.isEmpty else { break }
            return SQLFragment(sql: "\(SQLFunctions.equal)(\(subject.sql), \(other.sql), \(options)) = \(type == .equalTo ? 1 : 0)", bindings: bindings)
        case .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo:
            guard !stringOptions.isEmpty else { break }
            return SQLFragment(sql: "\(SQLFunctions.compare)(\(subject.sql), \(other.sql), \(options)) \(Self.sqlOperator(type)) 0", bindings: bindings)
        case .beginsWith:
            return search(subject, needle: other, options: stringOptions, mode: .beginsWith)
        case .endsWith:
            return search(subject, needle: other, options: stringOptions, mode: .endsWith)
        case .contains:
            return search(subject, needle: other, options: stringOptions, mode: .contains)
        case .like:
            return SQLFragment(sql: "\(SQLFunctions.like)(\(subject.sql), \(other.sql), \(options)) = 1", bindings: bindings)
        case .matches:
            return SQLFragment(sql: "\(SQLFunctions.matches)(\(subject.sql), \(other.sql), \(options)) = 1", bindings: bindings)
        case .in, .between, .customSelector:
            throw unsupported("\(PredicateFormatPrinter.spelling(of: type)) between two key paths")
        @unknown default:
            throw unsupported("an unknown operator")
        }
        return SQLFragment(sql: "\(subject.sql) \(Self.sqlOperator(type)) \(other.sql)", bindings: bindings)
    }

    func search(_ subject: SQLFragment, needle: SQLFragment, options: Options, mode: SQLFunctions.SearchMode) -> SQLFragment {
        SQLFragment(
            sql: "\(SQLFunctions.search)(\(subject.sql), \(needle.sql), \(Self.stringOptions(options).rawValue), \(mode.rawValue)) = 1",
            bindings: subject.bindings + needle.bindings
        )
    }

    /// `BEGINSWITH` without options as a range, which an index on the column can serve.
    private func prefixRange(_ column: String, prefix: String) -> SQLFragment {
        guard !prefix.isEmpty else { return .alwaysFalse }
        let lower = SQLFragment.parameter(.text(prefix))
        guard let upperBound = Self.upperBound(ofPrefix: prefix) else {
            return SQLFragment(sql: "\(column) >= \(lower.sql)", bindings: lower.bindings)
        }
        let upper = SQLFragment.parameter(.text(upperBound))
        return SQLFragment(sql: "(\(column) >= \(lower.sql) AND \(column) < \(upper.sql))", bindings: lower.bindings + upper.bindings)
    }

    /// The least string above every string that begins with `prefix` in SQLite's byte order
    /// (which is code point order): the prefix with its last incrementable scalar incremented.
    static func upperBound(ofPrefix prefix: String) -> String? {
        var scalars = Array(prefix.unicodeScalars)
        while let last = scalars.popLast() {
            let next = last.value == 0xD7FF ? 0xE000 : last.value + 1
            if let scalar = Unicode.Scalar(next) {
                scalars.append(scalar)
                var view = String.UnicodeScalarView()
                view.append(contentsOf: scalars)
                return String(view)
            }
        }
        return nil
    }

    /// `attribute IN {…}`: nil elements match NULL, and elements of another kind match nothing.
    private func inList(_ column: String, values: Any?, attribute: NSAttributeDescription, options: Options) throws -> SQLFragment {
        if let text = ValueUnwrapping.unwrapped(values) as? String {
            // `name IN 'some text'`: the text contains the attribute's value.
            return search(.parameter(.text(text)), needle: SQLFragment(sql: column), options: options, mode: .contains)
        }
        var includesNull = false
        var bindings: [SQLValue] = []
        for element in try Self.collectionElements(values) {
            guard let value = ValueUnwrapping.nonNull(element) else {
                includesNull = true
                continue
            }
            if let binding = try binding(value, for: attribute) { bindings.append(binding) }
        }
        var alternatives: [SQLFragment] = []
        if !options.isEmpty {
            alternatives = bindings.map { value in
                let parameter = SQLFragment.parameter(value)
                return SQLFragment(sql: "\(SQLFunctions.equal)(\(column), \(parameter.sql), \(options.rawValue)) = 1", bindings: parameter.bindings)
            }
        } else if !bindings.isEmpty {
            let list = SQLFragment.parameters(bindings)
            alternatives = [SQLFragment(sql: "\(column) IN (\(list.sql))", bindings: list.bindings)]
        }
        if includesNull { alternatives.append(SQLFragment(sql: "\(column) IS NULL")) }
        return alternatives.isEmpty ? .alwaysFalse : grouped(alternatives, separator: " OR ")
    }

    /// `attribute BETWEEN {lower, upper}`, inclusive. As in memory, a nil bound is ordered only
    /// against nil: two nil bounds match NULL, one matches nothing.
    private func between(_ column: String, bounds: Any?, attribute: NSAttributeDescription, options: Options) throws -> SQLFragment {
        switch try Self.bounds(bounds) {
        case (nil, nil):
            return SQLFragment(sql: "\(column) IS NULL")
        case (let lower?, let upper?):
            guard let low = try binding(lower, for: attribute), let high = try binding(upper, for: attribute) else {
                throw CoreDataError.invalidRequest("The bounds \(lower) and \(upper) cannot be compared with the attribute '\(attribute.name)'.")
            }
            let (lowParameter, highParameter) = (SQLFragment.parameter(low), SQLFragment.parameter(high))
            let bindings = lowParameter.bindings + highParameter.bindings
            if !options.isEmpty {
                return SQLFragment(
                    sql: "(\(SQLFunctions.compare)(\(column), \(lowParameter.sql), \(options.rawValue)) >= 0 AND \(SQLFunctions.compare)(\(column), \(highParameter.sql), \(options.rawValue)) <= 0)",
                    bindings: bindings
                )
            }
            return SQLFragment(sql: "\(column) BETWEEN \(lowParameter.sql) AND \(highParameter.sql)", bindings: bindings)
        default:
            return .alwaysFalse
        }
    }

    /// A comparison with a value of another kind than the attribute's values.
    private func mismatch(_ column: String, attribute: NSAttributeDescription, type: Operator, against other: String) throws -> SQLFragment {
        switch type {
        case .equalTo:
            return .alwaysFalse
        case .notEqualTo:
            // `!=` never matches NULL in a fetch from a store, as on Apple platforms.
            return SQLFragment(sql: "\(column) IS NOT NULL")
        default:
            throw CoreDataError.invalidRequest(
                "The attribute '\(attribute.name)' cannot be compared with \(other) by \(PredicateFormatPrinter.spelling(of: type)) in a fetch."
            )
        }
    }

    /// A string constant on the left of `IN` or `CONTAINS` with a string attribute on the right.
    func stringConstant(_ value: Any?, comparedWith attribute: NSAttributeDescription, operatorType: Operator) throws -> SQLFragment {
        guard attribute.attributeType == .stringAttributeType, let text = ValueUnwrapping.unwrapped(value) as? String else {
            throw unsupported("\(PredicateFormatPrinter.spelling(of: operatorType)) between a constant and the attribute '\(attribute.name)' unless both are strings")
        }
        return .parameter(.text(text))
    }

    // MARK: Values

    /// The parameter for a constant compared with an attribute, or nil when the constant is of
    /// another kind than the attribute's values.
    func binding(_ value: Any, for attribute: NSAttributeDescription) throws -> SQLValue? {
        if attribute.attributeType.isNumeric {
            return PredicateNumber(value)?.sqlValue
        }
        let normalized = AttributeValue.normalized(value, type: attribute.attributeType)
        guard normalized.isValid else { return nil }
        return try SQLValueCodec.encode(normalized.value, for: attribute)
    }

    /// The parameter for a constant compared with a computed value such as a `@count`.
    func scalarBinding(_ value: Any?) throws -> SQLValue {
        guard let value = ValueUnwrapping.nonNull(value) else { return .null }
        if let number = PredicateNumber(value) { return number.sqlValue }
        switch value {
        case let string as String: return .text(string)
        case let date as Date: return .real(date.timeIntervalSinceReferenceDate)
        case let data as Data: return .blob(data)
        default: throw CoreDataError.invalidRequest("The value \(value) cannot be compared in a fetch from a \(dialect.storeName) store.")
        }
    }

    /// The options the string functions take. `[n]` promises normalized strings and supersedes
    /// the other options, so such comparisons are literal, as in memory.
    static func stringOptions(_ options: Options) -> Options {
        options.contains(.normalized) ? [] : options
    }

    private static func isStringOperator(_ type: Operator) -> Bool {
        [.beginsWith, .endsWith, .contains, .like, .matches].contains(type)
    }

    /// What kind of values an attribute holds, as the in-memory comparisons tell them apart: all
    /// numbers are one kind.
    private static func valueKind(of attribute: NSAttributeDescription) -> NSAttributeType {
        attribute.attributeType.isNumeric ? .doubleAttributeType : attribute.attributeType
    }

    private static func isOrdering(_ type: Operator) -> Bool {
        [.lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo, .between].contains(type)
    }

    static func placeholders(_ count: Int) -> String {
        Array(repeating: "?", count: count).joined(separator: ", ")
    }
}

extension PredicateNumber {
    /// The number as a SQL parameter of its own kind: integers as INTEGER, others as REAL.
    var sqlValue: SQLValue {
        switch self {
        case .integer(let value): .integer(value)
        case .floating(let value): .real(value)
        }
    }
}
