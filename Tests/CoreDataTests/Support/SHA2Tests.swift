@testable import CoreData
import Testing

// Digests checked against the example messages of FIPS 180-4 (NIST's "Examples with Intermediate
// Values"), and against `sha256sum`/`sha512sum` (GNU coreutils) for the lengths around the padding
// boundaries, where a message of n bytes is the bytes 0, 1, 2, …, n - 1:
//
//   python3 -c "import sys; sys.stdout.buffer.write(bytes(i % 256 for i in range(55)))" | sha256sum

@Suite("SHA-2 (FIPS 180-4)")
struct SHA2Tests {
    // MARK: Example messages

    private static let twoBlockMessage =
        "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu"

    @Test("SHA-256 of the FIPS 180-4 example messages")
    func sha256Examples() {
        #expect(SHA256.hash("abc".utf8).hex == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hash("".utf8).hex == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hash("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8).hex
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(SHA256.hash(Self.twoBlockMessage.utf8).hex
                == "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1")
    }

    @Test("SHA-512 of the FIPS 180-4 example messages")
    func sha512Examples() {
        #expect(SHA512.hash("abc".utf8).hex
                == "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
                + "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f")
        #expect(SHA512.hash("".utf8).hex
                == "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce"
                + "47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e")
        #expect(SHA512.hash("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8).hex
                == "204a8fc6dda82f0a0ced7beb8e08a41657c16ef468b228a8279be331a703c335"
                + "96fd15c13b1b07f9aa1d3bea57789ca031ad85c7a71dd70354ec631238ca3445")
        #expect(SHA512.hash(Self.twoBlockMessage.utf8).hex
                == "8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018"
                + "501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd26545e96e55b874be909")
    }

    @Test("one million \"a\", the long example message")
    func oneMillionA() {
        let message = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        #expect(SHA256.hash(message).hex == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
        #expect(SHA512.hash(message).hex
                == "e718483d0ce769644e2e42c7bc15b4638e1f98b13b2044285632a803afa973eb"
                + "de0ff244877ea60a4cb0432ce577c31beb009c5c2c49aa2e4eadb217ad8cc09b")
    }

    // MARK: Padding boundaries

    /// The message of `count` bytes 0, 1, 2, …, as hashed by the shell commands above.
    private static func counting(_ count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0) }
    }

    // SHA-256 pads to 64-byte blocks with an 8-byte length: 55 bytes is the longest message that
    // fits one block, 56 the shortest that needs a second.
    @Test("SHA-256 around the block and length boundaries", arguments: [
        (55, "463eb28e72f82e0a96c0a4cc53690c571281131f672aa229e0d45ae59b598b59"),
        (56, "da2ae4d6b36748f2a318f23e7ab1dfdf45acdc9d049bd80e59de82a60895f562"),
        (63, "29af2686fd53374a36b0846694cc342177e428d1647515f078784d69cdb9e488"),
        (64, "fdeab9acf3710362bd2658cdc9a29e8f9c757fcf9811603a8c447cd1d9151108"),
        (111, "60780e9451bdc43cf4530ffc95cbb0c4eb24dae2c39f55f334d679e076c08065"),
        (112, "09373f127d34e61dbbaa8bc4499c87074f2ddb10e1b465f506d7d70a15011979"),
        (127, "92ca0fa6651ee2f97b884b7246a562fa71250fedefe5ebf270d31c546bfea976"),
        (128, "471fb943aa23c511f6f72f8d1652d9c880cfa392ad80503120547703e56a2be5"),
        (200, "1901da1c9f699b48f6b2636e65cbf73abf99d0441ef67f5c540a42f7051dec6f"),
    ])
    func sha256Boundaries(count: Int, digest: String) {
        #expect(SHA256.hash(Self.counting(count)).hex == digest)
    }

    // SHA-512 pads to 128-byte blocks with a 16-byte length: 111 bytes is the longest message
    // that fits one block, 112 the shortest that needs a second.
    @Test("SHA-512 around the block and length boundaries", arguments: [
        (55, "6856647f269c2ee3d8128f0b25427659d880641ef343300dd3cd4679168f58d6"
             + "527fda70b4ebc854e2065e172b7d58c1536992c0810599259ba84a2b40c65414"),
        (56, "8b12b2f6fe400a51d29656e2b8c42a1bbfe6fcf3e425da430db05d1a2dda1479"
             + "0dee20fa8b22d8762afffe4988a5c98a4430d22a17e41e23d90fa61ab75671a9"),
        (63, "9dc9c5598e55dc42955695320839788e353f1d7f6ba74df74c80a8a52f463c06"
             + "97f57f68835d1418f4ce9b6530cd79bd0f4c6f7e13c93feb1218c0b65c2c0561"),
        (64, "ee4320ebaf3fdb4f2c832b137200c08e235e0fa7bbd0eb1740c7063ba8a0d151"
             + "da77e003398e1714a955d475b05e3e950b639503b452ec185de4229bc4873949"),
        (111, "a1a111449b198d9b1f538bad7f3fc1022b3a5b1a5e90a0bc860de8512746cbc3"
              + "1599e6c834de3a3235327af0b51ff57bf7acf1974a73014d9c3953812edc7c8d"),
        (112, "c5fbd731d19d2ae1180f001be72c2c1aaba1d7b094b3748880e24593b8e117a7"
              + "50e11c1bd867cc2f96dace8c8b74abd2d5c4f236be444e77d30d1916174070b9"),
        (127, "eab89674feaa34e27aebeeff3c0a4d70070bb872d5e9f186cf1dbbdee517b6e3"
              + "5724d629ff025a5b07185e911ada7e3c8acf830aa0e4f71777bd2d44f504f7f0"),
        (128, "1dffd5e3adb71d45d2245939665521ae001a317a03720a45732ba1900ca3b835"
              + "1fc5c9b4ca513eba6f80bc7b1d1fdad4abd13491cb824d61b08d8c0e1561b3f7"),
        (200, "986058e9895e2c2ab8f9e8cbdf801db12a44842a56a91d5a4e87b1fc98b29372"
              + "2c4664142e42c3c551ff898646268cd92b84ed230b8c94bed7798d4f27cd7465"),
    ])
    func sha512Boundaries(count: Int, digest: String) {
        #expect(SHA512.hash(Self.counting(count)).hex == digest)
    }

    // MARK: Incremental hashing

    @Test("a message split at any offset hashes as a whole")
    func splitAtEveryOffset() {
        let message = Self.counting(200)
        let sha256 = SHA256.hash(message), sha512 = SHA512.hash(message)
        for offset in 0...message.count {
            var hasher256 = SHA256(), hasher512 = SHA512()
            hasher256.update(message[..<offset])
            hasher256.update(message[offset...])
            hasher512.update(message[..<offset])
            hasher512.update(message[offset...])
            #expect(hasher256.finalize() == sha256, "split at \(offset)")
            #expect(hasher512.finalize() == sha512, "split at \(offset)")
        }
    }

    @Test("bytes without contiguous storage, and one byte at a time, hash as a whole")
    func nonContiguousAndBytewise() {
        let message = Self.counting(200)
        // A lazy map offers no contiguous storage, so the hasher buffers it byte by byte.
        let lazyBytes = message.lazy.map { $0 }
        #expect(SHA256.hash(lazyBytes) == SHA256.hash(message))
        #expect(SHA512.hash(lazyBytes) == SHA512.hash(message))

        var hasher256 = SHA256(), hasher512 = SHA512()
        for byte in message {
            hasher256.update([byte])
            hasher512.update([byte])
        }
        #expect(hasher256.finalize() == SHA256.hash(message))
        #expect(hasher512.finalize() == SHA512.hash(message))
    }

    @Test("finalizing leaves the hasher able to continue the message")
    func finalizeLeavesTheHasherUnchanged() {
        var hasher = SHA256()
        hasher.update("ab".utf8)
        #expect(hasher.finalize() == SHA256.hash("ab".utf8))
        hasher.update("c".utf8)
        #expect(hasher.finalize().hex == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    // MARK: Constants (§4.2, §5.3)

    @Test("SHA-256's constants are the fractional bits of the cube and square roots of the primes")
    func sha256Constants() {
        let primes = Self.primes(64)
        #expect(SHA256Parameters.roundConstants.map(UInt64.init) == primes.map { Self.fractionBits(32, ofRoot: 3, of: $0) })
        #expect(SHA256Parameters.initialHashValue.map(UInt64.init)
                == primes.prefix(8).map { Self.fractionBits(32, ofRoot: 2, of: $0) })
    }

    @Test("SHA-512's constants are the fractional bits of the cube and square roots of the primes")
    func sha512Constants() {
        let primes = Self.primes(80)
        #expect(SHA512Parameters.roundConstants == primes.map { Self.fractionBits(64, ofRoot: 3, of: $0) })
        #expect(SHA512Parameters.initialHashValue == primes.prefix(8).map { Self.fractionBits(64, ofRoot: 2, of: $0) })
    }

    /// The first `count` primes, by trial division.
    private static func primes(_ count: Int) -> [Int] {
        var primes: [Int] = []
        var candidate = 2
        while primes.count < count {
            if primes.allSatisfy({ candidate % $0 != 0 }) {
                primes.append(candidate)
            }
            candidate += 1
        }
        return primes
    }

    /// The first `bits` bits of the fractional part of the `degree`th root of `prime`.
    ///
    /// These are the low bits of r = ⌊root · 2^bits⌋, the largest r with r^degree ≤ prime · 2^(bits · degree).
    /// Floating point has too few bits for SHA-512, so r is found bit by bit with exact integer
    /// arithmetic: r < 2^(bits + 3) for the roots of primes below 512, so r^3 < 2^201 fits in 256 bits.
    private static func fractionBits(_ bits: Int, ofRoot degree: Int, of prime: Int) -> UInt64 {
        let shift = bits * degree
        let bound: Wide = shift >= 128
            ? Wide(high: UInt128(prime) << (shift - 128), low: 0)
            : Wide(high: 0, low: UInt128(prime) << shift)
        var root: UInt128 = 0
        for bit in (0..<bits + 3).reversed() {
            let candidate = root | 1 << bit
            if power(candidate, degree) <= bound {
                root = candidate
            }
        }
        return UInt64(truncatingIfNeeded: root) & (bits == 64 ? .max : (1 << bits) - 1)
    }

    /// `base^exponent`, which must fit in 256 bits.
    private static func power(_ base: UInt128, _ exponent: Int) -> Wide {
        var result = Wide(high: 0, low: 1)
        for _ in 0..<exponent {
            let low = result.low.multipliedFullWidth(by: base)
            let high = result.high.multipliedFullWidth(by: base)
            let (middle, overflow) = high.low.addingReportingOverflow(low.high)
            precondition(high.high == 0 && !overflow, "the power exceeds 256 bits")
            result = Wide(high: middle, low: low.low)
        }
        return result
    }

    /// A 256-bit unsigned integer, just enough of one to compare powers.
    private struct Wide: Comparable {
        var high: UInt128
        var low: UInt128

        static func < (lhs: Wide, rhs: Wide) -> Bool {
            (lhs.high, lhs.low) < (rhs.high, rhs.low)
        }
    }
}

private extension Array<UInt8> {
    /// The bytes in lowercase hexadecimal, as `sha256sum` prints them.
    var hex: String {
        map { String($0, radix: 16) }.map { $0.count == 1 ? "0" + $0 : $0 }.joined()
    }
}
