/// An element of a model file's XML: its name, its attributes, its child elements, and the line
/// it starts on, so that an error can say where the file is wrong.
struct ModelXMLElement {
    let name: String
    /// The attributes in the order the file gives them.
    let attributes: [(name: String, value: String)]
    var children: [ModelXMLElement] = []
    let line: Int

    init(name: String, attributes: [(name: String, value: String)], children: [ModelXMLElement] = [], line: Int = 0) {
        self.name = name
        self.attributes = attributes
        self.children = children
        self.line = line
    }

    /// The value of an attribute, or nil when the element has none of that name.
    subscript(attribute: String) -> String? {
        attributes.first { $0.name == attribute }?.value
    }

    /// The child elements of a name.
    func children(named name: String) -> [ModelXMLElement] {
        children.filter { $0.name == name }
    }

    /// How the element starts in the file, for error messages: `<entity name="Movie">`.
    var tag: String {
        let identifier = ["name", "property", "value", "key"].lazy.compactMap { key in self[key].map { " \(key)=\"\($0)\"" } }.first
        return "<\(name)\(identifier ?? "")>"
    }
}
