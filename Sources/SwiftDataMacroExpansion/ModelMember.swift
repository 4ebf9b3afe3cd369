import SwiftSyntax

/// A stored property of a `@Model` class, as the macros read it from the class's source.
struct ModelMember {
    let name: String
    let type: TypeSyntax?
    let defaultValue: ExprSyntax?
    let attributes: AttributeListSyntax
    /// Whether the property is a `let`: persisted, but kept in the class's own storage, since
    /// a constant cannot have accessors.
    let isConstant: Bool

    /// The stored properties a model persists: not static, not computed, not lazy, not
    /// `@Transient`; `let`s with an initial value as well as `var`s.
    static func persisted(in members: MemberBlockItemListSyntax) -> [ModelMember] {
        members.compactMap { $0.decl.as(VariableDeclSyntax.self).flatMap(ModelMember.init(persisting:)) }
    }

    init?(persisting variable: VariableDeclSyntax) {
        let isConstant = variable.bindingSpecifier.tokenKind == .keyword(.let)
        guard variable.bindingSpecifier.tokenKind == .keyword(.var) || isConstant,
              variable.bindings.count == 1,
              let binding = variable.bindings.first,
              binding.accessorBlock == nil,
              let identifier = binding.pattern.as(IdentifierPatternSyntax.self),
              !variable.modifiers.contains(where: { Self.nonPersistentModifiers.contains($0.name.text) }),
              !variable.attributes.contains(where: { Self.isAttribute($0, named: "Transient") })
        else { return nil }
        name = identifier.identifier.trimmedDescription
        type = binding.typeAnnotation?.type.trimmed
        defaultValue = binding.initializer?.value.trimmed
        attributes = variable.attributes
        self.isConstant = isConstant
        if isConstant, defaultValue == nil { return nil }
    }

    /// The arguments of the member's `@Attribute` or `@Relationship`, if it has one.
    func arguments(ofAttributeNamed attributeName: String) -> LabeledExprListSyntax? {
        for element in attributes {
            guard let attribute = element.as(AttributeSyntax.self), Self.isAttribute(element, named: attributeName) else { continue }
            return attribute.arguments?.as(LabeledExprListSyntax.self) ?? []
        }
        return nil
    }

    static func isAttribute(_ element: AttributeListSyntax.Element, named name: String) -> Bool {
        guard let attribute = element.as(AttributeSyntax.self) else { return false }
        let written = attribute.attributeName.trimmedDescription
        return written == name || written == "SwiftData.\(name)"
    }

    private static let nonPersistentModifiers: Set<String> = ["static", "class", "lazy"]
}
