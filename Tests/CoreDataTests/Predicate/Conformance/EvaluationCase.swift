@testable import CoreData
import Testing

/// One row of the evaluation conformance table: a format, its arguments, the object it is
/// evaluated with (and substitution variables), and what `evaluate(with:)` must answer.
///
/// `@unchecked Sendable`: a case is an immutable constant of the table; its values are never
/// mutated.
struct EvaluationCase: @unchecked Sendable, CustomTestStringConvertible {
    let format: String
    let arguments: [Any]
    let object: Any?
    let variables: [String: Any]?
    let expected: Bool

    init(_ format: String, _ arguments: [Any] = [], on object: Any?, variables: [String: Any]? = nil, _ expected: Bool) {
        self.format = format
        self.arguments = arguments
        self.object = object
        self.variables = variables
        self.expected = expected
    }

    var testDescription: String { "\(format) → \(expected)" }
}
