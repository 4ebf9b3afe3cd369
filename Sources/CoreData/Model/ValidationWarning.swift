/// The warning of a property's validation predicate (`NSPropertyDescription.validationWarnings`),
/// read as the error code a failed validation reports.
enum ValidationWarning {
    /// A warning that is an error code (a number, or a string of digits naming a validation code)
    /// gives that code, as Xcode-compiled models do for bounds; any other warning gives 1550.
    static func code(of warning: Any?) -> Int {
        let code: Int?
        switch warning {
        case let number as NSNumber: code = number.intValue
        case let number as Int: code = number
        case let string as String: code = Int(string)
        default: code = nil
        }
        guard let code, (NSManagedObjectValidationError...NSValidationInvalidURIError).contains(code) else {
            return NSManagedObjectValidationError
        }
        return code
    }
}
