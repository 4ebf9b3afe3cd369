import Testing
@testable import CoreData

@Suite struct NSSecureUnarchiveFromDataTransformerTests {
    let transformer = NSSecureUnarchiveFromDataTransformer()

    /// Archives `value` and unarchives the result.
    func roundTrip(_ value: Any, with transformer: NSSecureUnarchiveFromDataTransformer? = nil) throws -> Any? {
        let transformer = transformer ?? self.transformer
        let data = try transformer.archivedData(from: value)
        return try transformer.unarchivedValue(from: data)
    }

    /// The error the throwing unarchiving reports for `data`, after checking that the public
    /// transformation returns `nil` for it.
    func unarchivingError(_ data: Data, with transformer: NSSecureUnarchiveFromDataTransformer? = nil) -> NSError? {
        let transformer = transformer ?? self.transformer
        #expect(transformer.transformedValue(data) == nil)
        do {
            _ = try transformer.unarchivedValue(from: data)
            return nil
        } catch {
            return error as NSError
        }
    }

    /// The error the throwing archiving reports for `value`, after checking that the public
    /// reverse transformation returns `nil` for it.
    func archivingError(_ value: Any, with transformer: NSSecureUnarchiveFromDataTransformer? = nil) -> NSError? {
        let transformer = transformer ?? self.transformer
        #expect(transformer.reverseTransformedValue(value) == nil)
        do {
            _ = try transformer.archivedData(from: value)
            return nil
        } catch {
            return error as NSError
        }
    }

    // MARK: Apple's API

    @Test func defaultAllowedTopLevelClassesAreApples() {
        let names = NSSecureUnarchiveFromDataTransformer.allowedTopLevelClasses.map { String(describing: $0) }
        #expect(names == ["NSArray", "NSDictionary", "NSSet", "NSString", "NSNumber", "NSDate", "NSData", "NSURL", "NSUUID", "NSNull"])
    }

    @Test func declaredValueClassBecomesTheAllowedClass() {
        #expect(PointClassTransformer.allowedTopLevelClasses.map(ObjectIdentifier.init) == [ObjectIdentifier(ArchivedPoint.self)])
        #expect(NSSecureUnarchiveFromDataTransformer.allowsReverseTransformation())
    }

    @Test func transformsInBothDirections() throws {
        let data = try #require(transformer.reverseTransformedValue(["a", "b"]) as? Data)
        #expect(transformer.transformedValue(data) as? [String] == ["a", "b"])
        #expect(transformer.transformedValue(data as NSData) as? [String] == ["a", "b"])
    }

    @Test func nilAndNonDataInputsGiveNil() {
        #expect(transformer.transformedValue(nil) == nil)
        #expect(transformer.reverseTransformedValue(nil) == nil)
        #expect(transformer.transformedValue("not data") == nil)
    }

    // MARK: Round trips

    @Test func roundTripsFoundationValues() throws {
        let date = Date(timeIntervalSinceReferenceDate: 123_456.75)
        let uuid = UUID()
        #expect(try roundTrip("text") as? String == "text")
        #expect(try roundTrip(42) as? Int == 42)
        #expect(try roundTrip(2.5) as? Double == 2.5)
        #expect(try roundTrip(true) as? Bool == true)
        #expect(try roundTrip(Data([0, 1, 255])) as? Data == Data([0, 1, 255]))
        #expect(try roundTrip(date) as? Date == date)
        #expect(try roundTrip(uuid) as? UUID == uuid)
        #expect(try roundTrip(URL(string: "https://example.com/a?b=c")!) as? URL == URL(string: "https://example.com/a?b=c"))
        #expect(try roundTrip(NSNull()) is NSNull)
    }

    @Test func roundTripsRelativeURLs() throws {
        let url = try #require(NSURL(string: "b/c", relativeTo: URL(string: "https://example.com/a/")))
        let decoded = try #require(try roundTrip(url) as? NSURL)
        #expect(decoded.absoluteString == "https://example.com/a/b/c")
        #expect(decoded.relativeString == "b/c")
        #expect((decoded as Any as? URL)?.absoluteString == "https://example.com/a/b/c")
    }

    @Test func roundTripsNestedCollections() throws {
        let value: [String: Any] = ["list": [1, 2, 3], "set": Set(["x"]), "nested": ["k": [["deep": true]]]]
        let decoded = try #require(try roundTrip(value) as? NSDictionary)
        #expect(decoded.isEqual(value as NSDictionary))
    }

    @Test func keepsMutableClasses() throws {
        #expect(try roundTrip(NSMutableArray(array: [1])) is NSMutableArray)
        #expect(try roundTrip(NSArray(array: [1])) is NSMutableArray == false)
        #expect(try roundTrip(NSMutableDictionary(dictionary: ["a": 1])) is NSMutableDictionary)
        #expect(try roundTrip(NSMutableSet(array: [1])) is NSMutableSet)
        #expect(try roundTrip(NSMutableString(string: "s")) is NSMutableString)
        #expect(try roundTrip(NSMutableData(data: Data([1]))) is NSMutableData)
    }

    @Test func sharedObjectsStayShared() throws {
        // (Nested Foundation collections cannot show it: Linux bridges them on every access.)
        let shared = ArchivedPoint(x: 1, label: "shared")
        let data = try AnyObjectTransformer().archivedData(from: [shared, shared, ArchivedPoint(x: 1, label: "shared")])
        let decoded = try #require(try AnyObjectTransformer().unarchivedValue(from: data) as? [AnyObject])
        let identities = decoded.map(ObjectIdentifier.init)
        #expect(identities[0] == identities[1])
        #expect(identities[0] != identities[2])
    }

    @Test func equalNumbersKeepTheirTypes() throws {
        // Linux's NSKeyedArchiver merges these into one value.
        let decoded = try #require(try roundTrip([1, true, 1.0, 0, false]) as? [Any])
        let types = decoded.map { value in (value as? NSNumber).map { String(cString: $0.objCType) } }
        #expect(types == ["i", "c", "d", "i", "c"])
        #expect(decoded[1] as? Bool == true)
    }

    @Test func readsArchivesOfLinuxFoundation() throws {
        let value: NSDictionary = ["a": [1, 2], "b": NSMutableString(string: "m"), "c": UUID() as NSUUID]
        let data = try NSKeyedArchiver.archivedData(withRootObject: value, requiringSecureCoding: true)
        let decoded = try #require(try transformer.unarchivedValue(from: data) as? NSDictionary)
        #expect(decoded.isEqual(value))
    }

    @Test func foundationsUnarchiverReadsCoreDatasArchives() throws {
        let value: NSDictionary = ["list": [1, 2.5, "x"], "date": NSDate(timeIntervalSinceReferenceDate: 9), "id": NSUUID(), "mutable": NSMutableString(string: "m")]
        let data = try transformer.archivedData(from: value)
        let classes: [AnyClass] = [NSDictionary.self, NSArray.self, NSString.self, NSNumber.self, NSDate.self, NSUUID.self]
        let decoded = try NSKeyedUnarchiver.unarchivedObject(ofClasses: classes, from: data) as? NSDictionary
        #expect(decoded?.isEqual(value) == true)
    }

    @Test func readsArchivesAsApplesArchiverWritesThem() throws {
        // NSKeyedArchiver on macOS: ["name": "Ada", "tags": NSMutableArray(["x"])].
        let data = ArchiveXML.archive([
            ArchiveXML.object(class: 6, [("NS.keys", ArchiveXML.uids([2, 3])), ("NS.objects", ArchiveXML.uids([4, 5]))]),
            ArchiveXML.string("name"),
            ArchiveXML.string("tags"),
            ArchiveXML.string("Ada"),
            ArchiveXML.object(class: 8, [("NS.objects", ArchiveXML.uids([7]))]),
            ArchiveXML.classDescription("NSDictionary", classes: ["NSDictionary", "NSObject"]),
            ArchiveXML.string("x"),
            ArchiveXML.classDescription("NSMutableArray", classes: ["NSMutableArray", "NSArray", "NSObject"]),
        ])
        let decoded = try #require(try transformer.unarchivedValue(from: data) as? [String: Any])
        #expect(decoded["name"] as? String == "Ada")
        #expect(decoded["tags"] as? [String] == ["x"])
    }

    @Test func decodesANilRoot() throws {
        #expect(try transformer.unarchivedValue(from: ArchiveXML.archive(root: 0, [])) == nil)
    }

    // MARK: Classes outside Foundation

    @Test func roundTripsSecureClassesOfTheApp() throws {
        let point = ArchivedPoint(x: 1.5, label: "a", child: ArchivedPoint(x: -2, label: nil))
        #expect(try roundTrip(point, with: PointTransformer()) as? ArchivedPoint == point)
        #expect(try roundTrip([point], with: AnyObjectTransformer()) as? [ArchivedPoint] == [point])
    }

    @Test func nestedObjectsAreCheckedAgainstTheirCallersClasses() throws {
        // The label, decoded with [NSString], is an array: Apple reports 4864 rather than
        // handing the wrong class to init(coder:).
        let pointClass = NSStringFromClass(ArchivedPoint.self)
        let data = ArchiveXML.archive([
            ArchiveXML.object(class: 2, [("x", "<real>1</real>"), ("label", ArchiveXML.uid(3))]),
            ArchiveXML.classDescription(pointClass),
            ArchiveXML.object(class: 4, [("NS.objects", ArchiveXML.uids([]))]),
            ArchiveXML.classDescription("NSArray"),
        ])
        let error = unarchivingError(data, with: PointTransformer())
        #expect(error?.code == CocoaError.Code.coderReadCorrupt.rawValue)
        #expect((error?.userInfo[NSDebugDescriptionErrorKey] as? String)?.contains("unexpected class") == true)
    }

    @Test func rootOfAClassThatIsNotAllowedIsRefused() throws {
        let point = ArchivedPoint(x: 1, label: nil)
        #expect(archivingError(point)?.code == CocoaError.Code.coderInvalidValue.rawValue)
        let data = try PointTransformer().archivedData(from: point)
        #expect(unarchivingError(data)?.code == CocoaError.Code.coderReadCorrupt.rawValue)
        #expect(archivingError("text", with: PointTransformer()) != nil)
    }

    @Test func classesWithoutSecureCodingAreRefused() throws {
        let note = InsecureNote(text: "n")
        let error = try #require(archivingError(note, with: AnyObjectTransformer()))
        #expect(error.domain == NSCocoaErrorDomain)
        #expect(error.code == CocoaError.Code.coderInvalidValue.rawValue)
        let keyed = try #require(ValueTransformer.registered(named: .keyedUnarchiveFromData) as? ArchivingTransformer)
        let data = try keyed.archivedData(from: note)
        #expect(unarchivingError(data, with: AnyObjectTransformer()) != nil)
        #expect((try keyed.unarchivedValue(from: data) as? InsecureNote)?.text == "n")
    }

    @Test func failingInitializersBecomeErrors() throws {
        let data = try AnyObjectTransformer().archivedData(from: ["key": FailingObject()])
        let error = unarchivingError(data, with: AnyObjectTransformer())
        #expect((error?.userInfo[NSDebugDescriptionErrorKey] as? String)?.contains("could not be decoded") == true)
    }

    @Test func unkeyedDecodingBecomesAnError() {
        let data = ArchiveXML.archive([ArchiveXML.object(class: 2), ArchiveXML.classDescription(NSStringFromClass(UnkeyedReader.self))])
        #expect(unarchivingError(data, with: AnyObjectTransformer()) != nil)
    }

    @Test func subclassesOfFoundationCollectionsAreRefused() {
        #expect(archivingError(ArraySubclass(), with: AnyObjectTransformer()) != nil)
        let data = ArchiveXML.archive([
            ArchiveXML.object(class: 2, [("NS.objects", ArchiveXML.uids([]))]),
            ArchiveXML.classDescription(NSStringFromClass(ArraySubclass.self)),
        ])
        #expect(unarchivingError(data, with: AnyObjectTransformer()) != nil)
    }

    // MARK: Values that cannot be archived

    @Test func valuesThatAreNotCodableAreRefused() throws {
        struct Plain {}
        #expect(archivingError(Plain())?.code == CocoaError.Code.coderInvalidValue.rawValue)
        #expect(archivingError([Plain()]) != nil)
        #expect(archivingError(["k": NSObject()]) != nil)
        #expect(archivingError(NSDecimalNumber(string: "1.5")) != nil)
        #expect(archivingError(LeakyEncoder(), with: AnyObjectTransformer()) != nil)
        let message = archivingError(Plain())?.userInfo[NSDebugDescriptionErrorKey] as? String
        #expect(message?.contains("Plain") == true)
        #expect(message?.contains("does not bridge") == true)
    }

    @Test func collectionsThatContainThemselvesAreRefused() {
        let array = NSMutableArray()
        array.add(array)
        #expect(archivingError(array) != nil)
        let dictionary = NSMutableDictionary()
        dictionary["self"] = [dictionary]
        #expect(archivingError(dictionary) != nil)
    }

    @Test func nestingIsLimited() throws {
        func nested(_ levels: Int) -> NSArray {
            var array = NSArray()
            for _ in 1..<levels { array = NSArray(object: array) }
            return array
        }
        #expect(try roundTrip(nested(KeyedArchive.maximumNesting)) != nil)
        #expect(archivingError(nested(KeyedArchive.maximumNesting + 1)) != nil)
        #expect(archivingError(nested(10_000)) != nil)
    }

    @Test func nestingOfObjectsEndingInNilIsLimited() throws {
        func chain(_ levels: Int) -> ArchivedPoint? {
            (0..<levels).reduce(nil) { child, level in ArchivedPoint(x: Double(level), label: nil, child: child) }
        }
        let deepest = try #require(chain(KeyedArchive.maximumNesting))
        #expect(try roundTrip(deepest, with: PointTransformer()) as? ArchivedPoint == deepest)
        #expect(archivingError(try #require(chain(KeyedArchive.maximumNesting + 1)), with: PointTransformer()) != nil)
    }
}
