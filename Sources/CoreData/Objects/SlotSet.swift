/// A set of slot indices, stored as a bit mask: inline for the first 64 slots.
package struct SlotSet: Sequence {
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

    package func makeIterator() -> Iterator {
        Iterator(low: low, high: high)
    }

    /// Iterates the set bits in increasing order, without allocating.
    package struct Iterator: IteratorProtocol {
        private let high: [UInt64]
        /// 0 for the inline word, then 1 + the index in `high`.
        private var word = 0
        private var remaining: UInt64

        init(low: UInt64, high: [UInt64]) {
            self.high = high
            self.remaining = low
        }

        package mutating func next() -> Int? {
            while remaining == 0 {
                guard word < high.count else { return nil }
                remaining = high[word]
                word += 1
            }
            let bit = remaining.trailingZeroBitCount
            remaining &= remaining - 1
            return word * 64 + bit
        }
    }
}
