/// Interns store UUIDs into small numbers, so object IDs compare and hash their store cheaply.
// All state is guarded by `lock`.
final class StoreIdentityRegistry: @unchecked Sendable {
    static let shared = StoreIdentityRegistry()

    private let lock = NSLock()
    private var numbers: [String: Int] = [:]

    /// The number of a store UUID; 0 stands for "no store".
    func number(for identifier: String?) -> Int {
        guard let identifier else { return 0 }
        return lock.withLock {
            if let known = numbers[identifier] { return known }
            let number = numbers.count + 1
            numbers[identifier] = number
            return number
        }
    }
}
