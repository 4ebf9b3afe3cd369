/// Core Data's debug switches, read once per process: Apple's launch arguments
/// (`-com.apple.CoreData.SQLDebug 1`) and, for programs that cannot pass arguments (tests,
/// servers), an environment variable (`COREDATA_SQL_DEBUG=1`).
enum DebugSwitch {
    /// The level a switch is set to: the value after its launch argument, or of its environment
    /// variable; 0 when neither is given.
    static func level(
        launchArgument: String, environment variable: String,
        arguments: [String] = ProcessInfo.processInfo.arguments,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> Int {
        if let index = arguments.firstIndex(of: launchArgument), index + 1 < arguments.count {
            return Int(arguments[index + 1]) ?? 0
        }
        return environment[variable].flatMap { Int($0) } ?? 0
    }

}
