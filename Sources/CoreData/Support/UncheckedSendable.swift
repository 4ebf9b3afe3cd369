/// A value handed across a concurrency boundary that the compiler cannot prove safe; every use
/// says in a comment why no data race is possible.
struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value

    init(_ value: Value) {
        self.value = value
    }
}
