/// `collection[index]` (`objectFrom:withIndex:`): an element by position, `FIRST`, `LAST` or
/// `SIZE`, or a dictionary's value for a key.
enum IndexAccess {
    static func element(of container: Any?, at index: Any?) throws -> Any? {
        guard let container = ValueUnwrapping.nonNull(container) else { return nil }
        if let symbol = (index as? String).flatMap(IndexSymbol.init(rawValue:)), let elements = CollectionElements.elements(of: container) {
            switch symbol {
            case .first: return elements.first
            case .last: return elements.last
            case .size: return NSNumber(value: elements.count)
            }
        }
        if let key = index as? String, let value = DictionaryLookup.lookup(key, in: container) {
            return ValueUnwrapping.unwrapped(value)
        }
        guard let elements = CollectionElements.elements(of: container) else {
            throw PredicateEvaluationError.invalidOperand("[…] needs an array, a set or a dictionary, found \(type(of: container))")
        }
        guard let position = index.flatMap(PredicateNumber.init)?.exactInteger else {
            throw PredicateEvaluationError.invalidOperand("the index of […] must be an integer, FIRST, LAST or SIZE, found \(index.map { "\($0)" } ?? "nil")")
        }
        guard position >= 0, position < elements.count else {
            throw PredicateEvaluationError.invalidOperand("the index \(position) is beyond the bounds of a collection of \(elements.count) elements")
        }
        return elements[Int(position)]
    }
}
