/// An incremental SHA-2 hash function (FIPS 180-4), generic over the word size and constants that
/// distinguish SHA-256 from SHA-512.
///
/// Version hashes need only SHA-256 and SHA-512; implementing them here spares every build, and
/// CI's two builds in particular, the hundreds of BoringSSL sources that swift-crypto compiles.
///
/// A hasher is a value: copying one forks the computation, and ``finalize()`` leaves the original
/// unchanged, so a hasher can go on to hash a longer message.
///
/// ```swift
/// var hasher = SHA256()
/// hasher.update("abc".utf8)
/// let digest = hasher.finalize()  // 32 bytes
/// ```
struct SHA2<Parameters: SHA2Parameters> {
    typealias Word = Parameters.Word

    /// The bytes in a word.
    private static var wordByteCount: Int { Word.bitWidth / 8 }

    /// The bytes in a message block: 16 words, 512 bits for SHA-256 and 1024 for SHA-512 (§5.2).
    private static var blockByteCount: Int { 16 * wordByteCount }

    /// The bytes of the message length that ends the padding: two words, 64 bits for SHA-256 and
    /// 128 for SHA-512 (§5.1).
    private static var lengthByteCount: Int { 2 * wordByteCount }

    /// The intermediate hash value H(i) after the last whole block.
    private var intermediateHash: [Word]

    /// The message bytes after the last whole block, always fewer than a block; its capacity is
    /// reserved once, so that buffering input never allocates.
    private var pending: [UInt8]

    /// The message schedule W, kept between blocks so that compressing a block never allocates.
    private var schedule: [Word]

    /// The length of the message so far, in bytes.
    private var byteCount: UInt64 = 0

    /// Creates a hasher for the empty message.
    init() {
        intermediateHash = Parameters.initialHashValue
        pending = []
        pending.reserveCapacity(Self.blockByteCount)
        schedule = Array(repeating: 0, count: Parameters.roundConstants.count)
    }

    /// Returns the digest of a message.
    ///
    /// - Parameter bytes: The message.
    /// - Returns: The digest: 32 bytes for SHA-256, 64 for SHA-512.
    static func hash(_ bytes: some Sequence<UInt8>) -> [UInt8] {
        var hasher = Self()
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// Appends bytes to the message.
    ///
    /// Contiguous bytes (arrays, `Data`, native strings' UTF-8 views) are compressed in place; any
    /// other sequence is buffered byte by byte.
    ///
    /// - Parameter bytes: The bytes that continue the message.
    mutating func update(_ bytes: some Sequence<UInt8>) {
        let absorbed: Void? = bytes.withContiguousStorageIfAvailable { absorb($0) }
        guard absorbed == nil else { return }
        for byte in bytes {
            pending.append(byte)
            byteCount += 1
            if pending.count == Self.blockByteCount {
                compressPending()
            }
        }
    }

    /// Returns the digest of the message so far, leaving the hasher unchanged.
    ///
    /// - Returns: The digest: 32 bytes for SHA-256, 64 for SHA-512.
    consuming func finalize() -> [UInt8] {
        // §5.1: a 1 bit, then the fewest zero bits that leave room for the length at the end of a
        // block, then the length in bits, big-endian.
        let bitCount = (high: byteCount >> 61, low: byteCount << 3)
        pending.append(0x80)
        if pending.count > Self.blockByteCount - Self.lengthByteCount {
            pending.append(contentsOf: repeatElement(0, count: Self.blockByteCount - pending.count))
            compressPending()
        }
        pending.append(contentsOf: repeatElement(0, count: Self.blockByteCount - Self.lengthByteCount - pending.count))
        for significance in (0..<Self.lengthByteCount).reversed() {
            // SHA-256's 64-bit length drops the high word, which is zero below 2^61 bytes (2^64
            // bits), the longest message SHA-256 is defined for (§1).
            let word = significance < 8 ? bitCount.low : bitCount.high
            pending.append(UInt8(truncatingIfNeeded: word >> (8 * (significance % 8))))
        }
        compressPending()

        var digest: [UInt8] = []
        digest.reserveCapacity(intermediateHash.count * Self.wordByteCount)
        for word in intermediateHash {
            for shift in stride(from: Word.bitWidth - 8, through: 0, by: -8) {
                digest.append(UInt8(truncatingIfNeeded: word >> shift))
            }
        }
        return digest
    }

    // MARK: Blocks

    /// Appends contiguous bytes: completes the pending block, compresses whole blocks straight
    /// from the input, and keeps the rest.
    private mutating func absorb(_ bytes: UnsafeBufferPointer<UInt8>) {
        byteCount += UInt64(bytes.count)
        var start = 0
        if !pending.isEmpty {
            start = min(Self.blockByteCount - pending.count, bytes.count)
            pending.append(contentsOf: bytes[..<start])
            guard pending.count == Self.blockByteCount else { return }
            compressPending()
        }
        while bytes.count - start >= Self.blockByteCount {
            Self.compress(bytes, at: start, into: &intermediateHash, schedule: &schedule)
            start += Self.blockByteCount
        }
        pending.append(contentsOf: bytes[start...])
    }

    /// Compresses the pending bytes, which fill a block, and empties them.
    private mutating func compressPending() {
        Self.compress(pending, at: 0, into: &intermediateHash, schedule: &schedule)
        pending.removeAll(keepingCapacity: true)
    }

    /// Computes H(i) from H(i-1) and one message block (§6.2.2, §6.4.2).
    ///
    /// Static, with its state passed in, so that a hasher can pass its own pending bytes along
    /// with its hash value and schedule without overlapping accesses to `self`.
    private static func compress<Bytes: RandomAccessCollection<UInt8>>(
        _ bytes: Bytes,
        at offset: Int,
        into intermediateHash: inout [Word],
        schedule: inout [Word]
    ) where Bytes.Index == Int {
        // Read once: in an unspecialized build every access to a requirement is a call.
        let constants = Parameters.roundConstants
        let bigSigma0 = Parameters.bigSigma0, bigSigma1 = Parameters.bigSigma1
        let smallSigma0 = Parameters.smallSigma0, smallSigma1 = Parameters.smallSigma1

        // Step 1: the message schedule, starting from the block's words, big-endian (§3.1).
        for t in 0..<16 {
            var word: Word = 0
            for index in offset + t * wordByteCount..<offset + (t + 1) * wordByteCount {
                word = word << 8 | Word(bytes[index])
            }
            schedule[t] = word
        }
        for t in 16..<constants.count {
            schedule[t] = smallSigma(schedule[t - 2], smallSigma1) &+ schedule[t - 7]
                &+ smallSigma(schedule[t - 15], smallSigma0) &+ schedule[t - 16]
        }

        // Steps 2 and 3: the working variables, through one round per constant.
        var a = intermediateHash[0], b = intermediateHash[1], c = intermediateHash[2], d = intermediateHash[3]
        var e = intermediateHash[4], f = intermediateHash[5], g = intermediateHash[6], h = intermediateHash[7]
        for t in 0..<constants.count {
            let choice = (e & f) ^ (~e & g)
            let majority = (a & b) ^ (a & c) ^ (b & c)
            let t1 = h &+ bigSigma(e, bigSigma1) &+ choice &+ constants[t] &+ schedule[t]
            let t2 = bigSigma(a, bigSigma0) &+ majority
            h = g
            g = f
            f = e
            e = d &+ t1
            d = c
            c = b
            b = a
            a = t1 &+ t2
        }

        // Step 4: the intermediate hash value.
        intermediateHash[0] &+= a
        intermediateHash[1] &+= b
        intermediateHash[2] &+= c
        intermediateHash[3] &+= d
        intermediateHash[4] &+= e
        intermediateHash[5] &+= f
        intermediateHash[6] &+= g
        intermediateHash[7] &+= h
    }

    /// Σ0 or Σ1: the exclusive or of three right rotations (§4.1).
    private static func bigSigma(_ x: Word, _ rotations: (Int, Int, Int)) -> Word {
        rotateRight(x, rotations.0) ^ rotateRight(x, rotations.1) ^ rotateRight(x, rotations.2)
    }

    /// σ0 or σ1: the exclusive or of two right rotations and a right shift (§4.1).
    private static func smallSigma(_ x: Word, _ amounts: (Int, Int, Int)) -> Word {
        rotateRight(x, amounts.0) ^ rotateRight(x, amounts.1) ^ (x &>> amounts.2)
    }

    /// ROTR, the circular right shift (§3.2).
    private static func rotateRight(_ x: Word, _ count: Int) -> Word {
        (x &>> count) | (x &<< (Word.bitWidth - count))
    }
}
