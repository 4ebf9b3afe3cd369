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
/// runtime's own calls for `unowned`, without the trap when the model is gone. A program whose
/// runtime does not export those calls (one linked with the standard library statically) gets
/// the `weak` reference. It is not generic over the model class: each use of a generic one, from
/// code generic over the class, would look up its metadata.
struct ModelReference: ~Copyable {
    private var pointer: UnsafeMutableRawPointer?
    private weak var weakModel: AnyObject?
    private let usesUnownedCalls: Bool

    /// A reference through the runtime's unowned calls where it has them, else a weak one.
    init(usesUnownedCalls: Bool = UnownedReferenceCalls.runtime != nil) {
        self.usesUnownedCalls = usesUnownedCalls
    }

    deinit {
        if let pointer, let calls = UnownedReferenceCalls.runtime { calls.unownedRelease(pointer) }
    }

    /// The model, if it is still alive.
    func load() -> AnyObject? {
        guard usesUnownedCalls, let calls = UnownedReferenceCalls.runtime else { return weakModel }
        guard let pointer, calls.tryRetain(pointer) != nil else { return nil }
        return Unmanaged<AnyObject>.fromOpaque(pointer).takeRetainedValue()
    }

    /// Refers to a model from now on.
    mutating func store(_ model: AnyObject) {
        guard usesUnownedCalls, let calls = UnownedReferenceCalls.runtime else { return weakModel = model }
        let new = Unmanaged.passUnretained(model).toOpaque()
        guard new != pointer else { return }
        _ = calls.unownedRetain(new)
        if let pointer { calls.unownedRelease(pointer) }
        pointer = new
    }
}

/// The Swift runtime's entry points behind `unowned` references (swift/Runtime/HeapObject.h),
/// looked up by name, as the compiler reserves their names for itself.
struct UnownedReferenceCalls: Sendable {
    typealias Retain = @convention(c) (UnsafeMutableRawPointer) -> UnsafeMutableRawPointer
    typealias Release = @convention(c) (UnsafeMutableRawPointer) -> Void
    /// Returns the object, retained, or nil when it is being deinitialized.
    typealias TryRetain = @convention(c) (UnsafeMutableRawPointer) -> UnsafeMutableRawPointer?

    let unownedRetain: Retain
    let unownedRelease: Release
    let tryRetain: TryRetain

    /// The calls of the process's runtime, or nil when it does not export them.
    static let runtime: UnownedReferenceCalls? = {
        let process = dlopen(nil, RTLD_NOW)
        guard let retain = dlsym(process, "swift_unownedRetain"),
              let release = dlsym(process, "swift_unownedRelease"),
              let tryRetain = dlsym(process, "swift_tryRetain")
        else { return nil }
        return UnownedReferenceCalls(
            unownedRetain: unsafeBitCast(retain, to: Retain.self),
            unownedRelease: unsafeBitCast(release, to: Release.self),
            tryRetain: unsafeBitCast(tryRetain, to: TryRetain.self))
    }()
}
