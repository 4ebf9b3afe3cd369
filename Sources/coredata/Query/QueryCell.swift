import CoreData

/// A property's value in a query's output: its text for tables and CSV, and its JSON value.
struct QueryCell {
    /// The text; nil for no value, which a table shows as `nil` and CSV leaves empty.
    let text: String?
    /// A value `JSONSerialization` writes: a string, a number, a Boolean, an array of strings or
    /// `NSNull`.
    let json: Any

    /// The cell of an object's property. A relationship shows its destinations' URIs, sorted
    /// for an unordered one; binary data its size, and base 64 in JSON.
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
        func uri(_ object: Any) -> String {
            (object as? NSManagedObject)?.objectID.uriRepresentation().absoluteString ?? String(describing: object)
        }
        guard relationship.isToMany else {
            let single = uri(value)
            self.init(text: single, json: single)
            return
        }
        let uris: [String]
        if let ordered = value as? NSOrderedSet {
            uris = ordered.array.map(uri)
        } else {
            uris = ((value as? Set<NSManagedObject>).map { Array($0) as [Any] } ?? (value as? NSSet)?.allObjects ?? []).map(uri).sorted()
        }
        self.init(text: uris.joined(separator: " "), json: uris)
    }

    private init(attribute: NSAttributeDescription, value: Any) {
        switch value {
        case let string as String:
            self.init(text: string, json: string)
        case let date as Date:
            let text = date.formatted(.iso8601)
            self.init(text: text, json: text)
        case let data as Data:
            self.init(text: "<\(data.count) bytes>", json: data.base64EncodedString())
        case let uuid as UUID:
            self.init(text: uuid.uuidString, json: uuid.uuidString)
        case let url as URL:
            self.init(text: url.absoluteString, json: url.absoluteString)
        case let objectID as NSManagedObjectID:
            let uri = objectID.uriRepresentation().absoluteString
            self.init(text: uri, json: uri)
        case let number as NSNumber where attribute.attributeType == .booleanAttributeType:
            self.init(text: number.boolValue ? "true" : "false", json: number.boolValue)
        case let number as NSNumber:
            self.init(text: "\(number)", json: number)
        default:
            let text = String(describing: value)
            self.init(text: text, json: text)
        }
    }
}
