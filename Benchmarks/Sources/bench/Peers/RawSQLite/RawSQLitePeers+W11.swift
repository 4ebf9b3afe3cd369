extension RawSQLitePeers {
    /// W11 raw, the floor: an ``InotifyCommitWatcher`` on the peer's store file records each
    /// commit of the writer process as soon as its data version moves.
    ///
    /// Set-up (not measured): the watcher started, the store left to settle. Tear-down: the
    /// watcher stopped.
    static var watchRemoteCommits: Peer {
        Peer(name: "raw-inotify", family: .raw) { input in
            let exchange = RemoteCommitExchange(input: input)
            let watcher = try InotifyCommitWatcher(storeURL: input.storeURL, arrivals: exchange.arrivals)
            exchange.settle()
            return PreparedRun(
                body: exchange.run,
                tearDown: watcher.stop,
                eventLatencies: { exchange.latencies })
        }
    }
}
