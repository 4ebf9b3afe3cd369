/// Linux has no `AutoreleasingUnsafeMutablePointer` (it exists only with Objective-C interop), yet
/// Apple's `NSManagedObject.validateValue(_:forKey:)` takes one. This alias lets code written for
/// Apple's signature compile unchanged; `&value` passes a pointer to the value as on Apple platforms.
public typealias AutoreleasingUnsafeMutablePointer<Pointee> = UnsafeMutablePointer<Pointee>
