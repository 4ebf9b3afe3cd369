/// How one property of a destination entity gets its value in a migration.
///
/// The value expression is evaluated for each destination instance with the migration variables
/// bound (`$source`, `$manager`, `$entityPolicy`…, see `NSMigrationSourceObjectKey`). A nil
/// expression leaves the destination property at its default value.
open class NSPropertyMapping: NSObject {
    /// The name of the destination property.
    open var name: String?

    /// The expression that computes the destination property's value.
    open var valueExpression: NSExpression?

    /// Application data attached to the mapping.
    open var userInfo: [AnyHashable: Any]?

    public override init() {
        super.init()
    }

    convenience init(name: String, valueExpression: NSExpression?) {
        self.init()
        self.name = name
        self.valueExpression = valueExpression
    }

    open override var description: String {
        "(<NSPropertyMapping>) name \(name ?? "nil"), valueExpression \(valueExpression.map { "\($0)" } ?? "nil")"
    }
}
