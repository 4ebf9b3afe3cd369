import Testing
@testable import CoreData

/// Feeds thousands of damaged and randomly assembled archives to the unarchiving transformers.
/// Linux Foundation's unarchiver ends the process on many of them; these tests pass only if the
/// process survives, every failure is an `NSCoderReadCorruptError`, and every success is of an
/// allowed class. The generator is seeded, so failures reproduce.
@Suite struct ArchiveFuzzTests {
    /// SplitMix64: small, fast and deterministic.
    struct Generator: RandomNumberGenerator {
        var state: UInt64

        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// What the transformers made of the archives.
    struct Outcome {
        var decoded = 0
        var refused = 0
    }

    let secure = NSSecureUnarchiveFromDataTransformer()
    let anyObject = AnyObjectTransformer()
    let keyed: any ArchivingTransformer

    init() throws {
        keyed = try #require(ValueTransformer.registered(named: .keyedUnarchiveFromData) as? ArchivingTransformer)
    }

    /// Decodes `data` with each transformer and checks the outcome.
    func check(_ data: Data, _ outcome: inout Outcome) {
        for transformer in [secure, anyObject, keyed] as [any ArchivingTransformer] {
            do {
                let value = try transformer.unarchivedValue(from: data)
                outcome.decoded += 1
                if transformer === secure, let value {
                    let cls: AnyClass = type(of: value as AnyObject)
                    #expect(ArchiveClassPolicy.isKind(cls, ofAnyOf: NSSecureUnarchiveFromDataTransformer.allowedTopLevelClasses))
                }
            } catch {
                outcome.refused += 1
                #expect((error as NSError).code == CocoaError.Code.coderReadCorrupt.rawValue)
            }
        }
    }

    /// Archives written by Core Data and by Linux Foundation's archiver, to damage.
    func seedArchives() throws -> [Data] {
        let values: [Any] = [
            ["name": "Ada", "tags": NSMutableArray(array: ["x", 1, 2.5]), "when": Date(timeIntervalSinceReferenceDate: 5)],
            [URL(string: "b", relativeTo: URL(string: "https://example.com/a/"))!, UUID(), NSNull(), Data([1, 2, 3])],
            Set(["a", "b"]) as NSSet,
            NSMutableString(string: "mutable"),
            ArchivedPoint(x: 1, label: "p", child: ArchivedPoint(x: 2, label: nil)),
        ]
        let linuxArchive = try NSKeyedArchiver.archivedData(withRootObject: ["k": [1, "v"]] as NSDictionary, requiringSecureCoding: true)
        return try values.map { try AnyObjectTransformer().archivedData(from: $0) } + [linuxArchive]
    }

    @Test func damagedBinaryArchivesNeverTrap() throws {
        var generator = Generator(state: 0xC0DE_DA7A)
        let seeds = try seedArchives()
        var outcome = Outcome()
        for seed in seeds { check(seed, &outcome) }
        #expect(outcome.refused == 1, "only the point is refused, by the default transformer")
        outcome = Outcome()
        for _ in 0..<3_000 {
            var bytes = [UInt8](seeds.randomElement(using: &generator)!)
            switch Int.random(in: 0..<4, using: &generator) {
            case 0:
                for _ in 0..<Int.random(in: 1...8, using: &generator) {
                    bytes[Int.random(in: 0..<bytes.count, using: &generator)] ^= UInt8.random(in: 1...255, using: &generator)
                }
            case 1:
                bytes.removeLast(Int.random(in: 1..<bytes.count, using: &generator))
            case 2:
                let index = Int.random(in: 0..<bytes.count, using: &generator)
                bytes[index] = [0x00, 0x0F, 0x80, 0xFF, 0x7F, 0x10].randomElement(using: &generator)!
            default:
                let other = [UInt8](seeds.randomElement(using: &generator)!)
                let cut = Int.random(in: 0..<min(bytes.count, other.count), using: &generator)
                bytes = Array(bytes[..<cut] + other[cut...])
            }
            check(Data(bytes), &outcome)
        }
        #expect(outcome.refused > 0)
    }

    @Test func randomlyAssembledArchivesNeverTrap() {
        var generator = Generator(state: 0xF00D_5EED)
        var outcome = Outcome()
        for _ in 0..<4_000 {
            check(randomArchive(using: &generator), &outcome)
        }
        #expect(outcome.decoded > 100, "the generator must also produce archives that decode")
        #expect(outcome.refused > 100)
    }

    // MARK: Random archives

    static let classNames = [
        "NSArray", "NSMutableArray", "NSDictionary", "NSMutableDictionary", "NSSet", "NSMutableSet",
        "NSString", "NSMutableString", "NSData", "NSMutableData", "NSDate", "NSURL", "NSUUID", "NSNull",
        "NSNumber", "NSDecimalNumber", "NSObject", "NSLock", "_NSCFArray", "_NSCFString", "NoSuchClass",
        NSStringFromClass(ArchivedPoint.self), NSStringFromClass(FailingObject.self),
        NSStringFromClass(UnkeyedReader.self), NSStringFromClass(InsecureNote.self),
        NSStringFromClass(ArraySubclass.self),
    ]

    static let keys = [
        "NS.objects", "NS.keys", "NS.string", "NS.time", "NS.data", "NS.uuidbytes", "NS.base", "NS.relative",
        "x", "label", "child", "text",
    ]

    /// An archive of up to 14 random entries, each a value, a class description or an object
    /// with random fields; references may point anywhere, including out of range.
    func randomArchive(using generator: inout Generator) -> Data {
        let count = Int.random(in: 1...14, using: &generator)
        let objects = (0..<count).map { _ in randomEntry(count: count, using: &generator) }
        return ArchiveXML.archive(root: Int.random(in: 0...count, using: &generator), objects)
    }

    func randomEntry(count: Int, using generator: inout Generator) -> String {
        switch Int.random(in: 0..<10, using: &generator) {
        case 0: return ArchiveXML.string("$null")
        case 1: return randomValue(count: count, using: &generator)
        case 2, 3: return ArchiveXML.classDescription(Self.classNames.randomElement(using: &generator)!)
        default:
            let fields = (0..<Int.random(in: 0...3, using: &generator)).map { _ in
                (key: Self.keys.randomElement(using: &generator)!, value: randomValue(count: count, using: &generator))
            }
            return ArchiveXML.object(class: randomIndex(count: count, using: &generator), fields)
        }
    }

    func randomValue(count: Int, using generator: inout Generator) -> String {
        switch Int.random(in: 0..<9, using: &generator) {
        case 0: return ArchiveXML.uid(randomIndex(count: count, using: &generator))
        case 1, 2:
            let indexes = (0..<Int.random(in: 0...3, using: &generator)).map { _ in randomIndex(count: count, using: &generator) }
            return ArchiveXML.uids(indexes)
        case 3: return ArchiveXML.string(["", "x", "https://example.com/", "%%", "b/c"].randomElement(using: &generator)!)
        case 4: return ArchiveXML.integer(Int.random(in: -3...3, using: &generator))
        case 5: return "<real>\(Double.random(in: -1e6...1e6, using: &generator))</real>"
        case 6: return ArchiveXML.data((0..<[0, 3, 16].randomElement(using: &generator)!).map { _ in UInt8.random(in: 0...255, using: &generator) })
        case 7: return "<true/>"
        default: return "<dict><key>a</key>\(ArchiveXML.uid(1))</dict>"
        }
    }

    /// Mostly a valid index (0 is "$null"), sometimes one past the end.
    func randomIndex(count: Int, using generator: inout Generator) -> Int {
        Int.random(in: 0...(count + 1), using: &generator)
    }
}
