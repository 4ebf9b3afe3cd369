/// Fetch request expressions the context hands over as `StoreSubfetch`es, answered inside the
/// fetch's own statement: the results as a subquery of primary keys (`t0.Z_PK IN (SELECT …)`),
/// a count as a scalar subquery (`(SELECT COUNT(*) FROM (SELECT …))`). The nested fetch is
/// compiled as any fetch is, with its constants bound as parameters.
extension SQLPredicateCompiler {
    func subfetchOperand(_ subfetch: StoreSubfetch, countOnly: Bool) throws -> Operand {
        guard let relationalStore = store as? any RelationalStore else { throw unsupported("a fetch request expression of another store") }
        let plan = subfetch.plan
        let paged = plan.limit > 0 || plan.offset > 0
        // The nested statement names its tables t0, t1, … too; being uncorrelated, it never
        // reads the outer statement's, which its own aliases hide.
        let keys = try relationalStore.select(plan: plan, schema: schema, paged: paged, sorted: paged) { _, _ in
            SQLProjection(columns: SQLFragment(sql: "t0.Z_PK"))
        }
        guard countOnly else { return .keys(keys, plan.entity) }
        return .scalar(SQLFragment(sql: "(SELECT COUNT(*) FROM (\(keys.sql)) AS fetched)", bindings: keys.bindings))
    }
}
