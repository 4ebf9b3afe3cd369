import Testing
@testable import CoreData

@Suite struct NSValueTransformerNameTests {
    @Test func constantsHaveApplesRawValues() {
        #expect(NSValueTransformerName.negateBooleanTransformerName.rawValue == "NSNegateBoolean")
        #expect(NSValueTransformerName.isNilTransformerName.rawValue == "NSIsNil")
        #expect(NSValueTransformerName.isNotNilTransformerName.rawValue == "NSIsNotNil")
        #expect(NSValueTransformerName.secureUnarchiveFromDataTransformerName.rawValue == "NSSecureUnarchiveFromData")
        #expect(NSValueTransformerName.keyedUnarchiveFromData.rawValue == "NSKeyedUnarchiveFromData")
    }

    @available(*, deprecated, message: "reads Apple's deprecated constants on purpose")
    @Test func deprecatedConstantsHaveApplesRawValues() {
        #expect(NSValueTransformerName.unarchiveFromDataTransformerName.rawValue == "NSUnarchiveFromData")
        #expect(NSValueTransformerName.keyedUnarchiveFromDataTransformerName.rawValue == "NSKeyedUnarchiveFromData")
    }

    @Test func namesCompareByRawValue() {
        #expect(NSValueTransformerName("A") == NSValueTransformerName(rawValue: "A"))
        #expect(NSValueTransformerName("A") != NSValueTransformerName("B"))
        #expect(Set([NSValueTransformerName("A"), NSValueTransformerName("A")]).count == 1)
    }
}
