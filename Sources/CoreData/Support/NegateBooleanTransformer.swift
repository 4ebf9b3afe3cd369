/// The transformer registered as `.negateBooleanTransformerName`: it turns `true` into `false`
/// and anything else (`false`, `nil`, a value that is not a number) into `true`, as Apple's does.
/// Negation is its own inverse, so the inherited reverse transformation applies it again.
final class NegateBooleanTransformer: ValueTransformer {
    override class func transformedValueClass() -> AnyClass {
        NSNumber.self
    }

    override func transformedValue(_ value: Any?) -> Any? {
        let isTrue = (value as? NSNumber)?.boolValue ?? false
        return NSNumber(value: !isTrue)
    }
}
