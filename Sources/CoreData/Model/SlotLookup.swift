/// A read-only table from property names to slot indices, built for the lookups every
/// `value(forKey:)` and `setValue(_:forKey:)` makes.
///
/// Property names are short, so hashing their UTF-8 bytes with FNV-1a into an open-addressing
/// table is several times cheaper than `Dictionary<String, Int>`, which runs SipHash per lookup.
struct SlotLookup {
    private let keys: [String?]
    private let values: [Int]
    private let mask: Int

    init(_ entries: [(String, Int)]) {
        var capacity = 8
        while capacity < entries.count * 2 { capacity *= 2 }
        var keys = [String?](repeating: nil, count: capacity)
        var values = [Int](repeating: -1, count: capacity)
        let mask = capacity - 1
        for (key, value) in entries {
            var index = Self.hash(key) & mask
            while let existing = keys[index], existing != key {
                index = (index + 1) & mask
            }
            keys[index] = key
            values[index] = value
        }
        self.keys = keys
        self.values = values
        self.mask = mask
    }

    /// The slot of a name, or nil.
    @inline(__always)
    subscript(key: String) -> Int? {
        var index = Self.hash(key) & mask
        while let candidate = keys[index] {
            if candidate == key { return values[index] }
            index = (index + 1) & mask
        }
        return nil
    }

    @inline(__always)
    private static func hash(_ key: String) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in key.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return Int(truncatingIfNeeded: hash ^ (hash >> 29))
    }
}
