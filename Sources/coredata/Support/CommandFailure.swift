import ArgumentParser
import CoreData

/// How a subcommand fails: one line on standard error, then exit status 1.
enum CommandFailure {
    /// Reports `message` on standard error and returns the exit code the command throws.
    static func report(_ message: String) -> ExitCode {
        FileHandle.standardError.write(Data("error: \(message)\n".utf8))
        return ExitCode.failure
    }

    /// Reports an error as ``message(for:)`` words it.
    static func report(_ error: any Error) -> ExitCode {
        report(message(for: error))
    }

    /// What an error says: its description and, for Core Data's errors, the reason it gives
    /// under `reason` (the description alone is Apple's, as general as "An error occurred during
    /// persistent store migration.").
    static func message(for error: any Error) -> String {
        let error = error as NSError
        guard let reason = error.userInfo["reason"] as? String else { return error.localizedDescription }
        return "\(error.localizedDescription) \(reason)"
    }
}
