/// `FUNCTION(receiver, "selector", arguments…)` and custom-selector comparisons
/// (`SELF hasPrefix: "a"`) without an Objective-C runtime: the methods of strings (their path
/// methods included) and numbers that predicates commonly call are answered here,
/// `valueForKey:` and `valueForKeyPath:` for any object, and the selectors of receivers that
/// answer messages themselves (the migration manager and policies); any other selector is an
/// evaluation error naming it.
enum MethodCall {
    /// The answer of a custom-selector comparison: `isEqual:` for any value, and the Boolean
    /// methods of strings (`hasPrefix:`, `hasSuffix:`, `containsString:`, `isEqualToString:`).
    static func isTrue(_ selector: String, on receiver: Any?, argument: Any?) throws -> Bool {
        if selector == "isEqual:" {
            return ValueComparison.isEqual(receiver, argument)
        }
        guard let answer = try invoke(selector, on: receiver, arguments: [argument]) else { return false }
        guard let truth = PredicateNumber(answer) else {
            throw PredicateEvaluationError.invalidOperand("the custom selector \(selector) must answer a Boolean, found \(type(of: answer))")
        }
        return truth.doubleValue != 0
    }

    static func invoke(_ selector: String, on receiver: Any?, arguments: [Any?]) throws -> Any? {
        guard let receiver = ValueUnwrapping.nonNull(receiver) else { return nil }
        if let key = keyValueCodingKey(selector, arguments) {
            return try KeyValueReader.value(atKeyPath: key[...], of: receiver)
        }
        if let messageReceiver = receiver as? any ExpressionMessageReceiver {
            return try messageReceiver.answer(selector, arguments: arguments)
        }
        if let function = ExpressionFunction(selector: selector), function.arity == arguments.count + 1 {
            return try FunctionEvaluation.apply(function, to: [receiver] + arguments)
        }
        if let string = receiver as? String, let result = try stringMethod(selector, string, arguments) ?? pathMethod(selector, string, arguments) {
            return result
        }
        if let number = PredicateNumber(receiver), arguments.isEmpty, let result = numberMethod(selector, number) {
            return result
        }
        throw PredicateEvaluationError.unsupported("FUNCTION(\(type(of: receiver)), \"\(selector)\") (there is no Objective-C runtime to send the message)")
    }

    /// The key of `valueForKey:` and the components of `valueForKeyPath:`, which every object
    /// answers through key-value coding (migrations read source values with them).
    private static func keyValueCodingKey(_ selector: String, _ arguments: [Any?]) -> [String]? {
        guard arguments.count == 1, let key = arguments[0] as? String else { return nil }
        switch selector {
        case "valueForKey:": return [key]
        case "valueForKeyPath:": return key.split(separator: ".").map(String.init)
        default: return nil
        }
    }

    private static func stringMethod(_ selector: String, _ string: String, _ arguments: [Any?]) throws -> Any? {
        switch (selector, arguments.count) {
        case ("uppercaseString", 0): return string.uppercased()
        case ("lowercaseString", 0): return string.lowercased()
        case ("capitalizedString", 0): return string.capitalized
        case ("length", 0): return NSNumber(value: string.utf16.count)
        case ("description", 0), ("self", 0): return string
        case ("intValue", 0), ("integerValue", 0), ("longLongValue", 0): return NSNumber(value: Int64(string.trimmingCharacters(in: .whitespaces)) ?? 0)
        case ("doubleValue", 0), ("floatValue", 0): return NSNumber(value: Double(string.trimmingCharacters(in: .whitespaces)) ?? 0)
        case ("hasPrefix:", 1), ("hasSuffix:", 1), ("containsString:", 1), ("isEqualToString:", 1):
            guard let other = arguments[0] as? String else { return NSNumber(value: false) }
            let answer = switch selector {
            case "hasPrefix:": string.hasPrefix(other)
            case "hasSuffix:": string.hasSuffix(other)
            case "containsString:": string.contains(other)
            default: string == other
            }
            return NSNumber(value: answer)
        case ("stringByAppendingString:", 1):
            guard let suffix = arguments[0] as? String else {
                throw PredicateEvaluationError.invalidOperand("stringByAppendingString: needs a string argument")
            }
            return string + suffix
        default: return nil
        }
    }

    private static func numberMethod(_ selector: String, _ number: PredicateNumber) -> Any? {
        switch selector {
        case "stringValue", "description": ConstantFormatter.format(number)
        case "intValue", "integerValue", "longLongValue": NSNumber(value: number.exactInteger ?? Int64(exactly: number.doubleValue.rounded(.towardZero)) ?? 0)
        case "doubleValue", "floatValue": NSNumber(value: number.doubleValue)
        case "boolValue": NSNumber(value: number.doubleValue != 0)
        default: nil
        }
    }
}
