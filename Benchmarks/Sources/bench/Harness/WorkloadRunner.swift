import Foundation

/// Runs workloads by the harness rules of spec §7.1: every peer on its own fresh copy of the same
/// fixture, peers interleaved (A B C A B C …), one warm-up round then the measured rounds, and a
/// checksum check on every run, warm-up included.
struct WorkloadRunner {
    /// Measured rounds per workload (the warm-up round comes on top).
    var runs: Int
    /// Overrides each workload's default object count.
    var count: Int?
    /// Where fixtures and per-run store files live; emptied as the runs finish.
    var directory: TemporaryDirectory
    /// The shared templates built so far, reused by later workloads of this runner.
    var fixtures = FixtureCache()

    /// The name of the store file every peer works on.
    static let storeFileName = "Item.sqlite"

    /// Runs `workload` under `settings` and returns its measurements.
    func run(_ workload: Workload, settings: StoreSettings) throws -> WorkloadReport {
        let count = self.count ?? workload.defaultCount
        let workDirectory = try directory.makeSubdirectory(workload.name + settings.resultSuffix)
        defer { directory.remove(workDirectory) }

        let fixture = try buildFixture(workload.fixture, count: count, settings: settings, in: workDirectory)
        var samples = Array(repeating: [Sample](), count: workload.peers.count)
        var reference = workload.expectedChecksum?(count)
        for round in 0...runs {
            for (index, peer) in workload.peers.enumerated() {
                let runDirectory = workDirectory.appendingPathComponent("\(peer.name)-\(round)", isDirectory: true)
                let input = PeerInput(
                    storeURL: runDirectory.appendingPathComponent(Self.storeFileName), settings: settings, count: count,
                    templateSchema: fixture.schema)
                let (sample, checksum) = try runOnce(peer, of: workload, input: input, template: fixture.template)
                try verify(checksum, against: &reference, workload: workload, peer: peer, round: round)
                if round > 0 {
                    samples[index].append(sample)
                }
            }
        }
        return WorkloadReport(
            workload: workload,
            settings: settings,
            count: count,
            runs: runs,
            fixtureNote: fixture.note,
            checksum: reference,
            statistics: zip(workload.peers, samples).map { PeerStatistics(peer: $0.name, family: $0.family, samples: $1) }
        )
    }

    /// Builds the workload's template file or schema once, if it has one (not measured); a shared
    /// template is built by the first workload that needs it and reused by the others.
    private func buildFixture(
        _ fixture: Fixture, count: Int, settings: StoreSettings, in workDirectory: URL
    ) throws -> (template: URL?, schema: String?, note: String?) {
        switch fixture {
        case .none:
            return (nil, nil, nil)
        case let .template(description, build):
            let built = try buildTemplate(
                in: workDirectory.appendingPathComponent("fixture", isDirectory: true),
                input: (count, settings), description: description, build: build)
            return (built.url, nil, built.note)
        case let .shared(key, description, build):
            let cacheKey = "\(key)-\(count)\(settings.resultSuffix)"
            if let entry = fixtures.entry(for: cacheKey) {
                return (entry.url, nil, entry.note + " (shared, built once)")
            }
            let built = try buildTemplate(
                in: directory.url.appendingPathComponent("fixture-\(cacheKey)", isDirectory: true),
                input: (count, settings), description: description, build: build)
            fixtures.store(built, for: cacheKey)
            return (built.url, nil, built.note)
        case let .sharedSchema(key, description, build):
            let cacheKey = "\(key)-\(count)\(settings.resultSuffix)"
            if let entry = fixtures.entry(for: cacheKey) {
                return (nil, entry.schema?.name, entry.note + " (shared, built once)")
            }
            let start = ProcessProbe.monotonicSeconds()
            let schema = try build(PeerInput(storeURL: workDirectory, settings: settings, count: count))
            let seconds = ProcessProbe.monotonicSeconds() - start
            let note = "\(description), built in \(Report.seconds(seconds)) s"
            fixtures.store(FixtureCache.Entry(schema: schema, note: note), for: cacheKey)
            return (nil, schema.name, note)
        }
    }

    /// Creates `templateDirectory` and builds a template store in it, timing the build.
    private func buildTemplate(
        in templateDirectory: URL, input: (count: Int, settings: StoreSettings), description: String,
        build: (PeerInput) throws -> Void
    ) throws -> FixtureCache.Entry {
        try FileManager.default.createDirectory(at: templateDirectory, withIntermediateDirectories: true)
        let templateURL = templateDirectory.appendingPathComponent(Self.storeFileName)
        let start = ProcessProbe.monotonicSeconds()
        try build(PeerInput(storeURL: templateURL, settings: input.settings, count: input.count))
        let seconds = ProcessProbe.monotonicSeconds() - start
        return FixtureCache.Entry(url: templateURL, note: "\(description), built in \(Report.seconds(seconds)) s")
    }

    /// One run of one peer: fresh directory, fresh copy of the template, prepare, measure, tear
    /// down, checksum, clean up.
    private func runOnce(
        _ peer: Peer, of workload: Workload, input: PeerInput, template: URL?
    ) throws -> (Sample, Checksum) {
        let runDirectory = input.storeURL.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: runDirectory, withIntermediateDirectories: true)
        defer { directory.remove(runDirectory) }

        if let template {
            try copyStore(from: template, to: input.storeURL)
        }

        let prepared = try peer.prepare(input)
        var measured: (result: Int64, sample: Sample)
        do {
            measured = try Meter.measure(prepared.body)
        } catch {
            try? prepared.tearDown()
            throw error
        }
        measured.sample.eventLatencies = prepared.eventLatencies()
        var values = [measured.result]
        do {
            values += try prepared.storeChecksum?() ?? []
        } catch {
            try? prepared.tearDown()
            throw error
        }
        try prepared.tearDown()

        if let storeChecksum = workload.storeChecksum {
            values += try storeChecksum(input.storeURL)
        }
        return (measured.sample, Checksum(values: values))
    }

    /// Copies a store file, with its write-ahead log when one was left behind.
    private func copyStore(from source: URL, to destination: URL) throws {
        let fileManager = FileManager.default
        try fileManager.copyItem(at: source, to: destination)
        let wal = URL(fileURLWithPath: source.path + "-wal")
        if fileManager.fileExists(atPath: wal.path) {
            try fileManager.copyItem(at: wal, to: URL(fileURLWithPath: destination.path + "-wal"))
        }
    }

    /// Fails loudly when a run did different work from the expectation or from the first run.
    private func verify(
        _ checksum: Checksum, against reference: inout Checksum?, workload: Workload, peer: Peer, round: Int
    ) throws {
        guard let expected = reference else {
            reference = checksum
            return
        }
        guard checksum == expected else {
            throw BenchmarkError.checksumMismatch(
                workload: workload.name, peer: peer.name, run: round == 0 ? "warm-up" : "run \(round)",
                expected: expected, actual: checksum)
        }
    }
}
