/// The command line: `bench [WORKLOAD ...] [--runs N] [--count N] [--journal wal|rollback|both]
/// [--peer NAME ...] [--list]`.
struct BenchmarkOptions: Equatable {
    /// Which journal settings to run.
    enum Journal: String {
        /// WAL + `synchronous=NORMAL` only (the default).
        case wal
        /// Rollback journal + `synchronous=FULL` only, for the workloads that support it.
        case rollback
        /// Both, the rollback pass only for the workloads that support it.
        case both
    }

    /// The workloads asked for, as typed (empty means all).
    var workloadNames: [String] = []
    /// Measured rounds after the warm-up.
    var runs = 5
    /// Overrides every workload's default object count.
    var count: Int?
    /// Which journal settings to run.
    var journal = Journal.wal
    /// The peers to run (empty means all), for profiling one peer alone.
    var peerNames: [String] = []
    /// Only list the workloads.
    var list = false
    /// Only print the usage.
    var help = false

    static let usage = """
        usage: bench [WORKLOAD ...] [--runs N] [--count N] [--journal wal|rollback|both] [--peer NAME ...] [--list]

          WORKLOAD        W1, W2, … (default: all). A result label such as W2b selects its workload;
                          a group such as W3 selects all its cases (W3a, W3b, W3c);
                          postgresql selects the PostgreSQL workloads, which need a server
                          named by COREDATA_POSTGRESQL_URL (postgres://user@host:port/database).
          --runs N        measured runs per peer after one warm-up run (default 5)
          --count N       objects per workload instead of each workload's default (e.g. 10000, 1000000)
          --journal MODE  wal: WAL + synchronous=NORMAL (default); rollback: DELETE + synchronous=FULL;
                          both. Rollback applies to the insert/save workloads only (W1, W10).
          --peer NAME     run only this peer (repeatable), e.g. to profile it; workloads without it
                          are skipped, and ratios to peers left out are not printed
          --list          list the workloads and exit
        """

    /// Parses the arguments that follow the program name.
    static func parse(_ arguments: [String]) throws -> BenchmarkOptions {
        var options = BenchmarkOptions()
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "--runs":
                options.runs = try positiveInteger(after: argument, from: &remaining)
            case "--count":
                options.count = try positiveInteger(after: argument, from: &remaining)
            case "--journal":
                guard let value = remaining.popFirst(), let journal = Journal(rawValue: value) else {
                    throw BenchmarkError.usage("--journal takes wal, rollback or both")
                }
                options.journal = journal
            case "--peer":
                guard let name = remaining.popFirst() else {
                    throw BenchmarkError.usage("--peer takes a peer name")
                }
                options.peerNames.append(name)
            case "--list":
                options.list = true
            case "--help", "-h":
                options.help = true
            case _ where argument.hasPrefix("-"):
                throw BenchmarkError.usage("unknown option \(argument)")
            default:
                options.workloadNames.append(argument)
            }
        }
        return options
    }

    private static func positiveInteger(after option: String, from arguments: inout ArraySlice<String>) throws -> Int {
        guard let text = arguments.popFirst(), let value = Int(text), value > 0 else {
            throw BenchmarkError.usage("\(option) takes a positive integer")
        }
        return value
    }

    /// `workload` with only the peers asked for by `--peer`, or nil when it has none of them.
    func selectingPeers(of workload: Workload) -> Workload? {
        guard !peerNames.isEmpty else { return workload }
        var selected = workload
        selected.peers = workload.peers.filter { peerNames.contains($0.name) }
        return selected.peers.isEmpty ? nil : selected
    }

    /// The settings to run `workload` under.
    func settings(for workload: Workload) -> [StoreSettings] {
        switch journal {
        case .wal: return [.walNormal]
        case .rollback: return workload.supportsRollback ? [.rollbackFull] : []
        case .both: return workload.supportsRollback ? [.walNormal, .rollbackFull] : [.walNormal]
        }
    }
}
