/// The observation registrar of a model, made the first time one of its properties is read.
///
/// An observer can only come from a read (`withObservationTracking` records the registrars
/// the reads report to), so a model nobody has read has no observer to tell of a change, and a
/// model a program only writes, as it inserts it, never pays for a registrar.
///
/// This is extra API, for the code `@Model` writes.
public struct _ModelObservationRegistrar: Sendable {
    // Observation's registrar is a resilient type: an optional of it is asked through calls
    // and copied to be used, where an optional reference to a box is neither, and the box's
    // own methods use the registrar in place.
    @usableFromInline
    final class Box: Sendable {
        private let registrar = ObservationRegistrar()

        @usableFromInline
        init() {}

        @usableFromInline
        func access<Model: Observable, Value>(_ model: Model, keyPath: KeyPath<Model, Value>) {
            registrar.access(model, keyPath: keyPath)
        }

        @usableFromInline
        func withMutation<Model: Observable, Value, Result>(
            of model: Model,
            keyPath: KeyPath<Model, Value>,
            _ mutation: () throws -> Result
        ) rethrows -> Result {
            try registrar.withMutation(of: model, keyPath: keyPath, mutation)
        }
    }

    @usableFromInline
    var box: Box?

    public init() {}

    /// Reports a read of a property.
    @inlinable
    public mutating func access<Model: Observable, Value>(_ model: Model, keyPath: KeyPath<Model, Value>) {
        if box == nil { box = Box() }
        box!.access(model, keyPath: keyPath)
    }

    /// Makes a change of a property, telling its observers, if it has any.
    @inlinable
    public func withMutation<Model: Observable, Value, Result>(
        of model: Model,
        keyPath: KeyPath<Model, Value>,
        _ mutation: () throws -> Result
    ) rethrows -> Result {
        guard let box else { return try mutation() }
        return try box.withMutation(of: model, keyPath: keyPath, mutation)
    }
}
