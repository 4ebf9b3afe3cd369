import Testing
@testable import CoreData

/// Doubles numbers; reversible by halving.
final class DoublingTransformer: ValueTransformer {
    override class func transformedValueClass() -> AnyClass { NSNumber.self }

    override func transformedValue(_ value: Any?) -> Any? {
        (value as? Int).map { $0 * 2 }
    }

    override func reverseTransformedValue(_ value: Any?) -> Any? {
        (value as? Int).map { $0 / 2 }
    }
}

/// Uppercases text; declares itself not reversible.
final class UppercasingTransformer: ValueTransformer {
    override class func allowsReverseTransformation() -> Bool { false }

    override func transformedValue(_ value: Any?) -> Any? {
        (value as? String)?.uppercased()
    }
}

@Suite struct ValueTransformerTests {
    /// A name no other test uses, since the registry is shared by tests running in parallel.
    func uniqueName(_ function: String = #function) -> NSValueTransformerName {
        NSValueTransformerName("CoreDataTests.\(function).\(UUID().uuidString)")
    }

    @Test func defaultsAreApples() {
        let transformer = ValueTransformer()
        #expect(ObjectIdentifier(ValueTransformer.transformedValueClass()) == ObjectIdentifier(NSObject.self))
        #expect(ValueTransformer.allowsReverseTransformation())
        #expect(transformer.transformedValue("x") as? String == "x")
        #expect(transformer.reverseTransformedValue(7) as? Int == 7)
        #expect(transformer.transformedValue(nil) == nil)
    }

    @Test func reverseTransformationReappliesTheTransformation() {
        // Negation is its own inverse, so the inherited reverse applies it again.
        let negate = NegateBooleanTransformer()
        #expect(negate.reverseTransformedValue(true) as? Bool == false)
    }

    @Test func reverseTransformationThatIsNotAllowedGivesNil() {
        let transformer = UppercasingTransformer()
        #expect(transformer.transformedValue("a") as? String == "A")
        #expect(transformer.reverseTransformedValue("a") == nil)
    }

    @Test func registersAndUnregisters() throws {
        let name = uniqueName()
        #expect(ValueTransformer(forName: name) == nil)
        let doubling = DoublingTransformer()
        ValueTransformer.setValueTransformer(doubling, forName: name)
        #expect(ValueTransformer.valueTransformerNames().contains(name))
        #expect(ValueTransformer.registered(named: name) === doubling)
        ValueTransformer.setValueTransformer(nil, forName: name)
        #expect(ValueTransformer(forName: name) == nil)
        #expect(!ValueTransformer.valueTransformerNames().contains(name))
    }

    @Test func transformerForNameForwardsToTheRegisteredOne() throws {
        let name = uniqueName()
        ValueTransformer.setValueTransformer(DoublingTransformer(), forName: name)
        defer { ValueTransformer.setValueTransformer(nil, forName: name) }
        let transformer = try #require(ValueTransformer(forName: name))
        #expect(transformer.transformedValue(21) as? Int == 42)
        #expect(transformer.reverseTransformedValue(42) as? Int == 21)
    }

    @Test func transformerForNameOnASubclassNeedsThatClass() throws {
        let name = uniqueName()
        ValueTransformer.setValueTransformer(DoublingTransformer(), forName: name)
        defer { ValueTransformer.setValueTransformer(nil, forName: name) }
        #expect(DoublingTransformer(forName: name)?.transformedValue(2) as? Int == 4)
        #expect(UppercasingTransformer(forName: name) == nil)
    }

    @Test func foundationsTransformersAreRegistered() {
        let names = ValueTransformer.valueTransformerNames()
        for name in [NSValueTransformerName.negateBooleanTransformerName, .isNilTransformerName, .isNotNilTransformerName,
                     .keyedUnarchiveFromData, .secureUnarchiveFromDataTransformerName] {
            #expect(names.contains(name))
            #expect(ValueTransformer(forName: name) != nil)
        }
        #expect(ValueTransformer.registered(named: .secureUnarchiveFromDataTransformerName) is NSSecureUnarchiveFromDataTransformer)
        #expect(ValueTransformer.registered(named: .keyedUnarchiveFromData) is ArchivingTransformer)
        #expect(ValueTransformer(forName: NSValueTransformerName("NSUnarchiveFromData")) == nil)
    }

    @Test func negateBoolean() throws {
        let negate = try #require(ValueTransformer(forName: .negateBooleanTransformerName))
        #expect(negate.transformedValue(true) as? Bool == false)
        #expect(negate.transformedValue(false) as? Bool == true)
        #expect(negate.transformedValue(NSNumber(value: 0)) as? Bool == true)
        #expect(negate.transformedValue(nil) as? Bool == true)
        #expect(negate.transformedValue("text") as? Bool == true)
        #expect(negate.reverseTransformedValue(false) as? Bool == true)
        #expect(ObjectIdentifier(NegateBooleanTransformer.transformedValueClass()) == ObjectIdentifier(NSNumber.self))
    }

    @Test func isNilAndIsNotNil() throws {
        let isNil = try #require(ValueTransformer(forName: .isNilTransformerName))
        let isNotNil = try #require(ValueTransformer(forName: .isNotNilTransformerName))
        let wrappedNil: Int?? = .some(nil)
        let cases: [(value: Any?, isNil: Bool)] = [
            (nil, true), (Optional<Int>.none as Any, true), (wrappedNil as Any, true),
            (0, false), ("", false), (NSNull(), false), (Optional(5) as Any, false),
        ]
        for (value, expected) in cases {
            #expect(isNil.transformedValue(value) as? Bool == expected)
            #expect(isNotNil.transformedValue(value) as? Bool == !expected)
        }
        #expect(!NilTestTransformer.allowsReverseTransformation())
        #expect(isNil.reverseTransformedValue(nil) == nil)
    }

    @Test func registryIsSafeAcrossThreads() {
        let names = (0..<8).map { _ in uniqueName() }
        DispatchQueue.concurrentPerform(iterations: 400) { iteration in
            let name = names[iteration % names.count]
            if iteration % 3 == 0 {
                ValueTransformer.setValueTransformer(iteration % 2 == 0 ? DoublingTransformer() : nil, forName: name)
            } else {
                _ = ValueTransformer(forName: name)?.transformedValue(iteration)
                _ = ValueTransformer.valueTransformerNames()
            }
        }
        for name in names { ValueTransformer.setValueTransformer(nil, forName: name) }
        #expect(names.allSatisfy { ValueTransformer(forName: $0) == nil })
    }
}
