import SwiftSyntax
import SwiftSyntaxMacros

/// `@_PersistedProperty(ordinal)`, which `@Model` puts on each persisted property: accessors that
/// read and write the value in the model's backing data (found by the property's position in the
/// schema metadata, so that no key is looked up) and report access and mutation to the model's
/// observation registrar; and the placeholder storage the initializer accessor initializes.

package struct PersistedPropertyMacro: AccessorMacro, PeerMacro {
    package static func expansion(
        of node: AttributeSyntax,
        providingAccessorsOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [AccessorDeclSyntax] {
        guard let name = propertyName(of: declaration), let ordinal = ordinal(in: node) else { return [] }
        return [
            """
            @storageRestrictions(accesses: _$backingData, initializes: _\(raw: name))
            init(initialValue) {
                _$backingData._$setInitialValue(initialValue, at: \(raw: ordinal))
                _\(raw: name) = _SwiftDataNoType()
            }
            """,
            """
            get {
                _$observationRegistrar.access(self, keyPath: Self.\(raw: keyPathName(of: name)))
                return _$backingData._$read(at: \(raw: ordinal))
            }
            """,
            """
            set {
                _$observationRegistrar.withMutation(of: self, keyPath: Self.\(raw: keyPathName(of: name))) {
                    _$backingData._$assign(newValue, at: \(raw: ordinal), of: self)
                }
            }
            """,
        ]
    }

    package static func expansion(
        of node: AttributeSyntax,
        providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let name = propertyName(of: declaration) else { return [] }
        return ["private var _\(raw: name): _SwiftDataNoType"]
    }

    /// The name of the static key path of a property, which `@Model` declares.
    static func keyPathName(of property: String) -> String {
        "_$keyPath_\(property)"
    }

    private static func propertyName(of declaration: some DeclSyntaxProtocol) -> String? {
        declaration.as(VariableDeclSyntax.self)?.bindings.first?.pattern.as(IdentifierPatternSyntax.self)?.identifier.trimmedDescription
    }

    private static func ordinal(in node: AttributeSyntax) -> String? {
        node.arguments?.as(LabeledExprListSyntax.self)?.first?.expression.trimmedDescription
    }
}
