import Foundation

/// The `bench` program: parses the command line, runs the selected workloads one after the other,
/// prints their reports and cleans up.
enum BenchmarkCommand {
    /// Runs the program and returns its exit status: 0 when every workload ran and every checksum
    /// matched, 1 when a workload failed, 2 on a usage error.
    static func main(arguments: [String]) -> Int32 {
        if arguments.first == RemoteCommitWriter.subcommand {
            return RemoteCommitWriter.main(arguments: Array(arguments.dropFirst()))
        }
        if arguments.first == ScalingWriter.subcommand {
            return ScalingWriter.main(arguments: Array(arguments.dropFirst()))
        }
        let options: BenchmarkOptions
        let workloads: [Workload]
        do {
            options = try BenchmarkOptions.parse(arguments)
            if options.help {
                Console.line(BenchmarkOptions.usage)
                return 0
            }
            workloads = try select(options.workloadNames, from: Workload.all)
            let known = Set(workloads.flatMap { $0.peers.map(\.name) })
            if let unknown = options.peerNames.first(where: { !known.contains($0) }) {
                throw BenchmarkError.usage("no selected workload has a peer \(unknown)")
            }
        } catch {
            Console.error("bench: \(error)\n\n\(BenchmarkOptions.usage)")
            return 2
        }
        if options.list {
            for workload in Workload.all {
                let peers = workload.peers.map(\.name).joined(separator: ", ")
                Console.line("\(workload.name)\t\(workload.summary) [\(peers)]")
            }
            return 0
        }
        return run(workloads, options: options)
    }

    /// Runs `workloads` in order; a failed workload is reported and the others still run.
    private static func run(_ workloads: [Workload], options: BenchmarkOptions) -> Int32 {
        let directory: TemporaryDirectory
        do {
            directory = try TemporaryDirectory(prefix: "opencoredata-bench")
        } catch {
            Console.error("bench: \(error)")
            return 1
        }
        defer { directory.removeAll() }

        Console.line(environmentDescription(options: options, directory: directory))
        Console.line()
        let runner = WorkloadRunner(runs: options.runs, count: options.count, directory: directory)
        defer { runner.fixtures.removeSchemas() }
        let selected = workloads.compactMap(options.selectingPeers)
        // One line per reason (for the PostgreSQL workloads: the server is not configured).
        let unavailable = Dictionary(grouping: selected.filter { $0.unavailability != nil }) { $0.unavailability ?? "" }
        for (reason, skipped) in unavailable.sorted(by: { $0.key < $1.key }) {
            Console.line("bench: skipped \(skipped.map(\.name).joined(separator: ", ")): \(reason)")
        }
        var failed = false
        for workload in selected where workload.unavailability == nil {
            for settings in options.settings(for: workload) {
                do {
                    Report.print(try runner.run(workload, settings: settings))
                } catch {
                    failed = true
                    Console.error("bench: \(workload.name)\(settings.resultSuffix) failed: \(error)")
                    Report.failureLines(of: workload, settings: settings).forEach { Console.line($0) }
                    Console.line()
                }
            }
        }
        return failed ? 1 : 0
    }

    /// The workloads named on the command line (by workload name or result label, or by group for
    /// every case of a group, e.g. `W3` for W3a, W3b and W3c), or all of them.
    static func select(_ names: [String], from all: [Workload]) throws -> [Workload] {
        guard !names.isEmpty else { return all }
        var selected: [Workload] = []
        for name in names {
            let group = all.filter { $0.group?.caseInsensitiveCompare(name) == .orderedSame }
            let match = all.first { workload in
                workload.name.caseInsensitiveCompare(name) == .orderedSame
                    || workload.results.contains { $0.label.caseInsensitiveCompare(name) == .orderedSame }
            }
            // A name is its workload and the workloads grouped under it (`W1`: W1, W1d, W1-batch, …).
            let matches = (match.map { [$0] } ?? []) + group
            guard !matches.isEmpty else {
                throw BenchmarkError.usage("unknown workload \(name); known: \(all.map(\.name).joined(separator: ", "))")
            }
            for workload in matches where !selected.contains(where: { $0.name == workload.name }) {
                selected.append(workload)
            }
        }
        return selected
    }

    /// One header line describing the machine and the run.
    private static func environmentDescription(options: BenchmarkOptions, directory: TemporaryDirectory) -> String {
        let info = ProcessInfo.processInfo
        var lines = [
            "bench: SQLite \(SQLiteConnection.libraryVersion), GRDB \(GRDBPeers.version), "
                + "\(info.activeProcessorCount) CPUs, \(info.operatingSystemVersionString)",
            "bench: \(options.runs) measured runs + 1 warm-up per peer; temporary files in \(directory.url.path)",
        ]
        #if DEBUG
        lines.append("bench: WARNING: debug build, timings are meaningless; use `swift run -c release`")
        #endif
        if ProcessProbe.heapAllocations() == nil {
            lines.append("bench: WARNING: heap allocations are not counted (needs glibc); allocs/object reads n/a")
        }
        if !Workload.all.contains(where: { $0.peers.contains { $0.family == .ours } }) {
            lines.append("bench: WARNING: the \"ours\" peers are not compiled in (no CoreData module); no ratios")
        }
        return lines.joined(separator: "\n")
    }
}
