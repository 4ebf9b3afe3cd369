/// A receiver that answers `FUNCTION(receiver, "selector:", arguments…)` itself.
///
/// Linux has no Objective-C runtime to send an expression's message, so the objects migration
/// expressions talk to (`$manager`, `$entityPolicy`) say here which selectors they understand.
protocol ExpressionMessageReceiver {
    /// The answer to `selector` with `arguments`; throws when the receiver does not understand it.
    func answer(_ selector: String, arguments: [Any?]) throws -> Any?
}
