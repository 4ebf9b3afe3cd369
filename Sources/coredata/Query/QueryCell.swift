import CoreData

/// A property's value in a query's output: its text for tables and CSV, and its JSON value.
struct QueryCell {
    /// The text; nil for no value, which a table shows as `nil` and CSV leaves empty.
    let text: String?
    /// A value `JSONSerialization` writes: a string, a number, a Boolean, an array of strings or
    /// `NSNull`.
    let json: Any

    /// The cell of an object's property. A relationship shows its destinations' URIs, sorted
    /// for an unordered one; an attribute its JSON (``AttributeJSON``).
    init(_ value: Any?, of property: NSPropertyDescription) {
        guard let value else {
            self.init(text: nil, json: NSNull())
            return
        }
        if let relationship = property as? NSRelationshipDescription {
            self.init(relationship: relationship, value: value)
        } else if let attribute = property as? NSAttributeDescription {
            self.init(attribute: attribute, value: value)
        } else {
            self.init(text: String(describing: value), json: String(describing: value))
        }
    }

    private init(text: String?, json: Any) {
        self.text = text
        self.json = json
    }

    private init(relationship: NSRelationshipDescription, value: Any) {
        let json = RelationshipJSON.json(value, for: relationship)
        self.init(text: (json as? [String])?.joined(separator: " ") ?? "\(json)", json: json)
    }

    /// An attribute's JSON (``AttributeJSON``), shown as it is but for binary data, whose size
    /// a table shows, and composites, shown as their JSON.
    private init(attribute: NSAttributeDescription, value: Any) {
        let json = AttributeJSON.json(value, for: attribute)
        switch (value, json) {
        case (let data as Data, _) where attribute.attributeType == .binaryDataAttributeType:
            self.init(text: "<\(data.count) bytes>", json: json)
        case (_, let object as [String: Any]):
            let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
            self.init(text: data.map { String(decoding: $0, as: UTF8.self) } ?? "\(object)", json: json)
        default:
            self.init(text: "\(json)", json: json)
        }
    }
}
