import SwiftDataMacroExpansion
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacrosGenericTestSupport
import Testing

@Suite struct PersistentModelMacroTests {
    private let macros: [String: MacroSpec] = [
        "Model": MacroSpec(type: PersistentModelMacro.self),
        "Transient": MacroSpec(type: PropertyOptionsMacro.self),
        "Attribute": MacroSpec(type: PropertyOptionsMacro.self),
    ]

    @Test func storedPropertiesBecomePersistedAndTransientOnesStayAsTheyAre() {
        assertMacroExpansion(
            """
            @Model final class Note {
                @Attribute(.unique) var title: String
                var body: String = ""
                @Transient var isSelected = false
                var summary: String { body }
                init(title: String) { self.title = title }
            }
            """,
            expandedSource: """
                final class Note {
                    @_PersistedProperty(0) var title: String
                    @_PersistedProperty(1)
                    var body: String = ""
                    var isSelected = false
                    var summary: String { body }
                    init(title: String) { self.title = title }

                    @exclusivity(unchecked) private var _$backingData: any SwiftData.BackingData<Note> & AnyObject = Note._$createBackingObject()

                    public var persistentBackingData: any SwiftData.BackingData<Note> {
                        get {
                            _$backingData
                        }
                        set {
                            _$backingData = Note._$backingObject(newValue)
                        }
                    }

                    public static var schemaMetadata: [SwiftData.Schema.PropertyMetadata] {
                        [
                        SwiftData.Schema.PropertyMetadata(name: "title", keypath: \\Note.title, defaultValue: nil, metadata: SwiftData.Schema.Attribute(.unique)),
                        SwiftData.Schema.PropertyMetadata(name: "body", keypath: \\Note.body, defaultValue: "", metadata: nil)
                        ]
                    }

                    public required init(backingData: any SwiftData.BackingData<Note>) {
                        _title = _SwiftDataNoType()
                        _body = _SwiftDataNoType()
                        self.persistentBackingData = backingData
                    }

                    @exclusivity(unchecked) private var _$observationRegistrar = SwiftData._ModelObservationRegistrar()

                    struct _SwiftDataNoType {
                    }

                    private static let _$keyPath_title = \\Note.title

                    private static let _$keyPath_body = \\Note.body
                }

                extension Note: SwiftData.PersistentModel {
                }

                extension Note: Observation.Observable {
                }
                """,
            macroSpecs: macros,
            failureHandler: { Issue.record(Comment(rawValue: $0.message)) })
    }

    @Test func onlyClassesCanBeModels() {
        assertMacroExpansion(
            """
            @Model struct Point {
                var x: Int
            }
            """,
            expandedSource: """
                struct Point {
                    var x: Int
                }
                """,
            diagnostics: [DiagnosticSpec(message: "@Model can only be applied to a class", line: 1, column: 1)],
            macroSpecs: macros,
            failureHandler: { Issue.record(Comment(rawValue: $0.message)) })
    }
}
