/// The value transformers that store values as keyed archives: their forward transformation
/// unarchives `Data` and their reverse transformation archives a value, as Apple's
/// `NSSecureUnarchiveFromDataTransformer` does.
///
/// The public transformations return `nil` on failure, as Apple's do. Core Data calls these
/// throwing variants instead, to report why a stored value cannot be read or written.
protocol ArchivingTransformer: ValueTransformer {
    /// The value archived in `data` (`nil` if the archive holds `nil`).
    ///
    /// - Throws: `NSCoderReadCorruptError` (4864) if `data` is not a keyed archive, is
    ///   malformed, or holds a class the transformer does not admit.
    func unarchivedValue(from data: Data) throws -> Any?

    /// The keyed archive of `value`.
    ///
    /// - Throws: `NSCoderInvalidValueError` (4866) if `value`, or an object inside it, cannot
    ///   be archived by this transformer.
    func archivedData(from value: Any) throws -> Data
}
