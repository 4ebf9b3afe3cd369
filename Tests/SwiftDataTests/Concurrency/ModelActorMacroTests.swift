import SwiftDataMacroExpansion
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacrosGenericTestSupport
import Testing

@Suite struct ModelActorMacroTests {
    private let macros: [String: MacroSpec] = [
        "ModelActor": MacroSpec(type: ModelActorMacro.self, conformances: ["ModelActor"])
    ]

    @Test func anActorGetsAnExecutorAContainerAnInitializerAndTheConformance() {
        assertMacroExpansion(
            """
            @ModelActor actor Importer {
                func run() {}
            }
            """,
            expandedSource: """
                actor Importer {
                    func run() {}

                    public nonisolated let modelExecutor: any SwiftData.ModelExecutor

                    public nonisolated let modelContainer: SwiftData.ModelContainer

                    public init(modelContainer: SwiftData.ModelContainer) {
                        let modelContext = SwiftData.ModelContext(modelContainer)
                        self.modelExecutor = SwiftData.DefaultSerialModelExecutor(modelContext: modelContext)
                        self.modelContainer = modelContainer
                    }
                }

                extension Importer: SwiftData.ModelActor {
                }
                """,
            macroSpecs: macros,
            failureHandler: { Issue.record(Comment(rawValue: $0.message)) })
    }

    @Test func aClassIsRefusedWithOneDiagnostic() {
        assertMacroExpansion(
            """
            @ModelActor final class Importer {
            }
            """,
            expandedSource: """
                final class Importer {
                }
                """,
            diagnostics: [DiagnosticSpec(message: "@ModelActor can only be applied to an actor", line: 1, column: 1)],
            macroSpecs: macros,
            failureHandler: { Issue.record(Comment(rawValue: $0.message)) })
    }
}
