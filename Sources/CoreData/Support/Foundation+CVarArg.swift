// `date as CVarArg`, `uuid as CVarArg`, `ids as CVarArg`, `objectID as CVarArg`: the spelling most
// Core Data code uses for `NSPredicate(format:)` arguments. On Apple platforms every `NSObject` is
// a `CVarArg`, and `as CVarArg` bridges a `Date`, `UUID`, array… to its Foundation class. Linux
// Foundation has neither, so the conformances below make that code compile; `NSPredicate(format:)`
// receives the value itself.
//
// They also keep `String(format:)`, `NSLog` and other C-variadic calls safe, which matters because
// Linux Foundation's `%@` understands only its CoreFoundation-backed classes and crashes on others
// (`NSUUID`, `NSArray`, a managed object). On Linux the standard library asks a `_CVarArgObject`
// for the object to pass and keeps that object alive until the call returns, as Foundation does
// for `String`: here that object is the string `%@` prints on Apple platforms, the `description`
// of the object or of the Foundation object the value bridges to (`2001-01-01 00:00:00 +0000`).

/// Passed to C as its `description`, an `NSString`.
extension NSObject: @retroactive CVarArg, @retroactive _CVarArgObject {
    /// The object's `description`, which C-variadic calls pass in its place.
    public var _cVarArgObject: CVarArg {
        CVarArgFormatting.description(of: self)
    }

    /// The object's address; the caller keeps the object alive.
    public var _cVarArgEncoding: [Int] {
        _encodeBitsAsWords(self)
    }
}

/// A Swift value passed to C as the `description` of the Foundation object it bridges to.
protocol FoundationBridgedCVarArg: _CVarArgObject, _ObjectiveCBridgeable where _ObjectiveCType: NSObject {}

extension FoundationBridgedCVarArg {
    /// The `description` of the Foundation object the value bridges to, which C-variadic calls
    /// pass in its place.
    public var _cVarArgObject: CVarArg {
        CVarArgFormatting.description(of: _bridgeToObjectiveC())
    }

    /// The standard library encodes `_cVarArgObject` instead, which it keeps alive for the call;
    /// a caller that bypasses it gets a description that lives as long as the process, since
    /// nothing else can keep it alive long enough.
    public var _cVarArgEncoding: [Int] {
        _encodeBitsAsWords(Unmanaged.passRetained(CVarArgFormatting.description(of: _bridgeToObjectiveC())).toOpaque())
    }
}

extension Date: @retroactive CVarArg, @retroactive _CVarArgObject, FoundationBridgedCVarArg {}
extension UUID: @retroactive CVarArg, @retroactive _CVarArgObject, FoundationBridgedCVarArg {}
extension URL: @retroactive CVarArg, @retroactive _CVarArgObject, FoundationBridgedCVarArg {}
extension Data: @retroactive CVarArg, @retroactive _CVarArgObject, FoundationBridgedCVarArg {}
extension Decimal: @retroactive CVarArg, @retroactive _CVarArgObject, FoundationBridgedCVarArg {}
extension Array: @retroactive CVarArg, @retroactive _CVarArgObject, FoundationBridgedCVarArg {}
extension Set: @retroactive CVarArg, @retroactive _CVarArgObject, FoundationBridgedCVarArg {}
extension Dictionary: @retroactive CVarArg, @retroactive _CVarArgObject, FoundationBridgedCVarArg {}

/// The text C-variadic calls receive for objects.
enum CVarArgFormatting {
    /// The string `%@` formats for `object`: a string itself, any other object's `description`.
    static func description(of object: NSObject) -> NSString {
        (object as? NSString) ?? NSString(string: object.description)
    }
}
