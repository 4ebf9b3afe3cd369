import Foundation
import Synchronization

/// The monotonic times at which a W11 reader learned of a commit (a notification posted, a
/// changed data version seen), recorded by whichever thread learns it.
final class ArrivalTimes: Sendable {
    private let times = Mutex<[Double]>([])

    /// Records the current time.
    func record() {
        let now = ProcessProbe.monotonicSeconds()
        times.withLock { $0.append(now) }
    }

    /// Forgets what was recorded.
    func clear() {
        times.withLock { $0.removeAll() }
    }

    /// What was recorded so far, in order.
    var all: [Double] {
        times.withLock { $0 }
    }
}

/// One W11 run seen from the reader, "process B": it starts the writer process
/// (``RemoteCommitWriter``), waits for it, then for the arrival that answers its last commit, and
/// pairs each commit with the first arrival that reports it.
final class RemoteCommitExchange {
    /// How long after the last commit the reader still waits for arrivals; a commit no arrival
    /// answered by then is missed. Well beyond the observer's last re-check (250 ms).
    static let patience = 1.0

    /// How long the reader lets a freshly opened store settle before the run: arrivals caused by
    /// opening it are not the writer's.
    static let settling = 0.3

    private let storeURL: URL
    private let settings: StoreSettings
    private let commits: Int
    /// Where the peer records its arrivals.
    let arrivals = ArrivalTimes()
    /// The latencies of the last run, once it is over.
    private(set) var latencies: EventLatencies?

    init(input: PeerInput) {
        storeURL = input.storeURL
        settings = input.settings
        commits = input.count
    }

    /// Waits for arrivals caused by opening the store, then forgets them. Call it in set-up,
    /// after the peer started recording.
    func settle() {
        Thread.sleep(forTimeInterval: Self.settling)
        arrivals.clear()
    }

    /// The measured body: runs the writer, waits until every commit is answered or the patience
    /// is exhausted, and keeps the latencies. Returns the number of commits made.
    func run() throws -> Int64 {
        let times = try RemoteCommitWriter.run(storeURL: storeURL, settings: settings, commits: commits)
        let deadline = (times.last?.end ?? 0) + Self.patience
        var answered = Self.latencies(of: times, arrivals: arrivals.all)
        while answered.contains(where: { $0 == nil }), ProcessProbe.monotonicSeconds() < deadline {
            usleep(2_000)
            answered = Self.latencies(of: times, arrivals: arrivals.all)
        }
        latencies = EventLatencies(seconds: answered.compactMap { $0 }, missed: answered.count { $0 == nil })
        return Int64(times.count)
    }

    /// Each commit's latency: from its end to the first arrival at or after it, or `nil` when none
    /// came. One arrival may answer several commits (notifications may coalesce commits close
    /// together); each arrival is one change of the data version, so an arrival during commit
    /// `i` itself, when every earlier commit was already answered, can only be commit `i`'s: it was
    /// published before the writer read the clock, and its latency counts as 0. Arrivals before
    /// the first commit began are not the writer's.
    static func latencies(of commits: [RemoteCommitWriter.CommitTimes], arrivals: [Double]) -> [Double?] {
        var latencies = [Double?](repeating: nil, count: commits.count)
        guard let start = commits.first?.begin else { return latencies }
        var next = 0
        for arrival in arrivals.sorted() where arrival >= start {
            let firstUnanswered = next
            while next < commits.count, commits[next].end <= arrival {
                latencies[next] = arrival - commits[next].end
                next += 1
            }
            if next == firstUnanswered, next < commits.count, commits[next].begin <= arrival {
                latencies[next] = 0
                next += 1
            }
        }
        return latencies
    }
}
