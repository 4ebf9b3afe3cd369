internal import CoreData

extension CompositeShape {
    /// The attributes of the elements of a composite attribute of this shape: a nested
    /// composite element is a composite attribute with elements of its own.
    func elementDescriptions() -> [NSAttributeDescription] {
        elements.map(Self.description(of:))
    }

    private static func description(of element: Element) -> NSAttributeDescription {
        let description: NSAttributeDescription
        switch element.kind {
        case .value(let type), .rawValue(let type):
            description = NSAttributeDescription()
            description.attributeType = type
        case .composite(let shape):
            let composite = NSCompositeAttributeDescription()
            composite.elements = shape.elementDescriptions()
            description = composite
        }
        description.name = element.name
        description.isOptional = element.isOptional
        return description
    }
}
