/// A constant held by the predicate tree, compared and hashed the way `isEqual:` compares values.
///
/// The wrapper exists so that the tree can be `Hashable` although constants are `Any?`. Optionals
/// hidden inside `Any` are unwrapped when the constant is made, so `value` is nil exactly for a
/// nil constant (an `NSNull` stays an `NSNull`, which prints as `<null>`).
struct ConstantValue: Hashable {
    /// The constant itself.
    let value: Any?
    /// The members of a large collection constant, for `IN`.
    let membership: MembershipIndex?

    init(_ value: Any?) {
        self.value = ValueUnwrapping.unwrapped(value)
        membership = MembershipIndex(self.value)
    }

    static func == (lhs: ConstantValue, rhs: ConstantValue) -> Bool {
        ValueComparison.isEqual(lhs.value, rhs.value)
    }

    func hash(into hasher: inout Hasher) {
        ValueComparison.hash(value, into: &hasher)
    }
}
