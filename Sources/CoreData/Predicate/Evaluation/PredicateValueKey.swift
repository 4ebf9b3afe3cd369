/// A value hashed and compared the way predicates compare values (nil and `NSNull` alike,
/// `1 == 1.0 == true`, objects by the object they reference), for sets of predicate values;
/// `AnyHashable` does not agree with `isEqual:` for Foundation objects such as `NSNull`.
struct PredicateValueKey: Hashable {
    let value: Any?

    init(_ value: Any?) {
        self.value = value
    }

    static func == (lhs: PredicateValueKey, rhs: PredicateValueKey) -> Bool {
        if let lhs = lhs.value as? ObjectReference, let rhs = rhs.value as? ObjectReference {
            return lhs.referencedObject == rhs.referencedObject
        }
        return ValueComparison.isEqual(lhs.value, rhs.value)
    }

    func hash(into hasher: inout Hasher) {
        if let reference = value as? ObjectReference {
            hasher.combine(reference.referencedObject)
        } else {
            ValueComparison.hash(value, into: &hasher)
        }
    }
}

/// The members of a large constant collection, hashed once, so that `IN` without options
/// tests each evaluated value in constant time instead of comparing it with every member.
final class MembershipIndex {
    /// Collections smaller than this are searched directly.
    static let minimumCount = 16

    private let members: Set<PredicateValueKey>

    /// The index of a collection (or dictionary) constant; nil for other values and small ones.
    init?(_ value: Any?) {
        guard let members = CollectionElements.members(of: value), members.count >= Self.minimumCount else { return nil }
        self.members = Set(members.lazy.map(PredicateValueKey.init))
    }

    /// Whether a member is equal to `value`, as `IN` without options decides.
    func contains(_ value: Any?) -> Bool {
        members.contains(PredicateValueKey(value))
    }
}
