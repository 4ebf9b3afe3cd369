import SwiftSyntax
import SwiftSyntaxMacros

/// `#Unique` and `#Index` in a model's body. They expand to nothing: `@Model` reads them and
/// declares the model's constraints, since a freestanding macro cannot add to its neighbours.
package struct ModelConstraintMacro: DeclarationMacro {
    package static func expansion(
        of node: some FreestandingMacroExpansionSyntax,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        []
    }

    /// The constraints written with `#Unique` and `#Index` among a model's members, as
    /// `Schema._ModelConstraint` expressions.
    static func constraints(in members: MemberBlockItemListSyntax, of className: String) -> [String] {
        members.compactMap { item -> String? in
            guard let expansion = item.decl.as(MacroExpansionDeclSyntax.self) else { return nil }
            let kind: String
            switch expansion.macroName.trimmedDescription {
            case "Unique": kind = "unique"
            case "Index": kind = "index"
            default: return nil
            }
            return "SwiftData.Schema._ModelConstraint.\(kind)(\(className).self, \(expansion.arguments.trimmedDescription))"
        }
    }
}
