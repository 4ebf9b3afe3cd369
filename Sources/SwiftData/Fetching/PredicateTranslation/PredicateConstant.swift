internal import CoreData

/// The engine's form of a value a predicate captures or writes literally: what the store holds
/// for it (an enumeration's raw value, a model's object ID, a number for an integer), so that
/// it compares with the stored values.
enum PredicateConstant {
    static func engineValue(of value: Any) throws -> Any? {
        if let optional = value as? any OptionalValue {
            guard let wrapped = optional.wrappedValue else { return nil }
            return try engineValue(of: wrapped)
        }
        if let model = value as? any PersistentModel {
            return model.anyModelObject.objectID
        }
        if let identifier = value as? PersistentIdentifier {
            return identifier.objectID
        }
        if let stored = value as? any StoredValue {
            return stored.storedValue
        }
        if let raw = value as? any RawRepresentable, let stored = raw.rawValue as? any StoredValue {
            return stored.storedValue
        }
        if let sequence = value as? any Sequence {
            return try sequence.map { try engineValue(of: $0) as Any }
        }
        throw SwiftDataError.unsupportedPredicate("The store cannot compare values of type \(type(of: value)).")
    }
}

/// Optional values, read without knowing their wrapped type.
protocol OptionalValue {
    var wrappedValue: Any? { get }
}

extension Optional: OptionalValue {
    var wrappedValue: Any? { self.map { $0 as Any } }
}

extension Sequence {
    fileprivate func map<T>(_ transform: (Any) throws -> T) rethrows -> [T] {
        var result: [T] = []
        for element in self { result.append(try transform(element)) }
        return result
    }
}
