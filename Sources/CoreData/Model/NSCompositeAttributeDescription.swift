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

extension NSCompositeAttributeDescription {
    /// An attribute a composite holds, at the end of the element names that lead to it.
    package struct Leaf {
        /// The names from the composite's first element level down to the attribute's own.
        let path: [String]
        let attribute: NSAttributeDescription

        /// The key path of the value below the composite: `element` or `nested.element`.
        var elementPath: String { path.joined(separator: ".") }
    }

    /// The attributes the composite holds, nested composites replaced by theirs, depth first in
    /// the order of the elements: the columns of a SQLite store, in Apple's order.
    var leaves: [Leaf] {
        elements.flatMap { element -> [Leaf] in
            guard let nested = element as? NSCompositeAttributeDescription else { return [Leaf(path: [element.name], attribute: element)] }
            return nested.leaves.map { Leaf(path: [element.name] + $0.path, attribute: $0.attribute) }
        }
    }

    /// The leaf at an element path (`richter`, `nested.element`), if the composite has one.
    func leaf(atElementPath elementPath: String) -> Leaf? {
        leaves.first { $0.elementPath == elementPath }
    }
}
