@testable import CoreData
import Testing

/// `ObjectTable`, the registry's hash table: every sequence of changes leaves it answering what a
/// `Dictionary` given the same changes answers, for consecutive keys (the locality-preserving
/// hash), keys that collide under it (which make it scramble keys) and mixed removals.
@Suite struct ObjectTableTests {
    /// A distinct non-null pointer per number, never dereferenced.
    private func pointer(_ number: Int) -> UnsafeMutableRawPointer {
        UnsafeMutableRawPointer(bitPattern: (number + 1) * 16)!
    }

    /// Applies the same operations to a table and a dictionary and compares them after each step.
    private func check(keys: [Int64], removing removed: [Int64]) {
        var table = ObjectTable()
        defer { table.deallocate() }
        var model: [Int64: UnsafeMutableRawPointer] = [:]
        for (number, key) in keys.enumerated() {
            table.set(pointer(number), for: key)
            model[key] = pointer(number)
        }
        #expect(table.count == model.count)
        for key in removed {
            // Removing with another object than the registered one keeps the registration.
            table.remove(key, matching: pointer(-2))
            table.remove(key, matching: model[key])
            model[key] = nil
        }
        #expect(table.count == model.count)
        for key in keys + removed + [Int64.min, -1, 0, Int64.max] {
            #expect(table.object(for: key) == model[key], "key \(key)")
        }
        var seen: Set<UnsafeMutableRawPointer> = []
        table.forEachObject { seen.insert($0) }
        #expect(seen == Set(model.values))
    }

    @Test func consecutiveKeys() {
        let keys = (1...5_000).map { Int64($0) }
        check(keys: keys, removing: keys.filter { $0 % 3 == 0 } + [7, 7, 9_999])
    }

    @Test func keysThatCollideUnderTheLocalHash() {
        // Multiples of 2²⁰ share their low bits: every one would start probing at bucket 0.
        let keys = (0..<3_000).map { Int64($0) << 20 }
        check(keys: keys, removing: keys.filter { ($0 >> 20) % 2 == 1 })
    }

    @Test func mixedKeysAndRemovals() {
        // Scattered keys (a multiplicative sequence) and a consecutive run, removed in another order.
        let scattered = (0..<4_000).map { Int64(($0 * 2_654_435_761) % 2_000_001) - 1_000_000 }
        let keys = scattered + (1...2_000).map { Int64($0) }
        check(keys: keys, removing: keys.enumerated().filter { $0.offset % 7 < 4 }.map(\.element).reversed())
    }

    @Test func replacingAKeepsOneEntry() {
        var table = ObjectTable()
        defer { table.deallocate() }
        table.set(pointer(1), for: 42)
        #expect(table.set(pointer(2), for: 42) == pointer(1))
        #expect(table.count == 1)
        #expect(table.object(for: 42) == pointer(2))
    }
}
