/// An element of an XML document: its name, its attributes, its child elements, its text, and
/// the line it starts on, so that an error can say where the file is wrong.
struct XMLDocumentElement {
    let name: String
    /// The attributes in the order the file gives them.
    let attributes: [(name: String, value: String)]
    var children: [XMLDocumentElement] = []
    /// The element's own text, whitespace between its children included.
    var text = ""
    let line: Int

    init(name: String, attributes: [(name: String, value: String)] = [], children: [XMLDocumentElement] = [], text: String = "", line: Int = 0) {
        self.name = name
        self.attributes = attributes
        self.children = children
        self.text = text
        self.line = line
    }

    /// The first child element of a name.
    func child(named name: String) -> XMLDocumentElement? {
        children.first { $0.name == name }
    }

    /// The value of an attribute, or nil when the element has none of that name.
    subscript(attribute: String) -> String? {
        attributes.first { $0.name == attribute }?.value
    }

    /// The child elements of a name.
    func children(named name: String) -> [XMLDocumentElement] {
        children.filter { $0.name == name }
    }

    /// How the element starts in the file, for error messages: `<entity name="Movie">`.
    var tag: String {
        let identifier = ["name", "property", "value", "key"].lazy.compactMap { key in self[key].map { " \(key)=\"\($0)\"" } }.first
        return "<\(name)\(identifier ?? "")>"
    }
}
