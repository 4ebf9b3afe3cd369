/// Why a predicate or expression could not be evaluated in memory.
///
/// The public `evaluate(with:)` answers false for all of these, as a predicate Foundation cannot
/// evaluate raises instead of matching; the internal throwing entry points let callers such as
/// the in-memory store report them. Bridged to `NSError`, it is a general Core Data error
/// (`NSCocoaErrorDomain`, 134060) described by `description`, like the errors of SQLite fetches.
enum PredicateEvaluationError: Error, Equatable, CustomStringConvertible, CustomNSError {
    /// The object has no property named `key` (key-value coding's "not key value coding-compliant").
    case unknownKey(String, typeName: String)

    /// The predicate uses `$name`, and the bindings do not define it.
    case missingVariable(String)

    /// An operand has a type the operator cannot work with.
    case invalidOperand(String)

    /// The construct is parsed but cannot be evaluated.
    case unsupported(String)

    var description: String {
        switch self {
        case .unknownKey(let key, let typeName):
            "\(typeName) is not key value coding-compliant for the key \"\(key)\""
        case .missingVariable(let name):
            "no value for the variable $\(name)"
        case .invalidOperand(let reason):
            reason
        case .unsupported(let construct):
            "\(construct) cannot be evaluated"
        }
    }

    static var errorDomain: String { NSCocoaErrorDomain }

    var errorCode: Int { NSCoreDataError }

    var errorUserInfo: [String: Any] { [NSLocalizedDescriptionKey: description] }
}
