/// The transformers registered as `.isNilTransformerName` and `.isNotNilTransformerName`: they
/// answer, as an `NSNumber` Boolean, whether the value is `nil`, or whether it is not. Neither
/// is reversible.
final class NilTestTransformer: ValueTransformer {
    /// `true` for the is-nil test, `false` for the is-not-nil test.
    private let matchesNil: Bool

    init(matchesNil: Bool) {
        self.matchesNil = matchesNil
        super.init()
    }

    override class func transformedValueClass() -> AnyClass {
        NSNumber.self
    }

    override class func allowsReverseTransformation() -> Bool {
        false
    }

    override func transformedValue(_ value: Any?) -> Any? {
        NSNumber(value: Self.isNil(value) == matchesNil)
    }

    /// Whether `value` is `nil`, also when it is an optional wrapped in `Any`, which Swift does
    /// not flatten (`Optional<Int>.none as Any` is not `nil`).
    private static func isNil(_ value: Any?) -> Bool {
        guard var current = value else { return true }
        while Mirror(reflecting: current).displayStyle == .optional {
            guard let wrapped = Mirror(reflecting: current).children.first?.value else { return true }
            current = wrapped
        }
        return false
    }
}
