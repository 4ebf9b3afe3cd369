import CoreData

/// What save number `n` of a writer contains, as a pure function of the writer's name and `n`, so
/// that a test can compute what a store must hold after any number of saves.
///
/// Save `n` inserts batch `n` with its tag and `itemCount(n)` items, each tagged with the batch's
/// tag and the previous batch's; sets the previous batch's `followedBy` to `n`; replaces the
/// attachment of item 0 of batch `n - 2`; and deletes batch `n - window` with its items and tag.
struct CrashPlan: Sendable {
    /// How many batches a writer keeps: each save deletes the batch this many saves older, so the
    /// store stays small however long a test runs.
    static let window = 12
    /// Attachments of this size or more live in files beside the store (the SQLite store's
    /// threshold is 128 KiB).
    static let largeAttachmentSize = 128 * 1024

    let writer: String

    func tagName(batch: Int) -> String {
        "\(writer)-\(batch)"
    }

    func itemName(batch: Int, item: Int) -> String {
        "\(writer)-\(batch)-\(item)"
    }

    func itemCount(batch: Int) -> Int {
        1 + batch % 3
    }

    /// A small value, always stored inline.
    func payload(batch: Int, item: Int) -> Data {
        bytes(count: 8 + (batch + item) % 48, field: 1, batch: batch, item: item, revision: 0)
    }

    /// Nothing, a small value, or one large enough for a file: revision 0 is the value an item is
    /// inserted with, revision 1 the value that replaces it two saves later.
    func attachment(batch: Int, item: Int, revision: Int) -> Data? {
        switch (batch * 5 + item * 3 + revision) % 5 {
        case 0:
            return nil
        case 1, 2:
            return bytes(count: 16 + (batch + item) % 64, field: 2, batch: batch, item: item, revision: revision)
        default:
            let size = Self.largeAttachmentSize + (batch * 131 + item * 17 + revision) % 8192
            return bytes(count: size, field: 2, batch: batch, item: item, revision: revision)
        }
    }

    /// Deterministic, poorly compressible bytes for one value.
    private func bytes(count: Int, field: UInt64, batch: Int, item: Int, revision: Int) -> Data {
        var state = writerSeed ^ (field << 56) ^ (UInt64(batch) << 20) ^ (UInt64(item) << 8) ^ UInt64(revision)
        var data = Data(count: count)
        data.withUnsafeMutableBytes { buffer in
            for offset in stride(from: 0, to: count, by: 8) {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                var word = (state ^ (state >> 33)).littleEndian
                withUnsafeBytes(of: &word) { wordBytes in
                    let length = min(8, count - offset)
                    buffer.baseAddress!.advanced(by: offset).copyMemory(from: wordBytes.baseAddress!, byteCount: length)
                }
            }
        }
        return data
    }

    /// FNV-1a of the writer's name: a seed that is the same in every process.
    private var writerSeed: UInt64 {
        writer.utf8.reduce(0xCBF2_9CE4_8422_2325) { ($0 ^ UInt64($1)) &* 0x0000_0100_0000_01B3 }
    }
}
