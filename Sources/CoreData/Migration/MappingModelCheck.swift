/// Checks that a mapping model fits the models it migrates between: every entity it names
/// exists, with the version hash the mapping recorded (spec `semantics.md` MIG-12), and mapping
/// names are unique, as the association tables are keyed by them.
struct MappingModelCheck {
    let mapping: NSMappingModel
    let sourceModel: NSManagedObjectModel
    let destinationModel: NSManagedObjectModel

    func run() throws {
        var names = Set<String>()
        for entityMapping in mapping.entityMappings ?? [] {
            let name = entityMapping.name ?? ""
            guard names.insert(name).inserted else {
                throw Self.mismatch("Two entity mappings are named '\(name)'.")
            }
            let source = try entity(entityMapping.sourceEntityName, in: sourceModel, of: entityMapping, side: "source")
            let destination = try entity(entityMapping.destinationEntityName, in: destinationModel, of: entityMapping, side: "destination")
            if let source, let destination {
                try Self.checkHashes(of: entityMapping, source: source, destination: destination)
            }
        }
    }

    /// Fails when the mapping was made for other versions of its entities.
    static func checkHashes(of mapping: NSEntityMapping, source: NSEntityDescription, destination: NSEntityDescription) throws {
        let sourceMatches = mapping.sourceEntityVersionHash.map { $0 == source.versionHash } ?? true
        let destinationMatches = mapping.destinationEntityVersionHash.map { $0 == destination.versionHash } ?? true
        guard sourceMatches && destinationMatches else {
            throw mismatch("Entity mapping \(mapping.name ?? "?") was made for other versions of \(source.entityName) or \(destination.entityName): its version hashes differ.")
        }
    }

    private func entity(_ name: String?, in model: NSManagedObjectModel, of mapping: NSEntityMapping, side: String) throws -> NSEntityDescription? {
        guard let name else { return nil }
        guard let entity = model.entitiesByName[name] else {
            throw Self.mismatch("Entity mapping \(mapping.name ?? "?") names the \(side) entity \(name), which the \(side) model does not have.")
        }
        return entity
    }

    private static func mismatch(_ reason: String) -> NSError {
        CoreDataError.make(NSMigrationError, "Mismatch between mapping and source/destination models: \(reason)", userInfo: ["reason": reason])
    }
}
