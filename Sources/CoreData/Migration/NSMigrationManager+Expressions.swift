// Evaluating a mapping model's expressions on objects: value expressions with the migration
// variables bound, source expressions, and the messages expressions send to `$manager`.
extension NSMigrationManager {
    /// A new instance of the mapping's destination entity, inserted into the destination context.
    func insertDestinationInstance(for mapping: NSEntityMapping) throws -> NSManagedObject {
        guard let entity = destinationEntity(for: mapping), !entity.isAbstract else {
            throw CoreDataError.make(NSMigrationError, "Entity mapping \(mapping.name ?? "?") has no concrete destination entity to create instances of.")
        }
        return destinationContext.objectClass(for: entity).init(entity: entity, insertInto: destinationContext)
    }

    /// Sets each mapped property of `destination` to the value of its mapping's value expression,
    /// evaluated with `$source`, `$destination`, `$manager`, `$entityMapping`, `$propertyMapping`
    /// and `$entityPolicy` bound. A relationship takes the objects of the value: the first for a
    /// to-one relationship, all of them for a to-many one. A required attribute with a default
    /// value keeps the default where the expression gives nil, as a lightweight migration fills
    /// an attribute made required.
    func applyMappings(_ mappings: [NSPropertyMapping]?, to destination: NSManagedObject, from source: NSManagedObject?, in mapping: NSEntityMapping, policy: NSEntityMigrationPolicy) throws {
        var variables: [String: Any] = [
            NSMigrationManagerKey: self,
            NSMigrationDestinationObjectKey: destination,
            NSMigrationEntityMappingKey: mapping,
            NSMigrationEntityPolicyKey: policy,
        ]
        variables[NSMigrationSourceObjectKey] = source
        for propertyMapping in mappings ?? [] {
            guard let name = propertyMapping.name, let expression = propertyMapping.valueExpression else { continue }
            let property = destination.entity.propertiesByName[name]
            guard let property, property is NSAttributeDescription || property is NSRelationshipDescription else {
                throw CoreDataError.make(NSMigrationError, "Entity mapping \(mapping.name ?? "?") maps \(name), which is not an attribute or relationship of \(destination.entity.entityName).")
            }
            variables[NSMigrationPropertyMappingKey] = propertyMapping
            let what = "the value expression of \(mapping.name ?? "?").\(name)"
            evaluatedProperty = property
            defer { evaluatedProperty = nil }
            let value = try propertyValue(try evaluate(expression, variables: variables, with: source, describing: what), for: property, describing: what)
            if value == nil, let attribute = property as? NSAttributeDescription, !attribute.isOptional, attribute.defaultValue != nil {
                // An attribute made required with a default keeps the default where the source
                // had no value, as a lightweight migration gives it.
                continue
            }
            destination.setValue(value, forKey: name)
        }
    }

    /// The source instances a mapping's source expression yields: the results of a fetch request
    /// it evaluates to (`FUNCTION($manager, "fetchRequestForSourceEntityNamed:predicateString:", …)`),
    /// or the objects of a collection.
    func sourceInstances(evaluating expression: NSExpression, for mapping: NSEntityMapping) throws -> [NSManagedObject] {
        let variables: [String: Any] = [NSMigrationManagerKey: self, NSMigrationEntityMappingKey: mapping]
        let value = try evaluate(expression, variables: variables, with: nil, describing: "the source expression of \(mapping.name ?? "?")")
        if let request = value as? NSFetchRequest<NSManagedObject> {
            return try sourceContext.fetch(request)
        }
        guard let objects = Self.objects(in: value) else {
            throw CoreDataError.make(NSMigrationError, "The source expression of \(mapping.name ?? "?") gave \(type(of: value ?? NSNull())), not a fetch request or a collection of objects.")
        }
        return objects
    }

    private func evaluate(_ expression: NSExpression, variables: [String: Any], with object: Any?, describing what: String) throws -> Any? {
        if let parseError = expression.parseError { throw parseError }
        do {
            return try PredicateEvaluator(variables: variables).value(of: expression.node, with: object)
        } catch {
            throw CoreDataError.make(
                NSMigrationError,
                "Evaluating \(what) (\(expression)) failed: \(CoreDataError.reason(of: error))",
                userInfo: [NSUnderlyingErrorKey: error as NSError]
            )
        }
    }

    /// The value to set: for a relationship, destination instances of its destination entity
    /// (source instances, say `$source.books` without the manager's function, are refused).
    private func propertyValue(_ value: Any?, for property: NSPropertyDescription, describing what: String) throws -> Any? {
        guard let relationship = property as? NSRelationshipDescription else { return ValueUnwrapping.nonNull(value) }
        let objects = Self.objects(in: value) ?? []
        for object in objects where object.managedObjectContext !== destinationContext || !Self.fits(object, relationship) {
            throw CoreDataError.make(
                NSMigrationError,
                "\(what) gave \(object.managedObjectContext === destinationContext ? "destination" : "source") instances of \(object.entity.entityName); a relationship takes destination instances of \(relationship.destinationEntity?.name ?? "its entity") (FUNCTION($manager, \"destinationInstancesForEntityMappingNamed:sourceInstances:\", …)).",
                userInfo: ["reason": "\(what) gave objects that are not destination instances"]
            )
        }
        guard relationship.isToMany else { return objects.first }
        return relationship.isOrdered ? NSOrderedSet(array: objects) : NSSet(array: objects)
    }

    private static func fits(_ object: NSManagedObject, _ relationship: NSRelationshipDescription) -> Bool {
        relationship.destinationEntity.map { object.entity.isKindOf(entity: $0) } ?? true
    }

    /// The managed objects of a value: one object, or the objects of a collection; nil for any
    /// other value.
    private static func objects(in value: Any?) -> [NSManagedObject]? {
        guard let value = ValueUnwrapping.nonNull(value) else { return [] }
        if let object = value as? NSManagedObject { return [object] }
        return CollectionElements.elements(of: value)?.compactMap { $0 as? NSManagedObject }
    }
}

// `FUNCTION($manager, "selector", …)`: the manager's methods that value and source expressions use.
extension NSMigrationManager: ExpressionMessageReceiver {
    func answer(_ selector: String, arguments: [Any?]) throws -> Any? {
        switch (selector, arguments.count) {
        case ("destinationInstancesForEntityMappingNamed:sourceInstances:", 2):
            // A nil relationship maps to no instances, never to all of the mapping's.
            return destinationInstances(forEntityMappingName: try Self.string(arguments[0], of: selector), sourceInstances: Self.objects(in: arguments[1]) ?? [])
        case ("sourceInstancesForEntityMappingNamed:destinationInstances:", 2):
            return sourceInstances(forEntityMappingName: try Self.string(arguments[0], of: selector), destinationInstances: Self.objects(in: arguments[1]) ?? [])
        case ("destinationInstancesForSourceRelationshipNamed:sourceInstances:", 2):
            let destinations = associations.destinations(ofSources: Self.objects(in: arguments[1]) ?? [])
            guard let relationship = evaluatedProperty as? NSRelationshipDescription else { return destinations }
            return destinations.filter { Self.fits($0, relationship) }
        case ("fetchRequestForSourceEntityNamed:predicateString:", 2):
            let request = NSFetchRequest<NSManagedObject>(entityName: try Self.string(arguments[0], of: selector))
            request.includesSubentities = false
            request.predicate = try NSPredicate(validatingFormat: try Self.string(arguments[1], of: selector), argumentArray: nil)
            return request
        default:
            throw PredicateEvaluationError.unsupported("FUNCTION($manager, \"\(selector)\") with \(arguments.count) arguments")
        }
    }

    private static func string(_ argument: Any?, of selector: String) throws -> String {
        guard let string = argument as? String else {
            throw PredicateEvaluationError.invalidOperand("\(selector) needs a string, found \(type(of: argument ?? NSNull()))")
        }
        return string
    }
}

// `$manager.sourceContext` and the manager's other properties, through key-value coding.
extension NSMigrationManager: KeyValueCodingReadable {
    func keyValue(forKey key: String) throws -> Any? {
        switch key {
        case "sourceContext": sourceContext
        case "destinationContext": destinationContext
        case "sourceModel": sourceModel
        case "destinationModel": destinationModel
        case "mappingModel": mappingModel
        case "currentEntityMapping": currentEntityMapping
        case "migrationProgress": NSNumber(value: migrationProgress)
        case "userInfo": userInfo
        case "usesStoreSpecificMigrationManager": NSNumber(value: usesStoreSpecificMigrationManager)
        default: throw PredicateEvaluationError.unknownKey(key, typeName: "NSMigrationManager")
        }
    }
}
