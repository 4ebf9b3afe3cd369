// Fetch requests: model-level templates and the requests of fetched properties.
extension ModelFileReader {
    /// A `<fetchRequest>`, with every request attribute the format has.
    func fetchRequest(from element: XMLDocumentElement) throws -> NSFetchRequest<NSFetchRequestResult> {
        try Self.checkChildren(of: element, among: [])
        let request = NSFetchRequest<NSFetchRequestResult>()
        request.entity = try entity(named: Self.required("entity", of: element), at: element)
        request.predicate = try Self.predicate("predicateString", of: element)
        request.fetchLimit = try Self.integer("fetchLimit", of: element) ?? 0
        request.fetchBatchSize = try Self.integer("fetchBatchSize", of: element) ?? 0
        if let resultType = try Self.integer("resultType", of: element) {
            guard [0, 1, 2, 4].contains(resultType) else { throw ModelFileError("'resultType' is \(resultType), not 0, 1, 2 or 4", at: element) }
            request.resultType = NSFetchRequestResultType(rawValue: UInt(resultType))
        }
        request.includesSubentities = try Self.flag("includeSubentities", of: element) ?? true
        request.includesPropertyValues = try Self.flag("includePropertyValues", of: element) ?? true
        request.includesPendingChanges = try Self.flag("includesPendingChanges", of: element) ?? true
        request.returnsObjectsAsFaults = try Self.flag("returnObjectsAsFaults", of: element) ?? true
        request.returnsDistinctResults = try Self.flag("returnDistinctResults", of: element) ?? false
        return request
    }

    /// A `<fetchedProperty>` and the request it holds.
    func fetchedProperty(from element: XMLDocumentElement) throws -> NSFetchedPropertyDescription {
        try Self.checkChildren(of: element, among: ["fetchRequest", "userInfo"])
        let property = NSFetchedPropertyDescription()
        try Self.readPropertyBasics(of: property, from: element)
        let requests = element.children(named: "fetchRequest")
        guard requests.count == 1 else { throw ModelFileError("a fetched property needs one <fetchRequest>", at: element) }
        property.fetchRequest = try fetchRequest(from: requests[0])
        return property
    }
}
