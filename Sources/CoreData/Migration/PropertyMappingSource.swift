/// Where a property mapping's value comes from, when its value expression is one of the simple
/// forms a migration can run in SQL: nothing (the default value), a constant, a source property
/// (`$source.name`, `FUNCTION($source, "valueForKey:", "name")`), or the destinations of a source
/// relationship (`FUNCTION($manager, "destinationInstancesForSourceRelationshipNamed:sourceInstances:", "books", …)`
/// or `FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "BookToBook", $source.books)`).
enum PropertyMappingSource {
    case defaultValue
    case constant(Any?)
    case sourceProperty(String)

    /// The source of a value expression, or nil when the expression needs objects to evaluate.
    init?(_ expression: NSExpression?) {
        guard let expression else {
            self = .defaultValue
            return
        }
        switch expression.node {
        case .constant(let constant):
            self = .constant(constant.value)
        case .keyPath(base: .variable(NSMigrationSourceObjectKey)?, components: let components) where components.count == 1:
            self = .sourceProperty(components[0])
        case .method(receiver: .variable(NSMigrationSourceObjectKey), selector: "valueForKey:", arguments: let arguments):
            guard let name = Self.constantString(arguments) else { return nil }
            self = .sourceProperty(name)
        case .method(receiver: .variable(NSMigrationManagerKey), selector: "destinationInstancesForSourceRelationshipNamed:sourceInstances:", arguments: let arguments):
            guard let name = Self.constantString(arguments) else { return nil }
            self = .sourceProperty(name)
        case .method(receiver: .variable(NSMigrationManagerKey), selector: "destinationInstancesForEntityMappingNamed:sourceInstances:", arguments: let arguments):
            guard arguments.count == 2, case .sourceProperty(let name)? = PropertyMappingSource(NSExpression(node: arguments[1])) else { return nil }
            self = .sourceProperty(name)
        default:
            return nil
        }
    }

    private static func constantString(_ arguments: [ExpressionNode]) -> String? {
        guard let first = arguments.first, case .constant(let constant) = first else { return nil }
        return constant.value as? String
    }
}
