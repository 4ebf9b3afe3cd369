import Testing
@testable import CoreData

/// Archives that are valid property lists but that Linux Foundation's `NSKeyedUnarchiver`
/// cannot survive (each case ended a probe process on this platform), and other malformed
/// input: all must be refused with `NSCoderReadCorruptError`.
@Suite struct KeyedArchiveValidationTests {
    /// The reason the default secure transformer gives for refusing `data`, or `nil` if it
    /// decodes it.
    func refusal(_ data: Data, allowing allowedClasses: [AnyClass]? = nil) -> String? {
        let allowed = allowedClasses ?? NSSecureUnarchiveFromDataTransformer.allowedTopLevelClasses
        do {
            _ = try KeyedArchiveDecoder.decodeRootObject(from: data, allowedClasses: allowed)
            return nil
        } catch {
            let error = error as NSError
            #expect(error.domain == NSCocoaErrorDomain)
            #expect(error.code == CocoaError.Code.coderReadCorrupt.rawValue)
            return error.userInfo[NSDebugDescriptionErrorKey] as? String ?? "no reason"
        }
    }

    /// An archive whose root is an object of class `className` with `fields`, followed by
    /// `extra` entries (from index 3).
    func archive(_ className: String, _ fields: [(key: String, value: String)] = [], extra: [String] = []) -> Data {
        ArchiveXML.archive([ArchiveXML.object(class: 2, fields), ArchiveXML.classDescription(className)] + extra)
    }

    // MARK: Not a keyed archive

    @Test(arguments: [
        Data(),
        Data("garbage".utf8),
        Data([0x62, 0x70, 0x6C, 0x69, 0x73, 0x74, 0x30, 0x30, 0xFF]),
        Data("<plist><array/></plist>".utf8),
    ])
    func dataThatIsNotAnArchiveIsRefused(_ data: Data) {
        #expect(refusal(data) != nil)
    }

    @Test func xmlArchivesAreRefused() {
        // Core Data reads the binary archives NSKeyedArchiver writes by default, and not XML,
        // so that no data reaches CoreFoundation's property list parsers.
        let xml = ArchiveXML.xml(top: "<key>root</key>\(ArchiveXML.uid(1))", objects: [ArchiveXML.string("x")])
        #expect(refusal(xml)?.contains("not a binary property list") == true)
        #expect(refusal(ArchiveXML.binary(xml)) == nil)
    }

    @Test func truncatedArchivesAreRefused() throws {
        let data = try NSKeyedArchiver.archivedData(withRootObject: ["a": [1, 2]] as NSDictionary, requiringSecureCoding: true)
        for length in stride(from: 0, to: data.count, by: 7) {
            #expect(refusal(data.prefix(length)) != nil)
        }
    }

    @Test func archivesOfAnotherArchiverOrVersionAreRefused() {
        let objects = [ArchiveXML.string("x")]
        let top = "<key>root</key>\(ArchiveXML.uid(1))"
        #expect(refusal(ArchiveXML.archive(top: top, objects: objects)) == nil)
        #expect(refusal(ArchiveXML.archive(top: top, objects: objects, archiver: "NSArchiver")) != nil)
        #expect(refusal(ArchiveXML.archive(top: top, objects: objects, version: 99)) != nil)
        #expect(refusal(ArchiveXML.archive(top: "", objects: objects)) != nil)
        #expect(refusal(ArchiveXML.archive(top: "<key>root</key><string>x</string>", objects: objects)) != nil)
        #expect(refusal(ArchiveXML.archive(root: 9, objects)) != nil)
    }

    // MARK: Broken structure

    @Test func classReferencesMustLeadToClassDescriptions() {
        // Linux: force-unwraps nil, and traps, when $class points at anything else.
        #expect(refusal(ArchiveXML.archive([ArchiveXML.object(class: 2), ArchiveXML.string("NSArray")])) != nil)
        #expect(refusal(ArchiveXML.archive([ArchiveXML.object(class: 9)])) != nil)
        #expect(refusal(ArchiveXML.archive([ArchiveXML.object(class: 1)])) != nil)
        #expect(refusal(ArchiveXML.archive(["<dict><key>$class</key><integer>2</integer></dict>", ArchiveXML.classDescription("NSNull")])) != nil)
        #expect(refusal(ArchiveXML.archive([ArchiveXML.object(class: 2), ArchiveXML.classDescription(nil, hints: [])])) != nil)
    }

    @Test func referencesMustStayInRange() {
        let refused = refusal(archive("NSArray", [("NS.objects", ArchiveXML.uids([7]))]))
        #expect(refused?.contains("neither a value, a reference nor an array of references") == true)
    }

    @Test func entriesMustBeObjects() {
        #expect(refusal(ArchiveXML.archive(["<array/>"])) != nil)
        #expect(refusal(ArchiveXML.archive(["<dict><key>a</key><string>b</string></dict>"])) != nil)
        #expect(refusal(ArchiveXML.archive([ArchiveXML.uid(0)])) != nil)
        #expect(refusal(ArchiveXML.archive([ArchiveXML.classDescription("NSArray")])) != nil)
    }

    @Test func objectsThatContainThemselvesAreRefused() {
        // Linux: recurses until the stack overflows.
        #expect(refusal(archive("NSArray", [("NS.objects", ArchiveXML.uids([1]))]))?.contains("contains itself") == true)
        #expect(refusal(archive("NSURL", [("NS.base", ArchiveXML.uid(1)), ("NS.relative", ArchiveXML.uid(3))], extra: [ArchiveXML.string("a")])) != nil)
        let twoStep = archive("NSArray", [("NS.objects", ArchiveXML.uids([3]))], extra: [ArchiveXML.object(class: 2, [("NS.objects", ArchiveXML.uids([1]))])])
        #expect(refusal(twoStep) != nil)
    }

    @Test func nestingDeeperThanTheLimitIsRefused() {
        func chain(_ levels: Int) -> Data {
            // Entry 1 is the class; entries 2... are arrays, each holding the next.
            let arrays = (0..<levels).map { level in
                ArchiveXML.object(class: 1, [("NS.objects", ArchiveXML.uids(level + 1 < levels ? [level + 3] : []))])
            }
            return ArchiveXML.archive(root: 2, [ArchiveXML.classDescription("NSArray")] + arrays)
        }
        #expect(refusal(chain(KeyedArchive.maximumNesting)) == nil)
        #expect(refusal(chain(KeyedArchive.maximumNesting + 1))?.contains("nested") == true)
        #expect(refusal(chain(5_000)) != nil)
    }

    @Test func sharedObjectsAreNotMistakenForCycles() {
        // Entry 1: [3, 3]; entry 3: [4, 4]; ... a diamond at each level.
        let levels = 60
        let arrays = (0..<levels).map { level in
            let next = level + 1 < levels ? [level + 2, level + 2] : []
            return ArchiveXML.object(class: levels + 1, [("NS.objects", ArchiveXML.uids(next))])
        }
        let data = ArchiveXML.archive(arrays + [ArchiveXML.classDescription("NSArray")])
        #expect(refusal(data) == nil)
    }

    // MARK: Classes

    @Test func classesOutsideTheAllowedListAreRefused() {
        // Linux: "Value was of unexpected class", a fatal error.
        #expect(refusal(archive("NSNull"), allowing: [NSArray.self])?.contains("unexpected class") == true)
        let arrayOfNull = archive("NSArray", [("NS.objects", ArchiveXML.uids([3]))], extra: [ArchiveXML.object(class: 4), ArchiveXML.classDescription("NSNull")])
        #expect(refusal(arrayOfNull, allowing: [NSArray.self]) != nil)
        #expect(refusal(arrayOfNull, allowing: [NSArray.self, NSNull.self]) == nil)
        #expect(refusal(archive("NSLock")) != nil)
        #expect(refusal(archive("NoSuchClass")) != nil)
        #expect(refusal(ArchiveXML.archive([ArchiveXML.string("text")]), allowing: [NSArray.self]) != nil)
    }

    @Test func subclassesOfAllowedClassesAreAdmitted() {
        let mutableArray = archive("NSMutableArray", [("NS.objects", ArchiveXML.uids([]))])
        #expect(refusal(mutableArray, allowing: [NSArray.self]) == nil)
        let plainArray = archive("NSArray", [("NS.objects", ArchiveXML.uids([]))])
        #expect(refusal(plainArray, allowing: [NSMutableArray.self]) != nil)
    }

    @Test func theArchivedSuperclassChainIsNotTrusted() {
        let lying = ArchiveXML.archive([
            ArchiveXML.object(class: 2),
            ArchiveXML.classDescription("NSLock", classes: ["NSLock", "NSArray", "NSObject"]),
        ])
        #expect(refusal(lying) != nil)
    }

    @Test func classHintsStandInForMissingClasses() throws {
        let hinted = ArchiveXML.archive([
            ArchiveXML.object(class: 2, [("NS.objects", ArchiveXML.uids([3]))]),
            ArchiveXML.classDescription("MissingArray", hints: ["NSArray"]),
            ArchiveXML.string("x"),
        ])
        #expect(refusal(hinted) == nil)
        let decoded = try KeyedArchiveDecoder.decodeRootObject(from: hinted, allowedClasses: [NSArray.self, NSString.self])
        #expect(decoded as? [String] == ["x"])
    }

    @Test(arguments: ["_NSCFArray", "_NSCFString", "_NSCFDictionary", "_NSCFSet", "NSDecimalNumber", "NSAttributedString", "NSOrderedSet", "__NSCFBoolean", "_NSKeyedCoderOldStyleArray"])
    func foundationClassesCoreDataDoesNotBuildAreRefused(_ className: String) {
        // Linux: the _NSCF classes trap in init(coder:).
        #expect(refusal(archive(className), allowing: [NSObject.self])?.contains("cannot be archived or unarchived") == true)
    }

    // MARK: Foundation classes with malformed fields

    @Test func dictionariesNeedAsManyKeysAsValues() {
        // Linux: reads past the end of the values, and crashes.
        let string = [ArchiveXML.string("k")]
        #expect(refusal(archive("NSDictionary", [("NS.keys", ArchiveXML.uids([3])), ("NS.objects", ArchiveXML.uids([3]))], extra: string)) == nil)
        #expect(refusal(archive("NSDictionary", [("NS.keys", ArchiveXML.uids([3, 3])), ("NS.objects", ArchiveXML.uids([3]))], extra: string))?.contains("2 keys but 1 values") == true)
        #expect(refusal(archive("NSDictionary", [("NS.keys", ArchiveXML.uids([3]))], extra: string)) != nil)
        #expect(refusal(archive("NSDictionary", [("NS.keys", ArchiveXML.uids([3])), ("NS.objects", ArchiveXML.uids([0]))], extra: string)) != nil)
        #expect(refusal(archive("NSDictionary", [("NS.keys", ArchiveXML.uids([3])), ("NS.objects", "<array><string>v</string></array>")], extra: string)) != nil)
    }

    @Test func failuresInsideDictionariesAreReported() {
        // Linux: a value that fails to decode leaves fewer values than keys, and crashes.
        let failing = NSStringFromClass(FailingObject.self)
        let data = archive("NSDictionary", [("NS.keys", ArchiveXML.uids([3])), ("NS.objects", ArchiveXML.uids([4]))],
                           extra: [ArchiveXML.string("k"), ArchiveXML.object(class: 5), ArchiveXML.classDescription(failing)])
        #expect(refusal(data, allowing: [NSObject.self]) != nil)
    }

    @Test func collectionsCannotHoldNil() {
        #expect(refusal(archive("NSArray", [("NS.objects", ArchiveXML.uids([0]))])) != nil)
        #expect(refusal(archive("NSSet", [("NS.objects", ArchiveXML.string("x"))])) != nil)
    }

    @Test func stringsNeedTheirText() {
        // Linux: force-casts NS.string to String, and traps.
        #expect(refusal(archive("NSMutableString", [("NS.string", ArchiveXML.string("s"))])) == nil)
        #expect(refusal(archive("NSMutableString")) != nil)
        #expect(refusal(archive("NSString", [("NS.string", ArchiveXML.integer(5))])) != nil)
        #expect(refusal(archive("NSMutableString", [("NS.string", ArchiveXML.uid(3))], extra: [ArchiveXML.string("s")])) != nil)
    }

    @Test func leafObjectsNeedWellFormedFields() {
        #expect(refusal(archive("NSUUID", [("NS.uuidbytes", ArchiveXML.data(Array(repeating: 7, count: 16)))])) == nil)
        #expect(refusal(archive("NSUUID", [("NS.uuidbytes", ArchiveXML.data([1, 2, 3]))]))?.contains("3 bytes") == true)
        #expect(refusal(archive("NSUUID")) != nil)
        #expect(refusal(archive("NSMutableData", [("NS.data", ArchiveXML.string("x"))])) != nil)
        #expect(refusal(archive("NSDate", [("NS.time", ArchiveXML.string("x"))])) != nil)
        #expect(refusal(archive("NSDate")) == nil)
        #expect(refusal(archive("NSURL", [("NS.base", ArchiveXML.uid(0)), ("NS.relative", ArchiveXML.uid(3))], extra: [ArchiveXML.integer(3)])) != nil)
        #expect(refusal(archive("NSURL", [("NS.base", ArchiveXML.uid(3)), ("NS.relative", ArchiveXML.uid(4))], extra: [ArchiveXML.string("http://a/"), ArchiveXML.string("b")])) != nil)
        #expect(refusal(archive("NSURL", [("NS.relative", ArchiveXML.string("http://a/"))])) != nil)
        // NSURL takes "[:" (as "%5B:"), but bridging that NSURL to URL traps on Linux.
        #expect(refusal(archive("NSURL", [("NS.base", ArchiveXML.uid(0)), ("NS.relative", ArchiveXML.uid(3))], extra: [ArchiveXML.string("[:")])) != nil)
        #expect(refusal(archive("NSURL", [("NS.base", ArchiveXML.uid(0)), ("NS.relative", ArchiveXML.uid(3))], extra: [ArchiveXML.string("a/b")])) == nil)
    }

    @Test func escapedKeysAreFound() throws {
        // NSKeyedArchiver stores a key that starts with "$" with another "$" in front.
        let data = ArchiveXML.archive([
            ArchiveXML.object(class: 2, [("$$x", "<real>4</real>")]),
            ArchiveXML.classDescription(NSStringFromClass(DollarKeyReader.self)),
        ])
        let decoded = try KeyedArchiveDecoder.decodeRootObject(from: data, allowedClasses: [DollarKeyReader.self])
        #expect((decoded as? DollarKeyReader)?.x == 4)
    }
}

/// Reads a double stored under a key that starts with "$".
final class DollarKeyReader: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }

    let x: Double

    func encode(with coder: NSCoder) {
        coder.encode(x, forKey: "$x")
    }

    required init?(coder: NSCoder) {
        x = coder.decodeDouble(forKey: "$x")
        super.init()
    }
}
