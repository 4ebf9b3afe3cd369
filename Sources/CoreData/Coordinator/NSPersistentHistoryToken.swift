import Foundation

/// An opaque marker of a point in the persistent history of one or more stores.
///
/// Every `NSPersistentHistoryTransaction` has a token, and
/// `NSPersistentStoreCoordinator.currentPersistentHistoryToken(fromStores:)` gives the token of
/// the stores' latest transactions. Pass a token to
/// `NSPersistentHistoryChangeRequest.fetchHistory(after:)` to read only the transactions that
/// came after it. Tokens adopt `NSSecureCoding`, so that a program can keep its last token in a
/// file and go on from it in its next run.
// Immutable once made.
open class NSPersistentHistoryToken: NSObject, NSCopying, NSSecureCoding, @unchecked Sendable {
    /// The number of the transaction the token stands for, by the UUID of its store.
    let transactionNumbers: [String: Int64]

    init(transactionNumbers: [String: Int64]) {
        self.transactionNumbers = transactionNumbers
        super.init()
    }

    /// The key of the archived transaction numbers.
    private static let transactionNumbersKey = "NSPersistentHistoryTokenDictionary"

    public static var supportsSecureCoding: Bool {
        true
    }

    open func encode(with coder: NSCoder) {
        let numbers = NSMutableDictionary()
        for (store, number) in transactionNumbers {
            numbers[NSString(string: store)] = NSNumber(value: number)
        }
        coder.encode(numbers, forKey: Self.transactionNumbersKey)
    }

    public required init?(coder: NSCoder) {
        let decoded = coder.decodeObject(of: [NSDictionary.self, NSString.self, NSNumber.self], forKey: Self.transactionNumbersKey)
        guard let numbers = decoded as? NSDictionary else { return nil }
        var transactionNumbers: [String: Int64] = [:]
        for (store, number) in numbers {
            guard let store = store as? String, let number = (number as? NSNumber)?.int64Value else { return nil }
            transactionNumbers[store] = number
        }
        self.transactionNumbers = transactionNumbers
        super.init()
    }

    open func copy(with zone: NSZone? = nil) -> Any {
        self
    }

    open override func isEqual(_ object: Any?) -> Bool {
        (object as? NSPersistentHistoryToken)?.transactionNumbers == transactionNumbers
    }

    open override var hash: Int {
        transactionNumbers.hashValue
    }

    open override var description: String {
        let numbers = transactionNumbers.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }
        return "<NSPersistentHistoryToken: [\(numbers.joined(separator: ", "))]>"
    }
}
