#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The context object whose model SwiftData is making, on this thread.
///
/// A model's initializer first gives each property with an initial value that value, through
/// backing data of its own (`_$createBackingObject()`), before it takes the object it was made for.
/// While SwiftData makes the model of an object, `_$createBackingObject()` hands back that object,
/// which ignores those writes, so that making a fetched model costs no second object.
enum ModelAdoption {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// The object whose model is being made on this thread, if any.
    static var current: AnyModelObject? {
        guard let pointer = pthread_getspecific(key) else { return nil }
        return Unmanaged<AnyModelObject>.fromOpaque(pointer).takeUnretainedValue()
    }

    /// Makes the model of an object.
    static func makeModel<Model>(of object: AnyModelObject, _ make: () -> Model) -> Model {
        let previous = pthread_getspecific(key)
        pthread_setspecific(key, Unmanaged.passUnretained(object).toOpaque())
        object.isAdoptingModel = true
        defer {
            object.isAdoptingModel = false
            pthread_setspecific(key, previous)
        }
        return make()
    }
}
