import CoreData

/// A relationship's value as JSON: its destination's URI, or its destinations' URIs, in order
/// for an ordered relationship and sorted otherwise.
enum RelationshipJSON {
    static func json(_ value: Any, for relationship: NSRelationshipDescription) -> Any {
        guard relationship.isToMany else { return uri(of: value) }
        if let ordered = value as? NSOrderedSet {
            return ordered.array.map(uri(of:))
        }
        let destinations = (value as? Set<NSManagedObject>).map { Array($0) as [Any] } ?? (value as? NSSet)?.allObjects ?? []
        return destinations.map(uri(of:)).sorted()
    }

    private static func uri(of object: Any) -> String {
        (object as? NSManagedObject)?.objectID.uriRepresentation().absoluteString ?? String(describing: object)
    }
}
