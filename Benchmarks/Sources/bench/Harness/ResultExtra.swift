/// A figure a `RESULT` line can carry beside the ratios of median times.
enum ResultExtra {
    /// `over_raw_us=<µs>`: how much longer one operation of the "ours" peer takes than one of the
    /// raw peer, in microseconds: the difference of the median wall times divided by the number of
    /// operations each run repeats. For goals stated as "raw + N µs" (W4).
    case microsecondsOverRaw(operationsPerRun: Int)
    /// `bytes_per_object=<B>`: the "ours" peer's peak resident-set growth divided by the object
    /// count, for goals stated per object (W9 fetch-all).
    case bytesPerObject
    /// `<field>=<ms>`: the median wall time of another peer of the workload, in milliseconds, for
    /// goals stated as a latency. W6's line carries `ms=`, the median of its delivery peer, beside
    /// the ratios of its initial fetch.
    case medianMilliseconds(field: String, peer: String)
    /// `<field>=<×>`: how many times faster the "ours" peer is than another peer of the workload
    /// (that peer's median wall time divided by ours), for goals stated as a speed-up over another
    /// way of doing the same work (W1-batch against W1's save).
    case timesFaster(field: String, than: String)
    /// `<prefix>median_ms= <prefix>p90_ms= <prefix>p99_ms= <prefix>max_ms= <prefix>missed=`: the
    /// event latencies of a peer over every measured run, in milliseconds, and how many events
    /// never arrived, for goals stated as a latency distribution (W11).
    case eventLatencies(prefix: String, peer: String)
    /// `<field>=<×>`: the median event latency of the "ours" peer divided by another peer's (W11's
    /// notification against the raw floor).
    case medianLatencyRatio(field: String, over: String)
    /// `<field>=<n/s>`: how many objects a peer handles per second, the object count divided by
    /// its median wall time, for goals stated as a throughput (W12-postgresql: saves per second,
    /// one object changed per save).
    case objectsPerSecond(field: String, peer: String)
}
