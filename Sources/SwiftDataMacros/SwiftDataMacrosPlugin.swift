import SwiftCompilerPlugin
import SwiftSyntaxMacros

/// The compiler plug-in that expands SwiftData's macros.
@main
struct SwiftDataMacrosPlugin: CompilerPlugin {
    let providingMacros: [any Macro.Type] = [
        PersistentModelMacro.self,
        PersistedPropertyMacro.self,
        PropertyOptionsMacro.self,
        ModelConstraintMacro.self,
        ModelActorMacro.self,
    ]
}
