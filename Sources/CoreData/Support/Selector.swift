/// The name of a method, standing in for the Objective-C runtime's selectors, which Linux does
/// not have.
///
/// Core Data API that takes a selector, such as
/// `NSSortDescriptor(key: "name", ascending: true, selector: Selector("localizedStandardCompare:"))`,
/// compiles unchanged. Without a runtime there is nothing to look a method up in: a selector is
/// only its name, and the API that takes one understands the names it documents. Two selectors
/// are equal when their names are.
public struct Selector: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    private let name: String

    /// Creates a selector from a method name, such as `"caseInsensitiveCompare:"`.
    ///
    /// - Parameter name: The method's Objective-C name, colons included.
    public init(_ name: String) {
        self.name = name
    }

    /// Creates a selector from a string literal holding a method name.
    ///
    /// - Parameter value: The method's Objective-C name, colons included.
    public init(stringLiteral value: String) {
        name = value
    }

    /// The method name the selector stands for.
    public var description: String {
        name
    }
}
