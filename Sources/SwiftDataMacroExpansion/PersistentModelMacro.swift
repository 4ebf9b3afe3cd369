import SwiftSyntax
import SwiftSyntaxMacros

/// `@Model`: makes a class a persistent model.
///
/// Each stored property gets `@_PersistedProperty(ordinal)`, whose accessors keep the value in the
/// model's backing data; the class gets the backing data, the schema metadata, the initializer the
/// framework creates fetched models with, an observation registrar, and conformances to
/// `PersistentModel` and `Observable`.
package struct PersistentModelMacro: MemberMacro, MemberAttributeMacro, ExtensionMacro {
    package static func expansion(
        of node: AttributeSyntax,
        providingMembersOf declaration: some DeclGroupSyntax,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let classDeclaration = declaration.as(ClassDeclSyntax.self) else {
            throw MacroExpansionErrorMessage("@Model can only be applied to a class")
        }
        let className = classDeclaration.name.trimmedDescription
        let members = ModelMember.persisted(in: declaration.memberBlock.members)
        let metadata = members.map { metadataEntry(for: $0, of: className) }.joined(separator: ",\n")
        let placeholders = members.filter { !$0.isConstant }.map { "_\($0.name) = _SwiftDataNoType()" }.joined(separator: "\n")
        var declarations: [DeclSyntax] = [
            // The accessors use the backing data and the registrar in place, on the model's actor,
            // with no dynamic exclusivity check; the backing data is a class existential, which
            // they call with no copy.
            "@exclusivity(unchecked) private var _$backingData: any SwiftData.BackingData<\(raw: className)> & AnyObject = \(raw: className)._$createBackingObject()",
            """
            public var persistentBackingData: any SwiftData.BackingData<\(raw: className)> {
                get { _$backingData }
                set { _$backingData = \(raw: className)._$backingObject(newValue) }
            }
            """,
            """
            public static var schemaMetadata: [SwiftData.Schema.PropertyMetadata] {
                [
                \(raw: metadata)
                ]
            }
            """,
            """
            public required init(backingData: any SwiftData.BackingData<\(raw: className)>) {
                \(raw: placeholders)
                self.persistentBackingData = backingData
            }
            """,
            "@exclusivity(unchecked) private var _$observationRegistrar = SwiftData._ModelObservationRegistrar()",
            "struct _SwiftDataNoType {}",
        ]
        // The key paths the accessors report reads and writes with, made once rather than at
        // each access.
        for member in members where !member.isConstant {
            declarations.append("private static let \(raw: PersistedPropertyMacro.keyPathName(of: member.name)) = \\\(raw: className).\(raw: member.name)")
        }
        let constants = members.indices.filter { members[$0].isConstant }
        if !constants.isEmpty {
            declarations.append("public static var _$constantOrdinals: [Int] { [\(raw: constants.map(String.init).joined(separator: ", "))] }")
        }
        let constraints = ModelConstraintMacro.constraints(in: declaration.memberBlock.members, of: className)
        if !constraints.isEmpty {
            declarations.append(
                """
                public static var _$modelConstraints: [SwiftData.Schema._ModelConstraint] {
                    [\(raw: constraints.joined(separator: ", "))]
                }
                """)
        }
        return declarations
    }

    package static func expansion(
        of node: AttributeSyntax,
        attachedTo declaration: some DeclGroupSyntax,
        providingAttributesFor member: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [AttributeSyntax] {
        guard declaration.is(ClassDeclSyntax.self),
              let variable = member.as(VariableDeclSyntax.self),
              let persisted = ModelMember(persisting: variable), !persisted.isConstant,
              let ordinal = ModelMember.persisted(in: declaration.memberBlock.members).firstIndex(where: { $0.name == persisted.name })
        else { return [] }
        return ["@_PersistedProperty(\(raw: ordinal))"]
    }

    package static func expansion(
        of node: AttributeSyntax,
        attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        guard declaration.is(ClassDeclSyntax.self) else { return [] }
        return [
            try ExtensionDeclSyntax("extension \(type.trimmed): SwiftData.PersistentModel {}"),
            try ExtensionDeclSyntax("extension \(type.trimmed): Observation.Observable {}"),
        ]
    }

    /// The `Schema.PropertyMetadata` of a member: its name, key path, default value, and the
    /// options of its `@Attribute` or `@Relationship`, passed on as written.
    private static func metadataEntry(for member: ModelMember, of className: String) -> String {
        let defaultValue = member.defaultValue?.description ?? "nil"
        var options = "nil"
        if let arguments = member.arguments(ofAttributeNamed: "Attribute") {
            options = "SwiftData.Schema.Attribute(\(arguments.trimmedDescription))"
        } else if let arguments = member.arguments(ofAttributeNamed: "Relationship") {
            options = "SwiftData.Schema.Relationship(\(arguments.trimmedDescription))"
        }
        return "SwiftData.Schema.PropertyMetadata(name: \"\(member.name)\", keypath: \\\(className).\(member.name), defaultValue: \(defaultValue), metadata: \(options))"
    }
}
