import Testing
@testable import CoreData

/// Key paths of any length cost time in proportion to their length (issue 18, defect 4).
///
/// There is no operation counter to assert on and the project allows no timing assertions, so
/// these tests use paths long enough that quadratic work cannot pass unnoticed: each walks a
/// 200,000-component path, which takes milliseconds when every step is linear and minutes when a
/// step copies the components read so far (16,000 components already took 1.3 s that way).
@Suite("Long key paths")
struct LongKeyPathTests {
    private static let length = 200_000

    /// `next.next.….next`, `length` components.
    private static let path = Array(repeating: "next", count: length).joined(separator: ".")

    /// A node that is its own `next`, so that a path of any length can be read from it.
    private final class Loop {
        var next: Loop?
        let value = 7
    }

    @Test func aLongKeyPathParsesAndPrintsBack() throws {
        let predicate = NSPredicate(format: Self.path + " == 7")
        #expect(predicate.parseError == nil)
        guard case .comparison(let comparison) = predicate.node else {
            Issue.record("not a comparison: \(predicate.predicateFormat.prefix(80))")
            return
        }
        #expect(comparison.left.rootedKeyPath?.count == Self.length)
        #expect(predicate.predicateFormat == Self.path + " == 7")
    }

    @Test func aLongKeyPathBasedOnAnExpressionParses() throws {
        let expression = NSExpression(format: "$start." + Self.path)
        #expect(expression.operand == NSExpression(forVariable: "start"))
        #expect(expression.arguments == [NSExpression(forKeyPath: Self.path)])
    }

    @Test func aLongKeyPathEvaluates() {
        let loop = Loop()
        loop.next = loop
        defer { loop.next = nil }
        #expect(NSPredicate(format: Self.path + ".value == 7").evaluate(with: loop))
        #expect(NSPredicate(format: "SELF." + Self.path + ".value == 7").evaluate(with: loop))
    }

    /// A variable key (`SELF.$key`) replaced by a long dotted path becomes one key path.
    @Test func substitutingALongKeyPathForAVariableKey() {
        let template = NSPredicate(format: "SELF.$key == 7")
        let substituted = template.withSubstitutionVariables(["key": Self.path + ".value"])
        #expect(substituted.predicateFormat == "SELF." + Self.path + ".value == 7")
    }
}
