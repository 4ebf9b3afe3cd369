import Testing
@testable import CoreData

/// A class that only this file can name in code; Swift gives it no name an archive could use.
private final class PrivateArchivedThing: NSObject, NSCoding {
    override init() {
        super.init()
    }

    func encode(with coder: NSCoder) {}

    required init?(coder: NSCoder) {
        super.init()
    }
}

/// The program's own `NSCoding` classes in Core Data's keyed archives: named as Linux
/// Foundation's `NSKeyedArchiver` names them, readable by Foundation's unarchiver and the other
/// way round, and decoded through an `NSCoder` their `init?(coder:)` can read.
@Suite struct KeyedArchiveAppClassTests {
    let keyed = KeyedUnarchiveFromDataTransformer()

    static var swatch: ArchivedSwatch {
        ArchivedSwatch(
            name: "Ochre", count: -3, level: 7, serial: 1 << 40, weight: 0.25, opacity: 0.5, isPinned: true,
            bytes: Data([0, 1, 254]), added: Date(timeIntervalSinceReferenceDate: 1234.5), tags: ["warm", "earth"], note: "mixed"
        )
    }

    /// The values the tests archive: an app class alone, inside an array and a dictionary, a
    /// secure-coding app class with a child of its own class, and a swatch without a note.
    static var values: [Any] {
        [
            swatch,
            [swatch, ArchivedSwatch(name: "Blank")],
            ["first": swatch, "second": ArchivedSwatch(name: "Teal", tags: ["cool"])],
            ArchivedPoint(x: 1.5, label: "a", child: ArchivedPoint(x: -2, label: nil)),
            ArchivedSwatch(name: "Plain"),
        ]
    }

    /// A class description of an archive: its `$classname` and its `$classes`.
    struct ClassDescription: Hashable {
        let name: String
        let chain: [String]
    }

    func classDescriptions(in data: Data) throws -> Set<ClassDescription> {
        guard case .dictionary(let archive) = try BinaryPropertyList.parse(data),
              case .array(let objects) = archive["$objects"] else { return [] }
        var descriptions: Set<ClassDescription> = []
        for case .dictionary(let object) in objects {
            guard case .string(let name) = object["$classname"], case .array(let chain) = object["$classes"] else { continue }
            let names = chain.compactMap { if case .string(let ancestor) = $0 { ancestor } else { nil } }
            descriptions.insert(ClassDescription(name: name, chain: names))
        }
        return descriptions
    }

    /// Whether two decoded values are equal as the archived values are compared.
    func isEqual(_ lhs: Any?, _ rhs: Any) -> Bool {
        (lhs as? NSObject)?.isEqual(rhs as AnyObject) == true
    }

    @Test(arguments: 0..<values.count)
    func archivesNameClassesAsFoundationsArchiverDoes(index: Int) throws {
        let value = Self.values[index]
        let ours = try keyed.archivedData(from: value)
        let foundations = try NSKeyedArchiver.archivedData(withRootObject: value, requiringSecureCoding: false)
        #expect(try classDescriptions(in: ours) == classDescriptions(in: foundations))
    }

    @Test func appClassesAreNamedWithTheirModule() throws {
        let data = try keyed.archivedData(from: Self.swatch)
        let descriptions = try classDescriptions(in: data)
        #expect(descriptions.contains(ClassDescription(name: "CoreDataTests.ArchivedSwatch", chain: ["CoreDataTests.ArchivedSwatch", "NSObject"])))
        #expect(ArchiveClassPolicy.resolveClass(named: "CoreDataTests.ArchivedSwatch") == ArchivedSwatch.self)
    }

    @Test(arguments: 0..<values.count)
    func foundationsUnarchiverReadsOurArchives(index: Int) throws {
        let value = Self.values[index]
        let unarchiver = try NSKeyedUnarchiver(forReadingFrom: try keyed.archivedData(from: value))
        unarchiver.requiresSecureCoding = false
        #expect(isEqual(unarchiver.decodeObject(forKey: NSKeyedArchiveRootObjectKey), value))
    }

    @Test(arguments: 0..<values.count)
    func readsFoundationsArchives(index: Int) throws {
        let value = Self.values[index]
        let data = try NSKeyedArchiver.archivedData(withRootObject: value, requiringSecureCoding: false)
        #expect(isEqual(try keyed.unarchivedValue(from: data), value))
    }

    @Test func initializersReadEveryKindOfKeyedValue() throws {
        let decoded = try #require(try keyed.unarchivedValue(from: keyed.archivedData(from: Self.swatch)) as? ArchivedSwatch)
        #expect(decoded == Self.swatch)
        #expect(decoded.serial == 1 << 40 && decoded.level == 7 && decoded.opacity == 0.5 && decoded.isPinned)
        #expect(decoded.note == "mixed")
        let plain = try #require(try keyed.unarchivedValue(from: keyed.archivedData(from: ArchivedSwatch(name: "Plain"))) as? ArchivedSwatch)
        #expect(plain.note == nil, "containsValue(forKey:) is false for a key that was not encoded")
    }

    @Test func theCoderSaysWhetherItRequiresSecureCoding() throws {
        let insecure = try #require(try keyed.unarchivedValue(from: keyed.archivedData(from: CoderObserver())) as? CoderObserver)
        #expect(!insecure.sawSecureCoding)
        #expect(insecure.sawKeyedCoding)
        let secureTransformer = AnyObjectTransformer()
        let secure = try #require(try secureTransformer.unarchivedValue(from: secureTransformer.archivedData(from: CoderObserver())) as? CoderObserver)
        #expect(secure.sawSecureCoding)
        #expect(secure.sawKeyedCoding)
    }

    @Test func anErrorAnInitializerReportsIsTheUnarchivingError() throws {
        let data = try keyed.archivedData(from: [SelfRejectingObject()])
        #expect(keyed.transformedValue(data) == nil)
        #expect {
            try keyed.unarchivedValue(from: data)
        } throws: { error in
            let error = error as NSError
            return error.code == CocoaError.Code.coderReadCorrupt.rawValue
                && error.userInfo[NSDebugDescriptionErrorKey] as? String == SelfRejectingObject.reason
        }
    }

    /// Instances of a nested, a generic and a private class.
    static var unnameableValues: [NSObject] {
        [UnnameableArchiveClasses.Nested(), GenericArchivedBox<Int>(), PrivateArchivedThing()]
    }

    @Test(arguments: 0..<unnameableValues.count)
    func classesWithoutANameAreRefusedWithoutStopping(index: Int) throws {
        let value = Self.unnameableValues[index]
        for archived in [value, [value] as NSArray] as [Any] {
            #expect(keyed.reverseTransformedValue(archived) == nil)
            #expect {
                try keyed.archivedData(from: archived)
            } throws: { error in
                let error = error as NSError
                return error.code == CocoaError.Code.coderInvalidValue.rawValue
                    && (error.userInfo[NSDebugDescriptionErrorKey] as? String)?.contains("top-level class") == true
            }
        }
    }

    @Test func aNamedSubclassOfAClassWithoutANameIsArchived() throws {
        let data = try keyed.archivedData(from: SubclassOfNested())
        #expect(try keyed.unarchivedValue(from: data) is SubclassOfNested)
        let chain = ["CoreDataTests.SubclassOfNested", "NSObject"]
        #expect(try classDescriptions(in: data) == [ClassDescription(name: "CoreDataTests.SubclassOfNested", chain: chain)])
    }
}
