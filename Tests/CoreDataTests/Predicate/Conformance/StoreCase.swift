@testable import CoreData
import Testing

/// One row of the store conformance table: a predicate over `ConformanceModel`'s items and the
/// labels of the items it matches (`"ADH"`), for `evaluate(with:)`, an in-memory store fetch and a
/// SQLite fetch.
///
/// `@unchecked Sendable`: a case is an immutable constant of the table; its argument values are
/// never mutated.
struct StoreCase: @unchecked Sendable, CustomTestStringConvertible {
    /// An argument of the format.
    enum Argument {
        case value(Any)
        case date(days: Double)
        case dates(days: [Double])
        /// The `Owner` of that name, fetched in the context of the store being queried.
        case owner(String)
    }

    /// What the SQLite store answers.
    enum SQLite: Sendable {
        /// The same labels as in memory.
        case agrees
        /// Other labels, where Apple's SQLite store deliberately differs from evaluation in memory
        /// (README, "Differences": `!=` never matches NULL).
        case differs(String)
        /// An error in `NSCocoaErrorDomain` whose description contains the text.
        case refuses(String)
    }

    let format: String
    let arguments: [Argument]
    let expected: String
    let sqlite: SQLite

    init(_ format: String, _ arguments: [Argument], _ expected: String, sqlite: SQLite = .agrees) {
        self.format = format
        self.arguments = arguments
        self.expected = expected
        self.sqlite = sqlite
    }

    init(_ format: String, _ expected: String, sqlite: SQLite = .agrees) {
        self.init(format, [], expected, sqlite: sqlite)
    }

    var testDescription: String { format }

    /// The predicate, with owner arguments taken from `stack`.
    func predicate(in stack: CtxStack) throws -> NSPredicate {
        let values = try arguments.map { argument -> Any in
            switch argument {
            case .value(let value): value
            case .date(let days): ConformanceModel.date(days: days)
            case .dates(let days): days.map(ConformanceModel.date(days:))
            case .owner(let name): try ConformanceStores.owner(name, in: stack)
            }
        }
        return try NSPredicate(validatingFormat: format, argumentArray: values)
    }
}
