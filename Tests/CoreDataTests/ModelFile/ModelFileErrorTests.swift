@testable import CoreData
import Testing

/// Every way a model file can be wrong gives an `NSError` in `NSCocoaErrorDomain` that names
/// the file, the line and the element, and never a crash: malformed XML, unknown elements and
/// values, names that refer to nothing, missing files and versions.
@Suite struct ModelFileErrorTests {
    /// A `contents` document whose `<model>` holds `body`.
    static func document(_ body: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" sourceLanguage="Swift">
        \(body)
        </model>
        """
    }

    /// The error of reading `contents` from an `.xcdatamodel` directory.
    static func error(reading contents: String) throws -> NSError? {
        let directory = try SQLiteScratchDirectory("model-file")
        defer { directory.remove() }
        let version = directory.file("Broken.xcdatamodel")
        try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
        try Data(contents.utf8).write(to: version.appendingPathComponent("contents"))
        #expect(NSManagedObjectModel(contentsOf: version) == nil, "the failable initializer fails too")
        do {
            _ = try NSManagedObjectModel(validatingContentsOf: version)
            return nil
        } catch let error as NSError {
            return error
        }
    }

    /// Expects reading to fail with 259, naming the file and every fragment.
    static func expectCorrupt(_ contents: String, mentions fragments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let error = try #require(try error(reading: contents), sourceLocation: sourceLocation)
        #expect(error.domain == NSCocoaErrorDomain, sourceLocation: sourceLocation)
        #expect(error.code == CocoaError.fileReadCorruptFile.rawValue, sourceLocation: sourceLocation)
        #expect((error.userInfo[NSFilePathErrorKey] as? String)?.hasSuffix("Broken.xcdatamodel/contents") == true, sourceLocation: sourceLocation)
        for fragment in fragments {
            #expect(error.localizedDescription.contains(fragment), "\(error.localizedDescription) mentions \(fragment)", sourceLocation: sourceLocation)
        }
    }

    // MARK: Malformed XML

    @Test(arguments: [
        ("<model><entity name=\"A\"></model>", "closes <entity>"),
        ("<model><entity name=\"A\">", "never closed"),
        ("<model><entity name=A/></model>", "not quoted"),
        ("<model><entity name=\"A\" name=\"B\"/></model>", "two 'name' attributes"),
        ("<model><entity name=\"&bogus;\"/></model>", "unknown reference"),
        ("<model/><model/>", "content after the root"),
        ("<model/> trailing text", "text outside the root"),
        ("<!-- only a comment -->", "holds no XML element"),
        ("<model><entity name=\"a<b\"/></model>", "contains '<'"),
        ("<model><!-- unclosed comment </model>", "never closed"),
        ("<model><entity name=\"&#0;\"/></model>", "does not allow"),
    ])
    func malformedXMLIsRefusedWithItsLine(contents: String, problem: String) throws {
        try Self.expectCorrupt(contents, mentions: ["malformed XML", problem, "line 1"])
    }

    @Test func theLineOfTheProblemIsReported() throws {
        try Self.expectCorrupt(Self.document("    <entity name=\"A\">\n        <attribute name=\"x\" attributeType=\"String\">\n    </entity>"), mentions: ["line 5", "</entity> closes <attribute>, opened on line 4"])
    }

    @Test func nestingDeeperThanAnyModelFileIsRefusedWithoutRecursion() throws {
        let depth = 200_000
        let contents = "<model>" + String(repeating: "<a>", count: depth) + String(repeating: "</a>", count: depth) + "</model>"
        try Self.expectCorrupt(contents, mentions: ["nest more than \(XMLDocumentParser.maximumDepth) levels"])
    }

    @Test func longInheritanceChainsAreRefusedBeforeAnythingWalksThem() throws {
        let chain = (1...20_000).map { "<entity name=\"E\($0)\" parentEntity=\"E\($0 - 1)\"/>" }.joined()
        try Self.expectCorrupt(Self.document("<entity name=\"E0\"/>" + chain), mentions: ["more than \(ModelFileReader.maximumInheritanceDepth) entities"])
    }

    @Test func compositesThatExpandWithoutBoundAreRefused() throws {
        let doubling = (0..<40).map { level in
            "<composite name=\"C\(level)\"><attribute name=\"a\" attributeType=\"Composite\" composite=\"C\(level + 1)\"/><attribute name=\"b\" attributeType=\"Composite\" composite=\"C\(level + 1)\"/></composite>"
        }.joined() + "<composite name=\"C40\"/>"
        try Self.expectCorrupt(Self.document("<entity name=\"A\"><attribute name=\"c\" attributeType=\"Composite\" composite=\"C0\"/></entity>" + doubling), mentions: ["<composite name=\"C", "more than"])
        let wide = "<composite name=\"Wide\">" + (0..<200).map { "<attribute name=\"w\($0)\" attributeType=\"Composite\" composite=\"Leaf\"/>" }.joined() + "</composite>"
        let leaf = "<composite name=\"Leaf\">" + (0..<100).map { "<attribute name=\"l\($0)\" attributeType=\"String\"/>" }.joined() + "</composite>"
        try Self.expectCorrupt(Self.document(wide + leaf), mentions: ["more than \(ModelFileReader.maximumCompositeSize) attributes"])
    }

    @Test func attributeValuesAreNormalizedAsXMLReadsThem() throws {
        let directory = try SQLiteScratchDirectory("model-file")
        defer { directory.remove() }
        let version = directory.file("Spaces.xcdatamodel")
        try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
        let contents = Self.document("<entity name=\"A\"><attribute name=\"s\" attributeType=\"String\" defaultValueString=\"a\tb\r\nc&#10;d\"/></entity>")
        try Data(contents.utf8).write(to: version.appendingPathComponent("contents"))
        let model = try NSManagedObjectModel(validatingContentsOf: version)
        #expect(model.entitiesByName["A"]?.attributesByName["s"]?.defaultValue as? String == "a b c\nd")
    }

    @Test func theDefaultConfigurationXcodeWritesForItsSettingsIsTheImplicitOne() throws {
        let directory = try SQLiteScratchDirectory("model-file")
        defer { directory.remove() }
        let version = directory.file("Cloud.xcdatamodel")
        try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
        try Data(Self.document("<entity name=\"A\"/><configuration name=\"Default\" usedWithCloudKit=\"YES\"/>").utf8).write(to: version.appendingPathComponent("contents"))
        let model = try NSManagedObjectModel(validatingContentsOf: version)
        #expect(model.configurations.isEmpty)
        #expect(model.entities(forConfigurationName: nil)?.count == 1)
    }

    // MARK: Unknown or missing content

    @Test func aFileThatIsNotAModelIsRefused() throws {
        try Self.expectCorrupt("<plist version=\"1.0\"><dict/></plist>", mentions: ["not <model>", "<plist>"])
        try Self.expectCorrupt("<model type=\"com.example.Other\"/>", mentions: ["com.example.Other"])
    }

    @Test(arguments: [
        ("<entity name=\"A\"><widget/></entity>", "<widget>"),
        ("<gadget/>", "<gadget>"),
        ("<entity name=\"A\"><userInfo><item key=\"k\"/></userInfo></entity>", "<item"),
        ("<configuration name=\"C\"><entity name=\"A\"/></configuration>", "<entity name=\"A\">"),
    ])
    func unknownElementsAreRefused(body: String, element: String) throws {
        try Self.expectCorrupt(Self.document(body), mentions: ["unknown element", element])
    }

    @Test(arguments: [
        ("<entity name=\"A\"><attribute name=\"x\" attributeType=\"Strang\"/></entity>", "\"Strang\""),
        ("<entity name=\"A\"><attribute name=\"x\" optional=\"MAYBE\" attributeType=\"String\"/></entity>", "not YES or NO"),
        ("<entity name=\"A\" codeGenerationType=\"struct\"/>", "not class or category"),
        ("<entity name=\"A\"><relationship name=\"r\" deletionRule=\"Explode\" destinationEntity=\"A\"/></entity>", "\"Explode\""),
        ("<entity name=\"A\"><attribute name=\"x\" attributeType=\"Integer 16\" defaultValueString=\"70000\"/></entity>", "not a valid Integer 16"),
        ("<entity name=\"A\"><attribute name=\"x\" attributeType=\"Integer 32\" defaultValueString=\"many\"/></entity>", "\"many\""),
        ("<entity name=\"A\"><attribute name=\"x\" attributeType=\"UUID\" defaultValueString=\"not-a-uuid\"/></entity>", "not a valid UUID"),
        ("<entity name=\"A\"><attribute name=\"x\" attributeType=\"Binary\" defaultValueString=\"00\"/></entity>", "cannot have a default value"),
        ("<entity name=\"A\"><attribute name=\"x\" attributeType=\"String\" minValueString=\"-1\"/></entity>", "minValueString"),
        ("<entity name=\"A\"><attribute name=\"x\" attributeType=\"String\" regularExpressionString=\"([\"/></entity>", "not a regular expression"),
        ("<entity name=\"A\"><attribute name=\"x\" attributeType=\"String\" derived=\"YES\" derivationExpression=\"uppercase:(\"/></entity>", "not an expression"),
        ("<entity name=\"A\"><fetchedProperty name=\"f\"><fetchRequest name=\"r\" entity=\"A\" predicateString=\"x ==\"/></fetchedProperty></entity>", "not a predicate"),
        ("<entity name=\"A\"><relationship name=\"r\" maxCount=\"-2\" destinationEntity=\"A\"/></entity>", "not a count"),
        ("<entity name=\"A\"><relationship name=\"r\" toMany=\"YES\" minCount=\"5\" maxCount=\"2\" destinationEntity=\"A\"/></entity>", "more than maxCount"),
        ("<fetchRequest name=\"F\" entity=\"A\" fetchLimit=\"-1\"/><entity name=\"A\"/>", "not a count"),
        ("<entity name=\"A\"><attribute name=\"d\" attributeType=\"Date\" defaultDateTimeInterval=\"nan\"/></entity>", "not a finite number"),
        ("<entity name=\"A\"><attribute name=\"d\" attributeType=\"Decimal\" defaultValueString=\"0x10\"/></entity>", "not a valid Decimal"),
        ("<entity name=\"A\"><fetchIndex name=\"i\"/></entity>", "at least one"),
        ("<entity name=\"A\"><attribute name=\"x\" attributeType=\"String\"/><fetchIndex name=\"i\"><fetchIndexElement property=\"x\" type=\"Binary\"/><fetchIndexElement property=\"x\" type=\"RTree\"/></fetchIndex></entity>", "cannot mix"),
        ("<fetchRequest name=\"F\" entity=\"A\" resultType=\"3\"/><entity name=\"A\"/>", "not 0, 1, 2 or 4"),
        ("<entity name=\"A\"><fetchIndex name=\"i\"><fetchIndexElement property=\"x\" type=\"Hash\"/></fetchIndex><attribute name=\"x\" attributeType=\"String\"/></entity>", "\"Hash\""),
    ])
    func badValuesAreRefusedNamingTheElement(body: String, problem: String) throws {
        try Self.expectCorrupt(Self.document(body), mentions: [problem, "<"])
    }

    @Test(arguments: [
        ("<entity/>", "'name' attribute is missing", "<entity>"),
        ("<entity name=\"A\"/><entity name=\"A\"/>", "second entity", "<entity name=\"A\">"),
        ("<entity name=\"A\"><attribute name=\"x\" attributeType=\"String\"/><relationship name=\"x\" destinationEntity=\"A\"/></entity>", "second property", "<relationship name=\"x\">"),
        ("<entity name=\"A\" parentEntity=\"Ghost\"/>", "no entity is named \"Ghost\"", "<entity name=\"A\">"),
        ("<entity name=\"A\" parentEntity=\"B\"/><entity name=\"B\" parentEntity=\"A\"/>", "inherits from itself", "<entity"),
        ("<entity name=\"A\"><relationship name=\"r\" destinationEntity=\"Ghost\"/></entity>", "\"Ghost\"", "<relationship name=\"r\">"),
        ("<entity name=\"A\"><relationship name=\"r\" destinationEntity=\"A\" inverseName=\"back\" inverseEntity=\"A\"/></entity>", "\"back\"", "<relationship name=\"r\">"),
        ("<entity name=\"A\"><fetchIndex name=\"i\"><fetchIndexElement property=\"missing\"/></fetchIndex></entity>", "no property named \"missing\"", "<fetchIndexElement"),
        ("<entity name=\"A\"><uniquenessConstraints><uniquenessConstraint><constraint value=\"missing\"/></uniquenessConstraint></uniquenessConstraints></entity>", "\"missing\"", "<uniquenessConstraint>"),
        ("<entity name=\"A\"><attribute name=\"c\" attributeType=\"Composite\" composite=\"Ghost\"/></entity>", "no composite is named \"Ghost\"", "<attribute name=\"c\">"),
        ("<entity name=\"A\"><attribute name=\"c\" attributeType=\"Composite\" composite=\"Loop\"/></entity><composite name=\"Loop\"><attribute name=\"inner\" attributeType=\"Composite\" composite=\"Loop\"/></composite>", "contains itself", "<attribute name=\"inner\">"),
        ("<configuration name=\"C\"><memberEntity name=\"Ghost\"/></configuration>", "\"Ghost\"", "<memberEntity name=\"Ghost\">"),
        ("<fetchRequest name=\"F\" entity=\"Ghost\"/>", "\"Ghost\"", "<fetchRequest name=\"F\">"),
    ])
    func namesThatReferToNothingAreRefused(body: String, problem: String, element: String) throws {
        try Self.expectCorrupt(Self.document(body), mentions: [problem, element])
    }

    // MARK: Files and versions

    @Test func aMissingModelIsReportedAsAMissingFile() throws {
        let directory = try SQLiteScratchDirectory("model-file")
        defer { directory.remove() }
        for name in ["Nothing.xcdatamodeld", "Nothing.xcdatamodel", "Nothing.momd"] {
            let error = try #require(ctxError { _ = try NSManagedObjectModel(validatingContentsOf: directory.file(name)) })
            #expect(error.code == CocoaError.fileReadNoSuchFile.rawValue, "\(name)")
            #expect(error.localizedDescription.contains("Nothing.xcdatamodel"))
        }
        let empty = directory.file("Empty.xcdatamodel")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let error = ctxError { _ = try NSManagedObjectModel(validatingContentsOf: empty) }
        #expect(error?.code == CocoaError.fileReadNoSuchFile.rawValue)
        #expect(error?.localizedDescription.contains("no 'contents' file") == true)
    }

    @Test func aBundleMustSayWhichOfSeveralVersionsIsCurrent() throws {
        let directory = try SQLiteScratchDirectory("model-file")
        defer { directory.remove() }
        let bundle = directory.file("Shop.xcdatamodeld")
        for version in ["Shop.xcdatamodel", "Shop 2.xcdatamodel"] {
            let url = bundle.appendingPathComponent(version)
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            try Data(Self.document("<entity name=\"Item\"/>").utf8).write(to: url.appendingPathComponent("contents"))
        }
        #expect(ctxError { _ = try NSManagedObjectModel(validatingContentsOf: bundle) }?.localizedDescription.contains("2 versions and no .xccurrentversion") == true)

        let current = bundle.appendingPathComponent(".xccurrentversion")
        try Data("not a property list".utf8).write(to: current)
        #expect(ctxError { _ = try NSManagedObjectModel(validatingContentsOf: bundle) }?.localizedDescription.contains("_XCCurrentVersionName") == true)

        let plist = try PropertyListSerialization.data(fromPropertyList: ["_XCCurrentVersionName": "Shop 3.xcdatamodel"], format: .xml, options: 0)
        try plist.write(to: current)
        #expect(ctxError { _ = try NSManagedObjectModel(validatingContentsOf: bundle) }?.localizedDescription.contains("\"Shop 3.xcdatamodel\" is not in the bundle") == true)

        let valid = try PropertyListSerialization.data(fromPropertyList: ["_XCCurrentVersionName": "Shop 2.xcdatamodel"], format: .xml, options: 0)
        try valid.write(to: current)
        #expect(try NSManagedObjectModel(validatingContentsOf: bundle).entitiesByName["Item"] != nil)
    }

    @Test func otherFileKindsAreNotModels() throws {
        let directory = try SQLiteScratchDirectory("model-file")
        defer { directory.remove() }
        let text = directory.file("Model.txt")
        try Data("hello".utf8).write(to: text)
        #expect(ctxError { _ = try NSManagedObjectModel(validatingContentsOf: text) }?.localizedDescription.contains(".xcdatamodeld bundle or an .xcdatamodel directory") == true)
    }
}
