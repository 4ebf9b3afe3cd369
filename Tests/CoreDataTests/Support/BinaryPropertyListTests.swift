import Testing
@testable import CoreData

@Suite struct BinaryPropertyListTests {
    /// A binary property list of `objects` (each its marker and contents, with one-byte
    /// references), with one-byte offsets and `top` as its top object.
    func plist(_ objects: [[UInt8]], top: Int = 0) -> Data {
        var bytes = Array("bplist00".utf8)
        var offsets: [UInt8] = []
        for object in objects {
            offsets.append(UInt8(bytes.count))
            bytes += object
        }
        let tableStart = bytes.count
        bytes += offsets
        bytes += [0, 0, 0, 0, 0, 0, 1, 1] + bigEndian(objects.count) + bigEndian(top) + bigEndian(tableStart)
        return Data(bytes)
    }

    func bigEndian(_ value: Int) -> [UInt8] {
        (0..<8).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }

    /// Why parsing `data` fails, or `nil` if it succeeds.
    func failure(_ data: Data) -> String? {
        do {
            _ = try BinaryPropertyList.parse(data)
            return nil
        } catch {
            #expect((error as NSError).code == CocoaError.Code.coderReadCorrupt.rawValue)
            return (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String
        }
    }

    // MARK: Reading

    @Test func readsEveryValueType() throws {
        let data = plist([
            [0xD7, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14],
            [0x51] + Array("a".utf8), [0x51] + Array("b".utf8), [0x51] + Array("c".utf8), [0x51] + Array("d".utf8),
            [0x51] + Array("e".utf8), [0x51] + Array("f".utf8), [0x51] + Array("g".utf8),
            [0x11, 0x01, 0x00],
            [0x23] + bigEndian(Int(bitPattern: UInt(2.5.bitPattern))),
            [0x09],
            [0x62, 0x00, 0xE9, 0x00, 0x41],
            [0x42, 0xCA, 0xFE],
            [0x81, 0x01, 0x02],
            [0x33] + bigEndian(Int(bitPattern: UInt(60.0.bitPattern))),
        ])
        guard case .dictionary(let values) = try BinaryPropertyList.parse(data) else {
            Issue.record("the top object is not a dictionary")
            return
        }
        guard case .number(let integer) = values["a"], case .number(let real) = values["b"],
              case .number(let boolean) = values["c"], case .string(let text) = values["d"],
              case .data(let bytes) = values["e"], case .reference(let reference) = values["f"],
              case .date(let date) = values["g"] else {
            Issue.record("a value has the wrong type: \(values)")
            return
        }
        #expect(integer.intValue == 256)
        #expect(real.doubleValue == 2.5)
        #expect(boolean as? Bool == true)
        #expect(text == "éA")
        #expect(bytes == Data([0xCA, 0xFE]))
        #expect(reference == 258)
        #expect(date == Date(timeIntervalSinceReferenceDate: 60))
    }

    @Test func readsWhatCoreFoundationWrites() throws {
        let value: [String: Any] = ["list": [1, -7, 2.5, true], "text": String(repeating: "long ", count: 40), "ü": Data(count: 20)]
        let data = try PropertyListSerialization.data(fromPropertyList: value, format: .binary, options: 0)
        let rewritten = BinaryPropertyList.serialize(try BinaryPropertyList.parse(data))
        let reread = try PropertyListSerialization.propertyList(from: rewritten, options: [], format: nil)
        #expect((reread as? NSDictionary)?.isEqual(value as NSDictionary) == true)
    }

    @Test func integersOfEveryWidth() throws {
        let data = plist([[0xA4, 1, 2, 3, 4], [0x10, 0xFF], [0x12, 0, 1, 0, 0], [0x13] + bigEndian(-5), [0x14] + bigEndian(0) + bigEndian(-1)])
        guard case .array(let values) = try BinaryPropertyList.parse(data) else {
            Issue.record("the top object is not an array")
            return
        }
        let numbers = values.compactMap { value -> NSNumber? in
            if case .number(let number) = value { return number }
            return nil
        }
        #expect(numbers.map(\.int64Value).prefix(3) == [255, 65_536, -5])
        #expect(numbers.last?.uint64Value == UInt64.max)
        #expect(failure(plist([[0x14] + bigEndian(1) + bigEndian(0)])) != nil)
    }

    @Test func sharedObjectsAreNotCycles() {
        // Each array holds the next one twice: 2^30 paths, read once each thanks to the cache.
        let levels = 30
        let arrays = (0..<levels).map { level -> [UInt8] in
            level + 1 < levels ? [0xA2, UInt8(level + 1), UInt8(level + 1)] : [0xA0]
        }
        #expect(failure(plist(arrays)) == nil)
    }

    // MARK: Malformed data

    @Test func objectsThatContainThemselvesAreRefused() {
        #expect(failure(plist([[0xA1, 0]]))?.contains("contains itself") == true)
        #expect(failure(plist([[0xA1, 1], [0xD1, 2, 0], [0x51, 0x6B]])) != nil)
    }

    @Test func nestingIsBounded() {
        func chain(_ levels: Int) -> Data {
            plist((0..<levels).map { level in level + 1 < levels ? [0xA1, UInt8(level + 1)] : [0xA0] })
        }
        #expect(failure(chain(BinaryPropertyList.maximumNesting + 1)) == nil)
        #expect(failure(chain(BinaryPropertyList.maximumNesting + 2))?.contains("nested") == true)
    }

    @Test func inconsistentTrailersAreRefused() {
        let valid = plist([[0x51, 0x61]])
        #expect(failure(valid) == nil)
        #expect(failure(Data(valid.prefix(39))) != nil)
        #expect(failure(plist([[0x51, 0x61]], top: 1)) != nil)
        var bytes = [UInt8](valid)
        bytes[bytes.count - 26] = 0
        #expect(failure(Data(bytes)) != nil, "zero-byte offsets")
        bytes = [UInt8](valid)
        bytes[bytes.count - 1] = 0xF0
        #expect(failure(Data(bytes)) != nil, "the offset table starts past the data")
        bytes = [UInt8](valid)
        bytes[bytes.count - 33] = 0xF0
        #expect(failure(Data(bytes))?.contains("offset") == true)
        #expect(failure(Data("bplist15".utf8) + Data(count: 40)) != nil)
    }

    @Test func contentsMustLieWithinTheObjects() {
        #expect(failure(plist([[0x45, 1, 2]])) != nil)
        #expect(failure(plist([[0x4F, 0x13] + bigEndian(-1)])) != nil, "a length of 2^64 - 1")
        #expect(failure(plist([[0x4F, 0x13] + bigEndian(Int.max / 2)])) != nil)
        #expect(failure(plist([[0x4F, 0x51, 0x61]])) != nil, "a length that is not an integer")
        #expect(failure(plist([[0xA1, 9]]))?.contains("out of range") == true)
        #expect(failure(plist([[0x11, 0x01]])) != nil)
        #expect(failure(plist([[0x8F] + Array(repeating: 1, count: 16)])) != nil)
        #expect(failure(plist([[0x87] + bigEndian(-1)])) != nil, "a reference beyond Int.max")
    }

    @Test(arguments: [[0x00], [0x0F], [0xC1, 0], [0xB0], [0x70], [0x15] + Array(repeating: 0, count: 32), [0x21, 0, 0]] as [[UInt8]])
    func unsupportedMarkersAreRefused(_ object: [UInt8]) {
        #expect(failure(plist([object])) != nil)
    }

    @Test func dictionaryKeysMustBeStrings() {
        #expect(failure(plist([[0xD1, 1, 1], [0x10, 5]]))?.contains("key") == true)
    }

    @Test func asciiStringsMustBeASCII() {
        #expect(failure(plist([[0x51, 0xFF]])) != nil)
    }

    @Test func otherFormatsAreRefused() throws {
        let xml = try PropertyListSerialization.data(fromPropertyList: ["a": 1], format: .xml, options: 0)
        #expect(failure(xml)?.contains("not a binary property list") == true)
        #expect(failure(Data()) != nil)
    }

    // MARK: Writing

    @Test func writtenListsReadBack() throws {
        let strings = (0..<300).map { BinaryPropertyList.Value.string("item \($0) " + String(repeating: "é", count: $0 % 20)) }
        let value = BinaryPropertyList.Value.dictionary([
            "strings": .array(strings),
            "numbers": .array([.number(-1), .number(NSNumber(value: UInt64.max)), .number(1.5), .number(true), .number(70_000)]),
            "reference": .reference(70_000),
            "data": .data(Data(count: 1_000)),
            "date": .date(Date(timeIntervalSinceReferenceDate: -3.5)),
        ])
        let data = BinaryPropertyList.serialize(value)
        guard case .dictionary(let read) = try BinaryPropertyList.parse(data),
              case .array(let readStrings) = read["strings"], case .reference(70_000) = read["reference"] else {
            Issue.record("the list did not read back")
            return
        }
        #expect(readStrings.count == 300)
        let foundation = try #require(try PropertyListSerialization.propertyList(from: data, options: [], format: nil) as? NSDictionary)
        #expect(foundation["strings"] as? [String] == (0..<300).map { "item \($0) " + String(repeating: "é", count: $0 % 20) })
        #expect(foundation["data"] as? Data == Data(count: 1_000))
        #expect(foundation["date"] as? Date == Date(timeIntervalSinceReferenceDate: -3.5))
        let numbers = try #require(foundation["numbers"] as? [Any])
        #expect((numbers[0] as? NSNumber)?.int64Value == -1)
        #expect((numbers[1] as? NSNumber)?.uint64Value == UInt64.max)
        #expect((numbers[2] as? NSNumber)?.doubleValue == 1.5)
        #expect(numbers[3] as? Bool == true)
        #expect((numbers[4] as? NSNumber)?.intValue == 70_000)
    }
}
