/// A Swift scalar that generated accessors read and write by property index without an
/// `NSNumber`: `Int16`, `Int32`, `Int64`, `Float`, `Double` and `Bool`.
///
/// Each conversion agrees with the boxed path it replaces: reading gives what
/// `(value as? NSNumber)?.int64Value ?? 0` (and its siblings) would, writing stores what
/// `setValue(NSNumber(value: newValue), …)` would. A pair of Swift type and attribute type
/// without an exact word conversion (say `Double` for an integer attribute) takes the boxed path.
protocol SlotScalar {
    /// The value a word of `scalar` kind stands for, or nil when the boxed path must decide.
    init?(bits: UInt64, scalar: StoragePlan.Scalar)
    /// The value of a boxed number, as generated getters convert it (zero for nil).
    init(number: NSNumber?)
    /// The word of the value in a slot of `scalar` kind, or nil when the value is to be parked.
    func bits(for scalar: StoragePlan.Scalar) -> UInt64?
    /// The value boxed, as generated setters used to pass it.
    var number: NSNumber { get }
}

/// The integers: a word of an integer or Boolean slot, truncated to the width as `NSNumber` does.
protocol SlotInteger: SlotScalar, FixedWidthInteger {}

extension SlotInteger {
    @inline(__always)
    init?(bits: UInt64, scalar: StoragePlan.Scalar) {
        guard !scalar.isFloatingPoint else { return nil }
        self.init(truncatingIfNeeded: Int64(bitPattern: bits))
    }

    @inline(__always)
    func bits(for scalar: StoragePlan.Scalar) -> UInt64? {
        scalar.isFloatingPoint ? nil : UInt64(bitPattern: Int64(self))
    }
}

extension Int16: SlotInteger {
    init(number: NSNumber?) { self = number?.int16Value ?? 0 }
    var number: NSNumber { NSNumber(value: self) }
}

extension Int32: SlotInteger {
    init(number: NSNumber?) { self = number?.int32Value ?? 0 }
    var number: NSNumber { NSNumber(value: self) }
}

extension Int64: SlotInteger {
    init(number: NSNumber?) { self = number?.int64Value ?? 0 }
    var number: NSNumber { NSNumber(value: self) }
}

extension Bool: SlotScalar {
    @inline(__always)
    init?(bits: UInt64, scalar: StoragePlan.Scalar) {
        guard !scalar.isFloatingPoint else { return nil }
        self = bits != 0
    }

    init(number: NSNumber?) { self = number?.boolValue ?? false }

    @inline(__always)
    func bits(for scalar: StoragePlan.Scalar) -> UInt64? {
        scalar.isFloatingPoint ? nil : (self ? 1 : 0)
    }

    var number: NSNumber { NSNumber(value: self) }
}

extension Double: SlotScalar {
    @inline(__always)
    init?(bits: UInt64, scalar: StoragePlan.Scalar) {
        guard scalar == .double || scalar == .float else { return nil }
        self = Double(bitPattern: bits)
    }

    init(number: NSNumber?) { self = number?.doubleValue ?? 0 }

    @inline(__always)
    func bits(for scalar: StoragePlan.Scalar) -> UInt64? {
        scalar == .double ? bitPattern : nil
    }

    var number: NSNumber { NSNumber(value: self) }
}

extension Float: SlotScalar {
    @inline(__always)
    init?(bits: UInt64, scalar: StoragePlan.Scalar) {
        guard scalar == .double || scalar == .float else { return nil }
        self = Float(Double(bitPattern: bits))
    }

    init(number: NSNumber?) { self = number?.floatValue ?? 0 }

    @inline(__always)
    func bits(for scalar: StoragePlan.Scalar) -> UInt64? {
        scalar == .float ? Double(self).bitPattern : nil
    }

    var number: NSNumber { NSNumber(value: self) }
}
