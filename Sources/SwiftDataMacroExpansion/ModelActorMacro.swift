import SwiftSyntax
import SwiftSyntaxMacros

/// `@ModelActor`: gives an actor a model executor, a model container, and an initializer that
/// makes both from a container, and conforms it to `ModelActor`.
package struct ModelActorMacro: MemberMacro, ExtensionMacro {
    package static func expansion(
        of node: AttributeSyntax,
        providingMembersOf declaration: some DeclGroupSyntax,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard declaration.is(ActorDeclSyntax.self) else {
            throw MacroExpansionErrorMessage("@ModelActor can only be applied to an actor")
        }
        return [
            "public nonisolated let modelExecutor: any SwiftData.ModelExecutor",
            "public nonisolated let modelContainer: SwiftData.ModelContainer",
            """
            public init(modelContainer: SwiftData.ModelContainer) {
                let modelContext = SwiftData.ModelContext(modelContainer)
                self.modelExecutor = SwiftData.DefaultSerialModelExecutor(modelContext: modelContext)
                self.modelContainer = modelContainer
            }
            """,
        ]
    }

    package static func expansion(
        of node: AttributeSyntax,
        attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        // The member role reports a declaration that is not an actor, once.
        guard declaration.is(ActorDeclSyntax.self) else { return [] }
        return [try ExtensionDeclSyntax("extension \(type.trimmed): SwiftData.ModelActor {}")]
    }
}
