// Relationships: their destinations, counts, delete rules and inverses.
extension ModelFileReader {
    /// A `<relationship>`; its inverse is connected once every entity has its relationships.
    func relationship(from element: XMLDocumentElement) throws -> NSRelationshipDescription {
        try Self.checkChildren(of: element, among: ["userInfo"])
        let relationship = NSRelationshipDescription()
        try Self.readPropertyBasics(of: relationship, from: element)
        relationship.destinationEntity = try entity(named: Self.required("destinationEntity", of: element), at: element)
        let isToMany = try Self.flag("toMany", of: element) ?? false
        relationship.maxCount = try Self.integer("maxCount", of: element) ?? (isToMany ? 0 : 1)
        relationship.minCount = try Self.integer("minCount", of: element) ?? 0
        guard relationship.maxCount == 0 || relationship.minCount <= relationship.maxCount else {
            throw ModelFileError("minCount \(relationship.minCount) is more than maxCount \(relationship.maxCount)", at: element)
        }
        relationship.isOrdered = try Self.flag("ordered", of: element) ?? false
        relationship.deleteRule = try Self.deleteRule(element)
        return relationship
    }

    static let deleteRulesByName: [String: NSDeleteRule] = [
        "No Action": .noActionDeleteRule, "Nullify": .nullifyDeleteRule, "Cascade": .cascadeDeleteRule, "Deny": .denyDeleteRule,
    ]

    private static func deleteRule(_ element: XMLDocumentElement) throws -> NSDeleteRule {
        guard let name = element["deletionRule"] else { return .nullifyDeleteRule }
        guard let rule = deleteRulesByName[name] else { throw ModelFileError("'deletionRule' is \"\(name)\", not Nullify, Cascade, Deny or No Action", at: element) }
        return rule
    }

    /// Sets the inverse of each relationship of the entity that names one.
    func connectInverses(of entity: NSEntityDescription, from element: XMLDocumentElement) throws {
        for child in element.children(named: "relationship") {
            guard let inverseName = child["inverseName"] else { continue }
            guard let relationship = entity.relationshipsByName[child["name"] ?? ""], let destination = relationship.destinationEntity else { continue }
            let inverseEntity = try child["inverseEntity"].map { try self.entity(named: $0, at: child) } ?? destination
            guard let inverse = inverseEntity.relationshipsByName[inverseName] else {
                throw ModelFileError("the inverse relationship \"\(inverseName)\" is not a relationship of \(inverseEntity.name ?? "")", at: child)
            }
            relationship.inverseRelationship = inverse
        }
    }
}
