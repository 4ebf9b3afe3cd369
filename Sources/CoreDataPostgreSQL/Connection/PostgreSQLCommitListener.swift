import CoreData
import Logging
import NIOCore
import NIOPosix
import PostgresNIO
import Synchronization

/// Tells when a save committed to a store, whoever made it: a coordinator of this process, of
/// another process, or of another machine. Each save notifies the store's channel inside its
/// transaction (`pg_notify`, which the server delivers at commit, and never for a save rolled
/// back); the listener listens on the channel over a connection of its own.
///
/// A lost listening connection is replaced; since saves may have committed meanwhile, the
/// listener then reports a commit, so that observers look again.
final class PostgreSQLCommitListener: Sendable {
    private struct State {
        var connection: PostgresConnection?
        var isStopped = false
    }

    private let address: PostgreSQLServerAddress
    private let channel: String
    private let onCommit: @Sendable () -> Void
    private let queue = DispatchQueue(label: "CoreDataPostgreSQL.PostgreSQLCommitListener")
    private let state = Mutex(State())
    private static let logger = Logger(label: "CoreDataPostgreSQL.commitListener")

    /// Starts listening; `onCommit` runs on a private queue, once per notification.
    init(address: PostgreSQLServerAddress, channel: String, onCommit: @escaping @Sendable () -> Void) throws {
        self.address = address
        self.channel = channel
        self.onCommit = onCommit
        try listen()
    }

    deinit {
        stop()
    }

    /// Stops listening and closes the connection.
    func stop() {
        let connection = state.withLock { state in
            state.isStopped = true
            return state.connection.take()
        }
        _ = try? connection?.close().wait()
    }

    private func listen() throws {
        try PostgreSQLConnection.refuseEventLoopThread(location: address.url)
        let connection = try PostgresConnection.connect(
            on: MultiThreadedEventLoopGroup.singleton.any(), configuration: address.configuration, id: 0, logger: Self.logger
        ).wait()
        connection.addListener(channel: channel) { [queue, onCommit] _, _ in
            queue.async(execute: onCommit)
        }
        do {
            _ = try connection.query(PostgresQuery(unsafeSQL: "LISTEN \"\(channel)\""), logger: Self.logger).wait()
        } catch {
            _ = try? connection.close().wait()
            throw error
        }
        let isStopped = state.withLock { state in
            if !state.isStopped { state.connection = connection }
            return state.isStopped
        }
        guard !isStopped else {
            _ = try? connection.close().wait()
            return
        }
        connection.closeFuture.whenComplete { [weak self] _ in
            self?.listenAgainLater()
        }
    }

    /// Replaces a lost connection, trying again every half second until the server answers.
    private func listenAgainLater() {
        queue.asyncAfter(deadline: .now() + .milliseconds(500)) { [weak self] in
            guard let self, !self.state.withLock({ $0.isStopped }) else { return }
            do {
                try self.listen()
                self.onCommit()
            } catch {
                Self.logger.info("Listening for commits again failed; trying again.", metadata: ["reason": "\(PostgreSQLErrors.reason(of: error))"])
                self.listenAgainLater()
            }
        }
    }

    /// The channel of a store: named after its UUID, which every coordinator of the store reads
    /// from its metadata.
    static func channel(ofStore identifier: String) -> String {
        "coredata_" + identifier.lowercased().filter { $0.isLetter || $0.isNumber }
    }
}
