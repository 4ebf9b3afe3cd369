/// An attribute whose value is a dictionary of named values, each described by an attribute of
/// its own (which may itself be composite).
///
/// A model file declares the element attributes once, in a `<composite>` that attributes name.
// Like every property description: mutable while the model is built, read-only once it is frozen.
open class NSCompositeAttributeDescription: NSAttributeDescription, @unchecked Sendable {
    /// The attributes of the values the composite holds.
    public var elements: [NSAttributeDescription] = [] {
        willSet { assertEditable() }
    }

    /// The name of the `<composite>` of a model file that declares the elements.
    var compositeName: String?

    public required init() {
        super.init()
        attributeType = .compositeAttributeType
    }

    override func copyProperties(from other: NSPropertyDescription) {
        super.copyProperties(from: other)
        guard let other = other as? NSCompositeAttributeDescription else { return }
        elements = other.elements.compactMap { $0.copy() as? NSAttributeDescription }
        compositeName = other.compositeName
    }
}
