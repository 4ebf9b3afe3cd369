/// A set of slot indices, stored as a bit mask: inline for the first 64 slots.
struct SlotSet: Equatable, Sequence {
    private var low: UInt64 = 0
    private var high: [UInt64] = []

    init() {}

    var isEmpty: Bool {
        low == 0 && high.allSatisfy { $0 == 0 }
    }

    func contains(_ slot: Int) -> Bool {
        if slot < 64 { return low & (1 << UInt64(slot)) != 0 }
        let word = slot / 64 - 1
        return word < high.count && high[word] & (1 << UInt64(slot % 64)) != 0
    }

    mutating func insert(_ slot: Int) {
        if slot < 64 {
            low |= 1 << UInt64(slot)
            return
        }
        let word = slot / 64 - 1
        if word >= high.count { high += Array(repeating: 0, count: word - high.count + 1) }
        high[word] |= 1 << UInt64(slot % 64)
    }

    mutating func remove(_ slot: Int) {
        if slot < 64 {
            low &= ~(1 << UInt64(slot))
            return
        }
        let word = slot / 64 - 1
        if word < high.count { high[word] &= ~(1 << UInt64(slot % 64)) }
    }

    mutating func removeAll() {
        low = 0
        high = []
    }

    func makeIterator() -> Iterator {
        Iterator(words: [low] + high)
    }

    /// Iterates the set bits in increasing order.
    struct Iterator: IteratorProtocol {
        private let words: [UInt64]
        private var wordIndex = 0
        private var remaining: UInt64

        init(words: [UInt64]) {
            self.words = words
            self.remaining = words[0]
        }

        mutating func next() -> Int? {
            while remaining == 0 {
                wordIndex += 1
                guard wordIndex < words.count else { return nil }
                remaining = words[wordIndex]
            }
            let bit = remaining.trailingZeroBitCount
            remaining &= remaining - 1
            return wordIndex * 64 + bit
        }
    }
}
