/// A fetch request expression that the store answers inside the query of the fetch comparing
/// with it, as a subquery, rather than the context running it first: the plan of the nested
/// request, in place of the request in the expression.
///
/// The context makes one only for a store that compiles them (`compilesSubfetches`) and only
/// where the subquery gives what running the request would: the same context and store, and no
/// unsaved changes for either fetch to include.
final class StoreSubfetch: CustomStringConvertible {
    let plan: FetchPlan

    init(plan: FetchPlan) {
        self.plan = plan
    }

    var description: String {
        "<subfetch of \(plan.entity.entityName)\(plan.predicate.map { " where \($0.predicateFormat)" } ?? "")>"
    }
}
