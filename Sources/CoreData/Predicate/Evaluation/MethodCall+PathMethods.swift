// The path methods of `NSString` that `FUNCTION(path, "lastPathComponent")` and the like call,
// answered by Foundation's own implementations so that each behaves as Apple documents it.
extension MethodCall {
    /// The path methods without an argument, by selector.
    private static let pathProperties: [String: @Sendable (NSString) -> Any] = [
        "lastPathComponent": { $0.lastPathComponent },
        "pathExtension": { $0.pathExtension },
        "pathComponents": { $0.pathComponents },
        "isAbsolutePath": { NSNumber(value: $0.isAbsolutePath) },
        "stringByDeletingLastPathComponent": { $0.deletingLastPathComponent },
        "stringByDeletingPathExtension": { $0.deletingPathExtension },
        "stringByStandardizingPath": { $0.standardizingPath },
        "stringByExpandingTildeInPath": { $0.expandingTildeInPath },
        "stringByResolvingSymlinksInPath": { $0.resolvingSymlinksInPath },
    ]

    /// The path methods with a string argument, by selector. An extension that cannot be appended
    /// gives nil, as on Apple platforms; `NSNull` stands for it, since nil means "not a path method".
    private static let pathFunctions: [String: @Sendable (NSString, String) -> Any] = [
        "stringByAppendingPathComponent:": { $0.appendingPathComponent($1) },
        "stringByAppendingPathExtension:": { $0.appendingPathExtension($1).map { $0 as Any } ?? NSNull() },
    ]

    /// The answer of the path method `selector` of `string`; nil when `selector` is not a path
    /// method taking that many arguments.
    static func pathMethod(_ selector: String, _ string: String, _ arguments: [Any?]) throws -> Any? {
        let path = NSString(string: string)
        switch arguments.count {
        case 0:
            return pathProperties[selector].map { $0(path) }
        case 1:
            guard let function = pathFunctions[selector] else { return nil }
            guard let argument = arguments[0] as? String else {
                throw PredicateEvaluationError.invalidOperand("\(selector) needs a string argument")
            }
            return function(path, argument)
        default:
            return nil
        }
    }
}
