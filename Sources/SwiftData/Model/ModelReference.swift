#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A reference from a context object to its model that does not keep the model alive.
///
/// A `weak` reference would do, but the first one to an object gives it a side table, which
/// costs an allocation per model and moves every retain and release of the model off the
/// inline reference count. An unowned count keeps the model's memory (not its life) until the
/// reference lets go, and a load retains the model only if it is not being deinitialized: the
/// runtime's own calls for `unowned`, without the trap when the model is gone.
struct ModelReference<Model: AnyObject>: ~Copyable {
    private var pointer: UnsafeMutableRawPointer?

    init() {}

    deinit {
        if let pointer { Runtime.unownedRelease(pointer) }
    }

    /// The model, if it is still alive.
    func load() -> Model? {
        guard let pointer, Runtime.tryRetain(pointer) != nil else { return nil }
        return Unmanaged<Model>.fromOpaque(pointer).takeRetainedValue()
    }

    /// Refers to a model from now on.
    mutating func store(_ model: Model) {
        let new = Unmanaged.passUnretained(model).toOpaque()
        guard new != pointer else { return }
        _ = Runtime.unownedRetain(new)
        if let pointer { Runtime.unownedRelease(pointer) }
        pointer = new
    }
}

/// The Swift runtime's entry points behind `unowned` references (swift/Runtime/HeapObject.h),
/// looked up by name: the compiler reserves their names for itself.
private enum Runtime {
    typealias Retain = @convention(c) (UnsafeMutableRawPointer) -> UnsafeMutableRawPointer
    typealias Release = @convention(c) (UnsafeMutableRawPointer) -> Void
    /// Returns the object, retained, or nil when it is being deinitialized.
    typealias TryRetain = @convention(c) (UnsafeMutableRawPointer) -> UnsafeMutableRawPointer?

    static let unownedRetain = function("swift_unownedRetain", as: Retain.self)
    static let unownedRelease = function("swift_unownedRelease", as: Release.self)
    static let tryRetain = function("swift_tryRetain", as: TryRetain.self)

    private static func function<Function>(_ name: String, as type: Function.Type) -> Function {
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), name) else {
            preconditionFailure("The Swift runtime has no \(name)")
        }
        return unsafeBitCast(symbol, to: Function.self)
    }
}
