extension Workload {
    /// Every workload, in the order `bench` runs them. Add new workloads here.
    static var all: [Workload] {
        [
            .w1InsertItems,
            .w2FetchItems,
        ]
    }
}
