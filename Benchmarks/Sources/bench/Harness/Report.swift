import Foundation

/// The measurements of one workload under one setting.
struct WorkloadReport {
    var workload: Workload
    var settings: StoreSettings
    /// Objects handled per run.
    var count: Int
    /// Measured rounds (the warm-up excluded).
    var runs: Int
    /// How the fixture was made, if the workload has one.
    var fixtureNote: String?
    /// The checksum every run produced.
    var checksum: Checksum?
    /// One entry per peer, in run order.
    var statistics: [PeerStatistics]

    /// The statistics of the peer named `name`.
    func statistics(of name: String?) -> PeerStatistics? {
        guard let name else { return nil }
        return statistics.first { $0.peer == name }
    }
}

/// Prints reports: a table for people, then one `RESULT` line per result for machines.
enum Report {
    /// Prints the header, the table and the `RESULT` lines of `report`.
    static func print(_ report: WorkloadReport) {
        let workload = report.workload
        Console.line("== \(workload.name): \(workload.summary)")
        let settings = workload.settingsDescription?() ?? report.settings.label
        Console.line("   \(report.count) objects · \(settings) · \(report.runs) measured runs + 1 warm-up, peers interleaved")
        if let note = report.fixtureNote {
            Console.line("   fixture: \(note)")
        }
        if let checksum = report.checksum {
            Console.line("   checksum: \(checksum) (identical for every run of every peer)")
        }
        Console.line()
        for row in table(report) {
            Console.line("   " + row)
        }
        Console.line()
        let latencyRows = latencyTable(report)
        if !latencyRows.isEmpty {
            for row in latencyRows {
                Console.line("   " + row)
            }
            Console.line()
        }
        for line in workload.results {
            Console.line(resultLine(line, of: report))
        }
        Console.line()
    }

    /// The machine-readable line: `RESULT <label> raw=<ours/raw> grdb=<ours/GRDB> [mem=<MB>]
    /// [extras] [allocs=<n> raw_allocs=<n> grdb_allocs=<n>]`, with ratios of median wall times and
    /// median heap allocations per object.
    static func resultLine(_ line: ResultLine, of report: WorkloadReport) -> String {
        let label = "RESULT \(line.label)\(report.settings.resultSuffix)"
        guard let ours = report.statistics(of: line.ours) else {
            return "\(label) ours=missing"
        }
        var fields = [label]
        if let raw = report.statistics(of: line.raw) {
            fields.append("raw=" + ratio(ours.medianWall / raw.medianWall))
        }
        if let grdb = report.statistics(of: line.grdb) {
            fields.append("grdb=" + ratio(ours.medianWall / grdb.medianWall))
        }
        if report.workload.measuresMemory, let peak = ours.maxPeakRSSDelta {
            fields.append("mem=" + megabytes(peak))
        }
        for extra in line.extras {
            if let field = extraField(extra, ours: ours, raw: report.statistics(of: line.raw), report: report) {
                fields.append(field)
            }
        }
        fields += allocationFields(ours: ours, raw: report.statistics(of: line.raw), grdb: report.statistics(of: line.grdb), count: report.count)
        return fields.joined(separator: " ")
    }

    /// `allocs=` (the "ours" peer), `raw_allocs=` and `grdb_allocs=`: median heap allocations per
    /// object, for the peers of the line whose allocations were counted.
    private static func allocationFields(ours: PeerStatistics, raw: PeerStatistics?, grdb: PeerStatistics?, count: Int) -> [String] {
        [("allocs", ours), ("raw_allocs", raw), ("grdb_allocs", grdb)].compactMap { field, peer in
            allocationsPerObject(peer, count: count).map { "\(field)=\($0)" }
        }
    }

    /// A peer's median heap allocations divided by the object count, with two decimals, or `nil`
    /// when they were not counted.
    private static func allocationsPerObject(_ peer: PeerStatistics?, count: Int) -> String? {
        guard let allocations = peer?.medianAllocations else { return nil }
        return String(format: "%.2f", allocations / Double(max(count, 1)))
    }

    /// The `name=value` field of an extra figure, or `nil` when its inputs were not measured.
    private static func extraField(_ extra: ResultExtra, ours: PeerStatistics, raw: PeerStatistics?, report: WorkloadReport) -> String? {
        switch extra {
        case let .microsecondsOverRaw(operations):
            guard let raw else { return nil }
            let microseconds = (ours.medianWall - raw.medianWall) / Double(max(operations, 1)) * 1e6
            return "over_raw_us=" + String(format: "%.1f", microseconds)
        case .bytesPerObject:
            guard let peak = ours.maxPeakRSSDelta else { return nil }
            return "bytes_per_object=" + String(format: "%.0f", Double(peak) / Double(max(report.count, 1)))
        case let .medianMilliseconds(field, peer):
            guard let statistics = report.statistics(of: peer) else { return nil }
            return "\(field)=" + milliseconds(statistics.medianWall)
        case let .timesFaster(field, peer):
            guard let statistics = report.statistics(of: peer) else { return nil }
            return "\(field)=" + String(format: "%.2f", statistics.medianWall / ours.medianWall)
        case let .eventLatencies(prefix, peer):
            guard let latencies = report.statistics(of: peer)?.eventLatencies else { return nil }
            let percentiles = EventLatencies.reportedPercentiles.map { name, fraction in
                "\(prefix)\(name)_ms=" + milliseconds(latencies.percentile(fraction))
            }
            return (percentiles + ["\(prefix)missed=\(latencies.missed)"]).joined(separator: " ")
        case let .medianLatencyRatio(field, peer):
            guard let latencies = ours.eventLatencies, let other = report.statistics(of: peer)?.eventLatencies else { return nil }
            return "\(field)=" + String(format: "%.2f", latencies.percentile(0.5) / other.percentile(0.5))
        case let .objectsPerSecond(field, peer):
            guard let statistics = report.statistics(of: peer) else { return nil }
            return "\(field)=" + String(format: "%.0f", Double(report.count) / statistics.medianWall)
        }
    }

    /// The `RESULT` line printed in place of the ratios when a workload failed.
    static func failureLines(of workload: Workload, settings: StoreSettings) -> [String] {
        workload.results.map { "RESULT \($0.label)\(settings.resultSuffix) failed" }
    }

    /// The human-readable table, one row per peer.
    static func table(_ report: WorkloadReport) -> [String] {
        let raw = report.statistics.first { $0.family == .raw }
        let header = ["peer", "min s", "median s", "cpu s", "µs/object", "allocs/object", "peak ΔRSS MB", "× raw"]
        let rows = report.statistics.map { peer -> [String] in
            [
                peer.peer,
                seconds(peer.minWall),
                seconds(peer.medianWall),
                seconds(peer.medianCPU),
                String(format: "%.2f", peer.medianWall / Double(max(report.count, 1)) * 1e6),
                allocationsPerObject(peer, count: report.count) ?? "n/a",
                peer.maxPeakRSSDelta.map(megabytes) ?? "n/a",
                raw.map { String(format: "%.2f", peer.medianWall / $0.medianWall) } ?? "–",
            ]
        }
        return align([header] + rows)
    }

    /// The event latencies of the peers that measure them, over every measured run, one row per
    /// peer; empty when no peer does.
    static func latencyTable(_ report: WorkloadReport) -> [String] {
        let measured = report.statistics.compactMap { peer in peer.eventLatencies.map { (peer.peer, $0) } }
        guard !measured.isEmpty else { return [] }
        let percentiles = EventLatencies.reportedPercentiles
        let header = ["latency", "events"] + percentiles.map { "\($0.name) ms" } + ["missed"]
        let rows = measured.map { name, latencies -> [String] in
            let figures: [String] = percentiles.map { milliseconds(latencies.percentile($0.fraction)) }
            return [name, String(latencies.seconds.count)] + figures + [String(latencies.missed)]
        }
        return align([header] + rows)
    }

    /// Seconds as milliseconds with two decimals.
    static func milliseconds(_ seconds: Double) -> String {
        String(format: "%.2f", seconds * 1e3)
    }

    /// Pads columns: the first left-aligned, the others right-aligned.
    private static func align(_ rows: [[String]]) -> [String] {
        let widths = rows[0].indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { column, cell in
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                return column == 0 ? cell + padding : padding + cell
            }.joined(separator: "  ")
        }
    }

    /// Seconds with four decimals.
    static func seconds(_ value: Double) -> String {
        String(format: "%.4f", value)
    }

    /// A ratio with three decimals.
    static func ratio(_ value: Double) -> String {
        String(format: "%.3f", value)
    }

    /// Bytes as mebibytes (MB in the reports means 2²⁰ bytes), with one decimal.
    static func megabytes(_ bytes: Int) -> String {
        String(format: "%.1f", Double(bytes) / 1_048_576)
    }
}
