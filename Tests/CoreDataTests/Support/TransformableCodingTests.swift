import Testing
@testable import CoreData

/// Which transformer Core Data uses for a transformable attribute, and the warnings Apple's Core
/// Data logs about the choice.
@Suite struct TransformableCodingTests {
    /// A transformable attribute `payload` on an entity whose name no other test uses (warnings
    /// are logged once per process for each attribute). The entity is kept, as a property only
    /// refers to its entity weakly.
    struct Fixture {
        let entity: NSEntityDescription
        let attribute: NSAttributeDescription

        init(transformerName: String?) {
            attribute = ModelFixtureKit.attribute("payload", .transformableAttributeType)
            attribute.valueTransformerName = transformerName
            entity = ModelFixtureKit.entity("Event\(UUID().uuidString.prefix(8))", [attribute])
        }

        var insecureWarning: String {
            "Property 'payload' on Entity '\(entity.name ?? "")' is using nil or an insecure NSValueTransformer.  Please switch to using \"NSSecureUnarchiveFromData\" or a subclass of NSSecureUnarchiveFromDataTransformer instead."
        }

        var resolved: (transformer: ValueTransformer, warning: String?) {
            TransformableCoding.resolveTransformer(for: attribute)
        }
    }

    @Test func withoutANameTheKeyedUnarchiverIsUsedWithApplesWarning() {
        for name in [nil, ""] as [String?] {
            let fixture = Fixture(transformerName: name)
            #expect(fixture.resolved.transformer is KeyedUnarchiveFromDataTransformer)
            #expect(fixture.resolved.warning == fixture.insecureWarning)
        }
    }

    @Test func theKeyedUnarchiverByNameIsWarnedAboutToo() {
        let fixture = Fixture(transformerName: NSValueTransformerName.keyedUnarchiveFromData.rawValue)
        #expect(fixture.resolved.transformer is KeyedUnarchiveFromDataTransformer)
        #expect(fixture.resolved.warning == fixture.insecureWarning)
    }

    @Test(arguments: ["NSSecureUnarchiveFromData", "NSSecureUnarchiveFromDataTransformer"])
    func theSecureUnarchiverByItsNameOrClassName(name: String) {
        let resolved = Fixture(transformerName: name).resolved
        #expect(type(of: resolved.transformer) == NSSecureUnarchiveFromDataTransformer.self)
        #expect(resolved.warning == nil)
    }

    @Test func theSecureUnarchiverIsFoundByItsClassNameAsOnApplePlatforms() {
        let name = NSValueTransformerName("NSSecureUnarchiveFromDataTransformer")
        #expect(ValueTransformer(forName: name) != nil)
        #expect(NSSecureUnarchiveFromDataTransformer(forName: name) != nil)
        #expect(ValueTransformer(forName: NSValueTransformerName("NSNoSuchTransformer")) == nil)
    }

    @Test func aRegisteredTransformerIsUsed() {
        let name = NSValueTransformerName("CoreDataTests.Registered.\(UUID().uuidString)")
        let transformer = CountingTextTransformer()
        ValueTransformer.setValueTransformer(transformer, forName: name)
        defer { ValueTransformer.setValueTransformer(nil, forName: name) }
        let resolved = Fixture(transformerName: name.rawValue).resolved
        #expect(resolved.transformer === transformer)
        #expect(resolved.warning == nil)
    }

    @Test func aNameWithoutATransformerFallsBackToTheKeyedUnarchiverWithApplesWarning() {
        let fixture = Fixture(transformerName: "ColorTransformer")
        #expect(fixture.resolved.transformer is KeyedUnarchiveFromDataTransformer)
        #expect(fixture.resolved.warning == "no NSValueTransformer with class name 'ColorTransformer' was found for attribute 'payload' on entity '\(fixture.entity.name ?? "")'")
    }

    @Test func theWarningIsLoggedOnceWhenTheAttributeIsFirstUsed() throws {
        let fixture = Fixture(transformerName: nil)
        let data = try TransformableCoding.encode(ArchivedSwatch(name: "a"), for: fixture.attribute)
        #expect(TransformableCoding.decode(data, for: fixture.attribute) as? ArchivedSwatch == ArchivedSwatch(name: "a"))
        #expect(!WarningLog.shared.warnOnce(fixture.insecureWarning), "encoding logged the warning already")
    }

    @Test func aWarningIsWrittenOnce() {
        let log = WarningLog()
        #expect(log.warnOnce("a test warning"))
        #expect(!log.warnOnce("a test warning"))
        #expect(log.warnOnce("another test warning"))
    }
}
