/// The latencies of the events one run waited for (W11: a commit in another process, to the
/// notification that reports it), for workloads whose goal is a latency distribution rather than
/// the time of the whole run.
struct EventLatencies: Sendable {
    /// The latency of each event that arrived, in seconds.
    var seconds: [Double]
    /// How many events never arrived within the run's patience.
    var missed: Int

    /// The events of several runs together (their percentiles are those of all the events).
    static func pooled(_ runs: [EventLatencies]) -> EventLatencies {
        EventLatencies(seconds: runs.flatMap(\.seconds), missed: runs.reduce(0) { $0 + $1.missed })
    }

    /// The nearest-rank percentile `fraction` (0.5 for the median, 0.99 for p99) of the arrived
    /// events, in seconds: the smallest latency that at least that fraction of them did not exceed.
    /// `nan` when no event arrived.
    func percentile(_ fraction: Double) -> Double {
        guard !seconds.isEmpty else { return .nan }
        let sorted = seconds.sorted()
        let rank = Int((fraction * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }

    /// The percentiles every latency report prints, with their field names.
    static let reportedPercentiles: [(name: String, fraction: Double)] = [
        ("median", 0.5), ("p90", 0.9), ("p99", 0.99), ("max", 1.0),
    ]
}
