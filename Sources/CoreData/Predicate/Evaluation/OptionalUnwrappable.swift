/// Lets `ValueUnwrapping` open an `Optional` whose wrapped type is not known statically.
protocol OptionalUnwrappable {
    /// The wrapped value, or nil.
    var wrappedAny: Any? { get }
}

extension Optional: OptionalUnwrappable {
    var wrappedAny: Any? {
        switch self {
        case .some(let wrapped): wrapped
        case .none: nil
        }
    }
}
