@testable import SwiftData
import Testing

// The reference from a context object to its model: it gives the model back while something
// holds it, and nothing once the model is gone, whether through the runtime's unowned calls or,
// where the runtime does not export them, a weak reference.
@Suite struct ModelReferenceTests {
    final class Model {}

    @Test func theRuntimeExportsItsUnownedCalls() {
        #expect(UnownedReferenceCalls.runtime != nil)
    }

    @Test(arguments: [true, false])
    func aReferenceGivesItsModelWhileItLives(usesRuntime: Bool) {
        var reference = ModelReference(usesUnownedCalls: usesRuntime)
        var model: Model? = Model()
        reference.store(model!)
        #expect(reference.load() === model)
        let replacement = Model()
        reference.store(replacement)
        #expect(reference.load() === replacement)
        model = nil
        #expect(reference.load() === replacement)
    }

    @Test(arguments: [true, false])
    func aReferenceGivesNothingOnceItsModelIsGone(usesRuntime: Bool) {
        var reference = ModelReference(usesUnownedCalls: usesRuntime)
        do {
            let model = Model()
            reference.store(model)
        }
        #expect(reference.load() == nil)
    }
}
