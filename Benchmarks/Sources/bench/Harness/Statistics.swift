/// The samples of one peer in one workload run, and their summary figures.
struct PeerStatistics {
    /// The peer's name.
    var peer: String
    /// The peer's family.
    var family: PeerFamily
    /// The measured runs (the warm-up excluded).
    var samples: [Sample]

    /// The fastest wall time, in seconds.
    var minWall: Double { samples.map(\.wallSeconds).min() ?? .nan }

    /// The median wall time, in seconds: the figure ratios are computed from.
    var medianWall: Double { Self.median(samples.map(\.wallSeconds)) }

    /// The median CPU time, in seconds.
    var medianCPU: Double { Self.median(samples.map(\.cpuSeconds)) }

    /// The largest peak-RSS delta over the runs, in bytes, if it could be measured.
    var maxPeakRSSDelta: Int? {
        let deltas = samples.compactMap(\.peakRSSDeltaBytes)
        return deltas.isEmpty ? nil : deltas.max()
    }

    /// The median number of heap allocations per run, if they were counted.
    var medianAllocations: Double? {
        let counts = samples.compactMap(\.allocations)
        // A closure, not `Double.init`, which would pick `init(bitPattern:)` for a `UInt64`.
        return counts.isEmpty ? nil : Self.median(counts.map { Double($0) })
    }

    /// The event latencies of every measured run together, for workloads that measure them.
    var eventLatencies: EventLatencies? {
        let runs = samples.compactMap(\.eventLatencies)
        return runs.isEmpty ? nil : EventLatencies.pooled(runs)
    }

    /// The median of `values` (the mean of the two middle values for an even count).
    static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return .nan }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count.isMultiple(of: 2) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
    }
}
