/// An expression that evaluates to the result of a fetch request on a managed object context.
///
/// The request expression must evaluate to an `NSFetchRequest` and the context expression to an
/// `NSManagedObjectContext`, usually as constants:
///
/// ```swift
/// let recent = NSFetchRequest<NSManagedObject>(entityName: "Movie")
/// recent.predicate = NSPredicate(format: "year >= 2000")
/// let fetch = NSFetchRequestExpression.expression(
///     forFetch: NSExpression(forConstantValue: recent),
///     context: NSExpression(forConstantValue: context),
///     countOnly: false)
/// let predicate = NSPredicate(format: "movie IN %@", fetch)
/// ```
///
/// Evaluating it performs `fetch(_:)` in the context, or `count(for:)` when it is count-only.
/// A fetch whose predicate compares with it runs the expression's fetch first and compares with
/// its results (an array) or its count (an `NSNumber`), on every store type; a SQLite store
/// fetching in the expression's own context, with no unsaved changes for either fetch to
/// include, answers it instead as a subquery of the same statement (`SELF IN` or a to-one key
/// path `IN` its results, or a number compared with its count).
open class NSFetchRequestExpression: NSExpression {
    /// Returns an expression that evaluates to the result of executing a fetch request on a context.
    ///
    /// - Parameters:
    ///   - fetch: An expression that evaluates to an `NSFetchRequest`.
    ///   - context: An expression that evaluates to an `NSManagedObjectContext`.
    ///   - countFlag: When true, evaluating the expression performs `count(for:)` with the request
    ///     and gives the number as an `NSNumber`; otherwise it performs `fetch(_:)` and gives the
    ///     results array.
    open class func expression(forFetch fetch: NSExpression, context: NSExpression, countOnly countFlag: Bool) -> NSExpression {
        NSFetchRequestExpression(node: .fetchRequest(request: fetch.node, context: context.node, countOnly: countFlag),
                                 parseError: fetch.parseError ?? context.parseError)
    }

    /// The expression for the fetch request: evaluating it must give an `NSFetchRequest`.
    open var requestExpression: NSExpression {
        guard case .fetchRequest(let request, _, _) = node else { return NSExpression(forConstantValue: nil) }
        return NSExpression.make(node: request)
    }

    /// The expression for the managed object context: evaluating it must give an
    /// `NSManagedObjectContext`.
    open var contextExpression: NSExpression {
        guard case .fetchRequest(_, let context, _) = node else { return NSExpression(forConstantValue: nil) }
        return NSExpression.make(node: context)
    }

    /// Whether the expression gives the number of results (`count(for:)`) rather than the results
    /// (`fetch(_:)`).
    open var isCountOnlyRequest: Bool {
        guard case .fetchRequest(_, _, let countOnly) = node else { return false }
        return countOnly
    }
}

extension NSExpression {
    /// An expression object for `node`, of the class Apple would use for it: an
    /// `NSFetchRequestExpression` for a fetch request expression, an `NSExpression` otherwise.
    static func make(node: ExpressionNode) -> NSExpression {
        if case .fetchRequest = node { return NSFetchRequestExpression(node: node) }
        return NSExpression(node: node)
    }
}
