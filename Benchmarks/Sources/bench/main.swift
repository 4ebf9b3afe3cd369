// The `bench` executable: `swift run -c release --package-path Benchmarks bench [W1 W2 ...] [--runs N]`.
// See README.md and BenchmarkOptions.usage.
import Foundation

exit(BenchmarkCommand.main(arguments: Array(CommandLine.arguments.dropFirst())))
