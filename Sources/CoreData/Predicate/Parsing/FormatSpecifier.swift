/// A `%` conversion in a format string, which takes the next argument (spec §1.9).
enum FormatSpecifier: Equatable {
    /// `%@`: an object, as a constant; an `NSExpression` argument is spliced in as itself.
    case object
    /// `%K`: a key path, from a string.
    case keyPath
    /// `%d`, `%i`, `%ld`, `%lld`, `%u`, `%lu`, `%x`, `%o`, `%c` and their length variants: an integer.
    case integer
    /// `%f`, `%lf`, `%e`, `%g` and their variants: a double.
    case double
    /// `%s`: a string.
    case string
    /// `%%`: a literal `%`; takes no argument.
    case percent

    /// How the specifier is written in messages.
    var spelling: String {
        switch self {
        case .object: "%@"
        case .keyPath: "%K"
        case .integer: "%d"
        case .double: "%f"
        case .string: "%s"
        case .percent: "%%"
        }
    }
}
