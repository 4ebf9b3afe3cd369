/// Which destination instances a migration created from which source instances, per entity
/// mapping: the association tables of `NSMigrationManager`.
///
/// Source instances are keyed by object ID (they come from a store); destination instances by
/// identity, as they are new objects with temporary IDs until the destination store is saved.
struct MigrationAssociations {
    private struct Table {
        var sources: [NSManagedObject] = []
        var destinations: [NSManagedObject] = []
        var destinationsBySource: [NSManagedObjectID: [NSManagedObject]] = [:]
        var sourcesByDestination: [ObjectIdentifier: [NSManagedObject]] = [:]
    }

    private var tables: [String: Table] = [:]
    /// The destinations of each source instance, whatever mapping created them.
    private var destinationsBySource: [NSManagedObjectID: [NSManagedObject]] = [:]

    mutating func associate(_ source: NSManagedObject, with destination: NSManagedObject, mappingName: String) {
        var table = tables[mappingName] ?? Table()
        if table.destinationsBySource[source.objectID] == nil { table.sources.append(source) }
        if table.sourcesByDestination[ObjectIdentifier(destination)] == nil { table.destinations.append(destination) }
        table.destinationsBySource[source.objectID, default: []].append(destination)
        table.sourcesByDestination[ObjectIdentifier(destination), default: []].append(source)
        tables[mappingName] = table
        destinationsBySource[source.objectID, default: []].append(destination)
    }

    /// The destinations the mapping created for `sources`, or all of them when `sources` is nil.
    func destinations(mappingName: String, sources: [NSManagedObject]?) -> [NSManagedObject] {
        guard let table = tables[mappingName] else { return [] }
        guard let sources else { return table.destinations }
        return sources.flatMap { table.destinationsBySource[$0.objectID] ?? [] }
    }

    /// The sources the mapping created `destinations` from, or all of them when nil.
    func sources(mappingName: String, destinations: [NSManagedObject]?) -> [NSManagedObject] {
        guard let table = tables[mappingName] else { return [] }
        guard let destinations else { return table.sources }
        return destinations.flatMap { table.sourcesByDestination[ObjectIdentifier($0)] ?? [] }
    }

    /// The destinations of `sources` in any mapping.
    func destinations(ofSources sources: [NSManagedObject]) -> [NSManagedObject] {
        sources.flatMap { destinationsBySource[$0.objectID] ?? [] }
    }
}
