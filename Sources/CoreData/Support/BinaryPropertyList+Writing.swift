// Writing binary property lists (`bplist00`), the counterpart of BinaryPropertyList's reader,
// so that Core Data writes keyed archives without Linux's CoreFoundation writer, which merges
// numbers that compare equal (1, 1.0 and true become one value).
extension BinaryPropertyList {
    /// The binary property list of `value`.
    static func serialize(_ value: Value) -> Data {
        var table = ObjectTable()
        let top = table.add(value)
        return table.serialized(top: top)
    }

    /// The objects of a property list being written, each with the indexes of its children.
    private struct ObjectTable {
        /// An object of the table: its marker and payload, with references still as indexes.
        enum Object {
            case leaf([UInt8])
            case array([Int])
            case dictionary(keys: [Int], values: [Int])
        }

        /// What identifies equal leaves, which are written once.
        enum LeafKey: Hashable {
            case string(String)
            case reference(Int)
        }

        var objects: [Object] = []
        var leafIndexes: [LeafKey: Int] = [:]

        /// Adds `value` and everything in it; returns its index.
        mutating func add(_ value: Value) -> Int {
            switch value {
            case .array(let elements):
                let index = reserve()
                objects[index] = .array(elements.map { add($0) })
                return index
            case .dictionary(let dictionary):
                let index = reserve()
                let entries = dictionary.sorted { $0.key < $1.key }
                objects[index] = .dictionary(keys: entries.map { add(.string($0.key)) }, values: entries.map { add($0.value) })
                return index
            case .string(let string):
                return addLeaf(Self.stringBytes(string), key: .string(string))
            case .reference(let index):
                return addLeaf(Self.referenceBytes(index), key: .reference(index))
            case .number(let number):
                return addLeaf(Self.numberBytes(number), key: nil)
            case .date(let date):
                return addLeaf([0x33] + Self.bigEndian(date.timeIntervalSinceReferenceDate.bitPattern, size: 8), key: nil)
            case .data(let data):
                return addLeaf(Self.header(0x4, count: data.count) + data, key: nil)
            }
        }

        private mutating func reserve() -> Int {
            objects.append(.leaf([]))
            return objects.count - 1
        }

        private mutating func addLeaf(_ bytes: [UInt8], key: LeafKey?) -> Int {
            if let key, let index = leafIndexes[key] { return index }
            objects.append(.leaf(bytes))
            if let key { leafIndexes[key] = objects.count - 1 }
            return objects.count - 1
        }

        /// The bytes of the property list whose top object is `top`.
        func serialized(top: Int) -> Data {
            let referenceSize = Self.byteCount(for: UInt64(objects.count))
            var bytes = Array("bplist00".utf8)
            var offsets: [Int] = []
            offsets.reserveCapacity(objects.count)
            for object in objects {
                offsets.append(bytes.count)
                switch object {
                case .leaf(let leaf):
                    bytes += leaf
                case .array(let elements):
                    bytes += Self.header(0xA, count: elements.count)
                    for element in elements { bytes += Self.bigEndian(UInt64(element), size: referenceSize) }
                case .dictionary(let keys, let values):
                    bytes += Self.header(0xD, count: keys.count)
                    for reference in keys + values { bytes += Self.bigEndian(UInt64(reference), size: referenceSize) }
                }
            }
            let tableStart = bytes.count
            let offsetSize = Self.byteCount(for: UInt64(offsets.last ?? 0))
            for offset in offsets { bytes += Self.bigEndian(UInt64(offset), size: offsetSize) }
            bytes += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(referenceSize)]
            bytes += Self.bigEndian(UInt64(objects.count), size: 8)
            bytes += Self.bigEndian(UInt64(top), size: 8)
            bytes += Self.bigEndian(UInt64(tableStart), size: 8)
            return Data(bytes)
        }

        // MARK: Encodings

        /// A marker of `type` with `count`, extended by an integer object when it does not fit
        /// the marker's low nibble.
        private static func header(_ type: UInt8, count: Int) -> [UInt8] {
            guard count >= 0x0F else { return [type << 4 | UInt8(count)] }
            return [type << 4 | 0x0F] + integerBytes(UInt64(count))
        }

        /// An unsigned integer in the smallest of 1, 2, 4 or 8 bytes.
        private static func integerBytes(_ value: UInt64) -> [UInt8] {
            let size = byteCount(for: value)
            let exponent: UInt8 = size == 1 ? 0 : size == 2 ? 1 : size <= 4 ? 2 : 3
            return [0x10 | exponent] + bigEndian(value, size: 1 << exponent)
        }

        /// Booleans, integers (negative ones in 8 bytes, those above `Int64.max` in 16, as
        /// CoreFoundation writes them) and reals.
        private static func numberBytes(_ number: NSNumber) -> [UInt8] {
            if type(of: number) == type(of: true as AnyObject) {
                return [number.boolValue ? 0x09 : 0x08]
            }
            switch String(cString: number.objCType) {
            case "f", "d":
                return [0x23] + bigEndian(number.doubleValue.bitPattern, size: 8)
            case "Q" where number.uint64Value > UInt64(Int64.max):
                return [0x14] + bigEndian(0, size: 8) + bigEndian(number.uint64Value, size: 8)
            default:
                let value = number.int64Value
                return value < 0 ? [0x13] + bigEndian(UInt64(bitPattern: value), size: 8) : integerBytes(UInt64(value))
            }
        }

        /// ASCII strings in bytes, others in UTF-16 code units, big-endian.
        private static func stringBytes(_ string: String) -> [UInt8] {
            if string.utf8.allSatisfy({ $0 < 0x80 }) {
                return header(0x5, count: string.utf8.count) + Array(string.utf8)
            }
            let units = Array(string.utf16)
            return header(0x6, count: units.count) + units.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        }

        private static func referenceBytes(_ index: Int) -> [UInt8] {
            let size = byteCount(for: UInt64(index))
            return [0x80 | UInt8(size - 1)] + bigEndian(UInt64(index), size: size)
        }

        /// The bytes needed for `value`: 1, 2, 4 or 8.
        private static func byteCount(for value: UInt64) -> Int {
            value <= 0xFF ? 1 : value <= 0xFFFF ? 2 : value <= 0xFFFF_FFFF ? 4 : 8
        }

        private static func bigEndian(_ value: UInt64, size: Int) -> [UInt8] {
            (0..<size).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
        }
    }
}
