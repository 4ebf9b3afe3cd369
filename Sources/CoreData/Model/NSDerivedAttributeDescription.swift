/// An attribute whose value the store derives from other values with an expression.
///
/// Its version hash is computed from the canonical text of its derivation expression only, as
/// Apple's Core Data does.
// Like every property description: mutable while the model is built, read-only once it is frozen.
open class NSDerivedAttributeDescription: NSAttributeDescription, @unchecked Sendable {
    /// The expression that computes the value, such as `uppercase:(title)` or `pages.@count`.
    public var derivationExpression: NSExpression? {
        willSet { assertEditable() }
    }

    override func copyProperties(from other: NSPropertyDescription) {
        super.copyProperties(from: other)
        guard let other = other as? NSDerivedAttributeDescription else { return }
        derivationExpression = other.derivationExpression
    }
}
