/// An abstract class that transforms values from one representation to another, with Apple's
/// API. Linux Foundation has none, and Core Data's transformable attributes need one.
///
/// Subclass it and override `transformedValue(_:)` (and `reverseTransformedValue(_:)` if the
/// reverse is not the same transformation), `transformedValueClass()` and
/// `allowsReverseTransformation()`. Register an instance with
/// `setValueTransformer(_:forName:)` so that a model can name it.
///
/// Registered by default: `.negateBooleanTransformerName`, `.isNilTransformerName`,
/// `.isNotNilTransformerName`, `.keyedUnarchiveFromDataTransformerName` and
/// `.secureUnarchiveFromDataTransformerName`.
///
/// Differences from Apple, all forced by Swift or Linux:
/// - `init(forName:)` cannot hand back the registered instance, as an Objective-C factory does;
///   it returns a transformer that forwards `transformedValue(_:)` and
///   `reverseTransformedValue(_:)` to it (the class methods are answered by the receiver's class).
/// - `init(forName:)` does not fall back to instantiating a class with the given name, because
///   Swift cannot call `init()` through a class object unless the initializer is `required`,
///   except for `NSSecureUnarchiveFromDataTransformer`, the name Xcode writes into models.
///   Register transformers instead, as Apple recommends.
/// - `reverseTransformedValue(_:)` returns `nil` where Apple raises an exception, because Core
///   Data on Linux never traps on a value.
open class ValueTransformer: NSObject {
    /// The registered transformer this one stands for, when it was made by `init(forName:)`.
    /// Set only while initializing.
    private var forwardingTarget: ValueTransformer?

    /// Creates a transformer.
    public override init() {
        super.init()
    }

    /// Returns the transformer registered under `name`, or `nil` if there is none.
    ///
    /// On `ValueTransformer` itself the result forwards its transformations to the registered
    /// transformer. On a subclass, the call succeeds only when the registered transformer is an
    /// instance of exactly that subclass, and the result is a new instance of it.
    public convenience init?(forName name: NSValueTransformerName) {
        guard let registered = ValueTransformerRegistry.shared.transformer(named: name) else { return nil }
        if Self.self == ValueTransformer.self {
            self.init()
            forwardingTarget = registered
        } else if type(of: registered) == Self.self {
            self.init()
        } else {
            return nil
        }
    }

    /// Registers `transformer` under `name`, replacing any transformer registered under it;
    /// `nil` removes the registration.
    open class func setValueTransformer(_ transformer: ValueTransformer?, forName name: NSValueTransformerName) {
        ValueTransformerRegistry.shared.setTransformer(transformer, named: name)
    }

    /// The names of all registered transformers, sorted.
    open class func valueTransformerNames() -> [NSValueTransformerName] {
        ValueTransformerRegistry.shared.names()
    }

    /// The class of the values `transformedValue(_:)` returns. The default is `NSObject`;
    /// subclasses override it.
    open class func transformedValueClass() -> AnyClass {
        NSObject.self
    }

    /// Whether the transformer can reverse its transformation. The default is `true`.
    open class func allowsReverseTransformation() -> Bool {
        true
    }

    /// Returns the result of transforming `value`. The default returns `value` unchanged.
    open func transformedValue(_ value: Any?) -> Any? {
        if let forwardingTarget {
            return forwardingTarget.transformedValue(value)
        }
        return value
    }

    /// Returns the result of reversing the transformation of `value`.
    ///
    /// The default applies `transformedValue(_:)` again, which suits transformations that are
    /// their own inverse; when `allowsReverseTransformation()` is `false` it returns `nil`
    /// (Apple raises an exception).
    open func reverseTransformedValue(_ value: Any?) -> Any? {
        if let forwardingTarget {
            return forwardingTarget.reverseTransformedValue(value)
        }
        guard type(of: self).allowsReverseTransformation() else { return nil }
        return transformedValue(value)
    }

    /// The transformer registered under `name` itself (not a forwarding one), for Core Data,
    /// which needs its class and its class methods.
    static func registered(named name: NSValueTransformerName) -> ValueTransformer? {
        ValueTransformerRegistry.shared.transformer(named: name)
    }
}
