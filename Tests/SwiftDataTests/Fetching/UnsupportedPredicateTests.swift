import Foundation
import SwiftData
import Testing

/// A predicate the store cannot compute is a thrown `SwiftDataError` naming what it cannot
/// compute, before any row is read: never a crash, and never an answer computed in memory.
@Suite struct UnsupportedPredicateTests {
    let fixture: InventoryFixture

    init() throws {
        fixture = try InventoryFixture()
    }

    private func expectUnsupported(_ predicate: Predicate<Gadget>, naming name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let error = #expect(throws: SwiftDataError.self, sourceLocation: sourceLocation) {
            try fixture.context.fetch(FetchDescriptor(predicate: predicate))
        }
        #expect(error == .unsupportedPredicate || error == .unsupportedKeyPath, sourceLocation: sourceLocation)
        #expect(error?.description.contains(name) == true, "\(String(describing: error)) does not name \(name)", sourceLocation: sourceLocation)
        #expect(throws: SwiftDataError.self, sourceLocation: sourceLocation) {
            try fixture.context.fetchCount(FetchDescriptor(predicate: predicate))
        }
    }

    @Test func theLengthOfAString() {
        expectUnsupported(#Predicate { $0.name.count > 3 }, naming: "String")
    }

    @Test func aRegularExpression() {
        expectUnsupported(#Predicate { $0.name.contains(/l+a/) }, naming: "StringContainsRegex")
    }

    @Test func aDictionarySubscript() {
        let ranks = ["lamp": 1, "clock": 2]
        expectUnsupported(#Predicate { ranks[$0.name] == 1 }, naming: "DictionaryKeySubscript")
        expectUnsupported(#Predicate { ranks[$0.name, default: 0] == 1 }, naming: "DictionaryKeyDefaultValueSubscript")
    }

    @Test func castsAndTypeChecks() {
        expectUnsupported(#Predicate { ($0.nickname as? String) == "Bo" }, naming: "ConditionalCast")
        expectUnsupported(#Predicate { $0.nickname is String }, naming: "TypeCheck")
    }

    @Test func anElementOfARelationshipByIndex() {
        expectUnsupported(#Predicate { $0.parts[0].price > 1 }, naming: "CollectionIndexSubscript")
    }

    @Test func aSubqueryThatReadsTheObjectOutside() {
        expectUnsupported(#Predicate { gadget in gadget.parts.contains { $0.label == gadget.name } }, naming: "subquery")
    }

    @Test func aPropertyThatIsNotPersisted() {
        expectUnsupported(#Predicate { $0.hasManyParts }, naming: "Gadget")
    }
}

extension Gadget {
    /// A computed property: not in the store.
    var hasManyParts: Bool { parts.count > 3 }
}
