/// Archives values as keyed archives with Linux's `NSKeyedArchiver`, screened by an
/// `ArchivingGate` so that a value the archiver cannot handle makes it throw instead of trap.
enum KeyedArchiveEncoder {
    /// The keyed archive (binary property list) of `value`, as
    /// `NSKeyedArchiver.archivedData(withRootObject:requiringSecureCoding:)` writes it.
    ///
    /// - Parameters:
    ///   - requiringSecureCoding: Whether every archived object must support secure coding.
    ///   - allowedRootClasses: If given, the classes the root object must be an instance of (or
    ///     of a subclass of).
    /// - Throws: `NSCoderInvalidValueError` (4866) naming the first object that cannot be
    ///   archived: one that is not an object, does not support (secure) coding, is a Foundation
    ///   class Core Data cannot read back on Linux, or is a collection that contains itself.
    static func archivedData(
        withRootObject value: Any, requiringSecureCoding: Bool, allowedRootClasses: [AnyClass]?
    ) throws -> Data {
        let gate = ArchivingGate(requiresSecureCoding: requiringSecureCoding)
        if let problem = gate.problem(withRoot: value, allowedClasses: allowedRootClasses) {
            throw CoreDataError.unarchivableValue(problem)
        }
        let archiver = NSKeyedArchiver(requiringSecureCoding: requiringSecureCoding)
        archiver.delegate = gate
        archiver.encode(value, forKey: NSKeyedArchiveRootObjectKey)
        archiver.finishEncoding()
        if let problem = gate.firstProblem {
            throw CoreDataError.unarchivableValue(problem)
        }
        return archiver.encodedData
    }
}
