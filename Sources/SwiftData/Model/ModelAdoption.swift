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
@usableFromInline
enum ModelAdoption {
    /// A model being made, on the stack of the code making it.
    private struct Frame {
        /// The object, as the backing data its model stores, made where the conformance was at
        /// hand: made again in code generic over the model class, it would cost a look-up of the
        /// generic class's conformance per model.
        let backingObject: any BackingData & AnyObject

        var object: AnyModelObject {
            unsafeDowncast(backingObject, to: AnyModelObject.self)
        }
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// The frame of the model of a class being made on this thread, if any.
    private static func current(of modelType: any PersistentModel.Type) -> UnsafeRawPointer? {
        guard let frame = pthread_getspecific(key).map(UnsafeRawPointer.init),
              ObjectIdentifier(frame.load(as: Frame.self).object.binding.modelType) == ObjectIdentifier(modelType)
        else { return nil }
        return frame
    }

    /// The object whose model of a class is being made on this thread, if any.
    static func adoptingObject(of modelType: any PersistentModel.Type) -> AnyModelObject? {
        current(of: modelType)?.load(as: Frame.self).object
    }

    /// Where the object whose model of a class is being made on this thread is stored, as an
    /// `any BackingData<Model> & AnyObject`, if one is.
    @usableFromInline
    static func adoptingBackingObjectAddress(of modelType: any PersistentModel.Type) -> UnsafeRawPointer? {
        current(of: modelType).map { $0 + MemoryLayout<Frame>.offset(of: \.backingObject)! }
    }

    /// Makes the model of an object.
    static func makeModel<Object: AnyModelObject & BackingData>(of object: Object) -> AnyObject {
        var frame = Frame(backingObject: object)
        // The closure returns the model as a class that is not generic, so that the call is
        // specialized and inlined rather than handed the model class's metadata.
        return withUnsafePointer(to: &frame) { frame -> AnyObject in
            let previous = pthread_getspecific(key)
            pthread_setspecific(key, frame)
            object.isAdoptingModel = true
            defer {
                object.isAdoptingModel = false
                pthread_setspecific(key, previous)
            }
            return Object.Model(backingData: object)
        }
    }
}

extension BackingData where Self: AnyModelObject {
    /// Makes the model of an object of this class. Made once per class (see `EntityBinding`): the
    /// closure keeps the class's conformance, which code generic over the model class would
    /// otherwise look up for each model it makes.
    static var modelMaker: (AnyModelObject) -> AnyObject {
        { object in ModelAdoption.makeModel(of: unsafeDowncast(object, to: Self.self)) }
    }
}
