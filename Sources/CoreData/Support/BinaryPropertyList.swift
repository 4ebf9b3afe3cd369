/// A reader for binary property lists (`bplist00`), the format `NSKeyedArchiver` writes.
///
/// Core Data reads archives with this reader rather than `PropertyListSerialization`, because
/// Linux's CoreFoundation parser returns corrupt objects for some damaged binary property lists
/// (found by `ArchiveFuzzTests`): bridging them to Swift dereferences a bad pointer. This
/// reader checks every offset, length and reference against the data before using it, detects
/// objects that contain themselves, and bounds nesting, so any input either parses or throws.
///
/// It reads the value types of `bplist00` except sets and ordered sets, which keyed archives
/// do not use; dictionary keys must be strings. Parse errors are `NSCoderReadCorruptError`.
struct BinaryPropertyList {
    /// A parsed value.
    enum Value {
        case string(String)
        /// An integer, real or Boolean.
        case number(NSNumber)
        case date(Date)
        case data(Data)
        /// A `CF$UID`: an index into a keyed archive's `$objects`.
        case reference(Int)
        case array([Value])
        case dictionary([String: Value])
    }

    /// The deepest nesting of arrays and dictionaries read. Keyed archives nest four levels.
    static let maximumNesting = 32

    private let bytes: [UInt8]
    /// The size of object references in containers.
    private let referenceSize: Int
    /// The offset of each object, by object index.
    private let offsets: [Int]
    /// Where the offset table starts; objects lie between the header and here.
    private let objectsEnd: Int
    /// The index of the top object.
    private let topObject: Int

    /// Parses `data` and returns its top object.
    static func parse(_ data: Data) throws -> Value {
        let list = try BinaryPropertyList(bytes: [UInt8](data))
        var parsed = [Value?](repeating: nil, count: list.offsets.count)
        var inProgress = Set<Int>()
        return try list.object(at: list.topObject, depth: 0, parsed: &parsed, inProgress: &inProgress)
    }

    /// Reads the header, the trailer and the offset table.
    private init(bytes: [UInt8]) throws {
        let header = Array("bplist00".utf8)
        guard bytes.count >= header.count + 32, bytes.starts(with: header) else {
            throw Self.corrupt("the data is not a binary property list")
        }
        let trailer = bytes.count - 32
        let offsetSize = Int(bytes[trailer + 6])
        let referenceSize = Int(bytes[trailer + 7])
        let objectCount = Self.bigEndian(bytes[(trailer + 8)..<(trailer + 16)])
        let top = Self.bigEndian(bytes[(trailer + 16)..<(trailer + 24)])
        let tableStart = Self.bigEndian(bytes[(trailer + 24)..<(trailer + 32)])
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize),
              objectCount > 0, top < objectCount,
              tableStart >= UInt64(header.count), tableStart < UInt64(trailer),
              objectCount <= (UInt64(trailer) - tableStart) / UInt64(offsetSize) else {
            throw Self.corrupt("the binary property list's trailer is inconsistent")
        }
        let objectsEnd = Int(tableStart)
        self.offsets = try (0..<Int(objectCount)).map { index in
            let start = objectsEnd + index * offsetSize
            let offset = Self.bigEndian(bytes[start..<(start + offsetSize)])
            guard offset >= UInt64(header.count), offset < UInt64(objectsEnd) else {
                throw Self.corrupt("an object offset lies outside the objects")
            }
            return Int(offset)
        }
        self.bytes = bytes
        self.referenceSize = referenceSize
        self.objectsEnd = objectsEnd
        self.topObject = Int(top)
    }

    // MARK: Objects

    /// The object at `index` of the offset table. `parsed` caches objects already read (they
    /// may be shared); `inProgress` holds the containers being read, to detect cycles.
    private func object(at index: Int, depth: Int, parsed: inout [Value?], inProgress: inout Set<Int>) throws -> Value {
        if let value = parsed[index] { return value }
        guard !inProgress.contains(index) else { throw Self.corrupt("an object contains itself") }
        guard depth <= Self.maximumNesting else { throw Self.corrupt("objects are nested too deeply") }
        inProgress.insert(index)
        defer { inProgress.remove(index) }
        let value = try readObject(at: offsets[index], depth: depth, parsed: &parsed, inProgress: &inProgress)
        parsed[index] = value
        return value
    }

    private func readObject(at offset: Int, depth: Int, parsed: inout [Value?], inProgress: inout Set<Int>) throws -> Value {
        let marker = bytes[offset]
        let info = Int(marker & 0x0F)
        switch marker >> 4 {
        case 0x0 where marker == 0x08 || marker == 0x09:
            return .number(NSNumber(value: marker == 0x09))
        case 0x1:
            return .number(try integer(at: offset + 1, sizeExponent: info))
        case 0x2 where info == 2 || info == 3:
            return .number(NSNumber(value: try real(at: offset + 1, size: 1 << info)))
        case 0x3 where info == 3:
            return .date(Date(timeIntervalSinceReferenceDate: try real(at: offset + 1, size: 8)))
        case 0x4:
            let (start, count) = try extent(at: offset, info: info, unitSize: 1)
            return .data(Data(bytes[start..<(start + count)]))
        case 0x5:
            let (start, count) = try extent(at: offset, info: info, unitSize: 1)
            guard let string = String(bytes: bytes[start..<(start + count)], encoding: .ascii) else {
                throw Self.corrupt("an ASCII string holds other characters")
            }
            return .string(string)
        case 0x6:
            let (start, count) = try extent(at: offset, info: info, unitSize: 2)
            let units = stride(from: start, to: start + 2 * count, by: 2).map { UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]) }
            return .string(String(decoding: units, as: UTF16.self))
        case 0x8:
            guard let index = Int(exactly: try unsigned(at: offset + 1, size: info + 1)) else {
                throw Self.corrupt("a reference is out of range")
            }
            return .reference(index)
        case 0xA:
            let (start, count) = try extent(at: offset, info: info, unitSize: referenceSize)
            return .array(try (0..<count).map { element in
                try object(at: try reference(at: start + element * referenceSize), depth: depth + 1, parsed: &parsed, inProgress: &inProgress)
            })
        case 0xD:
            return .dictionary(try dictionary(at: offset, info: info, depth: depth, parsed: &parsed, inProgress: &inProgress))
        default:
            throw Self.corrupt(String(format: "unsupported object marker 0x%02X", marker))
        }
    }

    private func dictionary(
        at offset: Int, info: Int, depth: Int, parsed: inout [Value?], inProgress: inout Set<Int>
    ) throws -> [String: Value] {
        let (start, count) = try extent(at: offset, info: info, unitSize: 2 * referenceSize)
        var dictionary: [String: Value] = [:]
        for entry in 0..<count {
            let keyIndex = try reference(at: start + entry * referenceSize)
            let valueIndex = try reference(at: start + (count + entry) * referenceSize)
            guard case .string(let key) = try object(at: keyIndex, depth: depth + 1, parsed: &parsed, inProgress: &inProgress) else {
                throw Self.corrupt("a dictionary key is not a string")
            }
            dictionary[key] = try object(at: valueIndex, depth: depth + 1, parsed: &parsed, inProgress: &inProgress)
        }
        return dictionary
    }

    // MARK: Primitive reads

    /// Where the contents of the object at `offset` (whose marker's low nibble is `info`)
    /// start, and how many units of `unitSize` bytes they have; checks that they lie within the
    /// objects.
    private func extent(at offset: Int, info: Int, unitSize: Int) throws -> (start: Int, count: Int) {
        var start = offset + 1
        var count = info
        if info == 0x0F {
            // The count follows as an integer object.
            try requireBytes(at: start, count: 1)
            let marker = bytes[start]
            guard marker >> 4 == 0x1, marker & 0x0F <= 3 else { throw Self.corrupt("a length is not an integer") }
            let size = 1 << Int(marker & 0x0F)
            let length = try unsigned(at: start + 1, size: size)
            guard length <= UInt64(objectsEnd) else { throw Self.corrupt("a length exceeds the data") }
            count = Int(length)
            start += 1 + size
        }
        let (byteCount, overflow) = count.multipliedReportingOverflow(by: unitSize)
        guard !overflow else { throw Self.corrupt("a length exceeds the data") }
        try requireBytes(at: start, count: byteCount)
        return (start, count)
    }

    /// An integer of 2^`sizeExponent` bytes: 1, 2 and 4 bytes are unsigned, 8 bytes signed,
    /// and 16 bytes (how CoreFoundation writes values above `Int64.max`) unsigned up to
    /// `UInt64.max`.
    private func integer(at offset: Int, sizeExponent: Int) throws -> NSNumber {
        switch sizeExponent {
        case 0...2:
            return NSNumber(value: try unsigned(at: offset, size: 1 << sizeExponent))
        case 3:
            return NSNumber(value: Int64(bitPattern: try unsigned(at: offset, size: 8)))
        case 4:
            guard try unsigned(at: offset, size: 8) == 0 else { throw Self.corrupt("an integer exceeds 64 bits") }
            return NSNumber(value: try unsigned(at: offset + 8, size: 8))
        default:
            throw Self.corrupt("an integer has an unsupported size")
        }
    }

    private func real(at offset: Int, size: Int) throws -> Double {
        let bits = try unsigned(at: offset, size: size)
        return size == 4 ? Double(Float(bitPattern: UInt32(truncatingIfNeeded: bits))) : Double(bitPattern: bits)
    }

    /// The object index stored in an object reference at `offset`.
    private func reference(at offset: Int) throws -> Int {
        let index = try unsigned(at: offset, size: referenceSize)
        guard index < UInt64(offsets.count) else { throw Self.corrupt("an object reference is out of range") }
        return Int(index)
    }

    /// The big-endian unsigned integer of `size` (1 to 8) bytes at `offset`.
    private func unsigned(at offset: Int, size: Int) throws -> UInt64 {
        guard (1...8).contains(size) else { throw Self.corrupt("an integer has an unsupported size") }
        try requireBytes(at: offset, count: size)
        return Self.bigEndian(bytes[offset..<(offset + size)])
    }

    private func requireBytes(at offset: Int, count: Int) throws {
        guard count >= 0, offset <= objectsEnd, count <= objectsEnd - offset else {
            throw Self.corrupt("an object extends past the objects")
        }
    }

    private static func bigEndian(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        bytes.reduce(0) { $0 << 8 | UInt64($1) }
    }

    private static func corrupt(_ reason: String) -> NSError {
        CoreDataError.unreadableArchive(reason)
    }
}
