/// How Xcode generates the class of an entity (a model file's `codeGenerationType`).
package enum CodeGenerationType: String, Sendable {
    /// "Class Definition": the class and its properties.
    case classDefinition = "class"
    /// "Category/Extension": only the extension that declares the properties.
    case category
}
