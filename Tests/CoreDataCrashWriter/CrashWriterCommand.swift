import CoreData

/// The crash writer: makes a writer's saves into a store and prints a line after each one has
/// committed, for tests that kill it at random moments or run two of it against one store.
///
///     CoreDataCrashWriter <store path> <writer name> <first save number> (<saves> | forever | commands) [history]
///
/// `commands` reads `save`, `count` and `items` lines from standard input until it ends. `history`
/// opens the store with persistent history tracking, without which a store that records history
/// is read-only. Lines are written with write(2), never buffered, so a line the parent reads is a
/// save that has committed. A killed process loses nothing it wrote to the WAL (only a power loss
/// can), so the store's default pragmas suffice.
@main
enum CrashWriterCommand {
    static func main() {
        let arguments = CommandLine.arguments
        guard 5...6 ~= arguments.count, let first = Int(arguments[3]), ["forever", "commands"].contains(arguments[4]) || Int(arguments[4]) != nil,
              arguments.count == 5 || arguments[5] == "history" else {
            FileHandle.standardError.write(Data("usage: CoreDataCrashWriter <store path> <writer name> <first save number> (<saves> | forever | commands) [history]\n".utf8))
            exit(2)
        }
        do {
            let writer = try CrashWriter(storeURL: URL(fileURLWithPath: arguments[1]), writer: arguments[2], recordsHistory: arguments.count == 6)
            emit(.ready)
            if arguments[4] == "commands" {
                try obey(writer, first: first)
            } else {
                try save(writer, from: first, through: Int(arguments[4]).map { first + $0 - 1 } ?? Int.max)
            }
            writer.close()
        } catch {
            emit(.failed(code: (error as NSError).code, message: "\(error)"))
            exit(1)
        }
    }

    private static func save(_ writer: CrashWriter, from first: Int, through last: Int) throws {
        var number = first
        while number <= last {
            try writer.save(number)
            emit(.saved(number))
            number += 1
        }
    }

    private static func obey(_ writer: CrashWriter, first: Int) throws {
        var number = first
        while let command = readLine().flatMap(WriterLine.Command.init(rawValue:)) {
            switch command {
            case .save:
                try writer.save(number)
                emit(.saved(number))
                number += 1
            case .count:
                emit(.count(try writer.batchCount()))
            case .items:
                emit(.count(try writer.itemCountThroughBatches()))
            }
        }
    }

    private static func emit(_ line: WriterLine) {
        FileHandle.standardOutput.write(Data((line.text + "\n").utf8))
    }
}
