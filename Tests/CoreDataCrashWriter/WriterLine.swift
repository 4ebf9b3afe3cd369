/// The lines the crash writer prints on its standard output, one per event, and the commands it
/// reads in `commands` mode.
enum WriterLine: Equatable, Sendable {
    /// The store is open; saves follow.
    case ready
    /// Save number `n` has committed: the store must keep it whatever happens next.
    case saved(Int)
    /// The number of batches `count(for:)` read.
    case count(Int)
    /// An error ended the writer.
    case failed(code: Int, message: String)

    var text: String {
        switch self {
        case .ready: "ready"
        case .saved(let number): "saved \(number)"
        case .count(let count): "count \(count)"
        case .failed(let code, let message): "failed \(code) \(message.split(whereSeparator: \.isNewline).joined(separator: " "))"
        }
    }

    init?(_ text: some StringProtocol) {
        let words = text.split(separator: " ", maxSplits: 2)
        switch (words.first, words.count) {
        case ("ready", 1):
            self = .ready
        case ("saved", 2):
            guard let number = Int(words[1]) else { return nil }
            self = .saved(number)
        case ("count", 2):
            guard let count = Int(words[1]) else { return nil }
            self = .count(count)
        case ("failed", 2...):
            guard let code = Int(words[1]) else { return nil }
            self = .failed(code: code, message: words.count > 2 ? String(words[2]) : "")
        default:
            return nil
        }
    }

    /// What the writer does when it reads a line in `commands` mode.
    enum Command: String, Sendable {
        /// Make the next save and print `saved`.
        case save
        /// Print `count` with the number of batches of every writer.
        case count
        /// Print `count` with the number of items of every batch, read through each batch's
        /// `items` relationship (a to-many read, which cannot throw).
        case items
    }
}
