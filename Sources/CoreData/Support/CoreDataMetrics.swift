import Metrics

/// Core Data's counters and timers, through swift-metrics, for a server's metrics backend
/// (`MetricsSystem.bootstrap`, before Core Data's first use). Without a backend, swift-metrics'
/// no-op handlers take each report, at the cost of a call.
///
/// Counts are reported once per operation, not per row: a fetch adds its rows in one report.
package enum CoreDataMetrics {
    /// Fetch requests a context ran (`coredata_fetches_total`).
    static let fetches = Counter(label: "coredata_fetches_total")
    /// Rows the stores returned to fetches and faults (`coredata_rows_fetched_total`).
    static let rowsFetched = Counter(label: "coredata_rows_fetched_total")
    /// Faults that read their object's row (`coredata_faults_fired_total`).
    static let faultsFired = Counter(label: "coredata_faults_fired_total")
    /// Rows a fault found in the coordinator's row cache, without a store read
    /// (`coredata_row_cache_hits_total`).
    static let rowCacheHits = Counter(label: "coredata_row_cache_hits_total")
    /// Saves of a context into its stores (`coredata_saves_total`).
    static let saves = Counter(label: "coredata_saves_total")
    /// How long those saves took (`coredata_save_duration_seconds`).
    static let saveDuration = Timer(label: "coredata_save_duration_seconds")
    /// Optimistic-locking conflicts saves met (`coredata_save_conflicts_total`).
    static let conflicts = Counter(label: "coredata_save_conflicts_total")
    /// Changes merged into contexts from other contexts' saves (`coredata_merges_total`).
    static let merges = Counter(label: "coredata_merges_total")
    /// Store migrations run (`coredata_migrations_total`).
    package static let migrations = Counter(label: "coredata_migrations_total")
}
