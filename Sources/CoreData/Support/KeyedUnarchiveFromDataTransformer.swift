/// The transformer registered as `.keyedUnarchiveFromDataTransformerName`: like
/// `NSSecureUnarchiveFromDataTransformer` but without secure coding, so any class that adopts
/// `NSCoding` may be archived and unarchived (within the limits of `ArchiveClassPolicy`).
/// Apple deprecated it because an archive can then instantiate any class; Core Data still uses
/// it, as Apple's does, for transformable attributes that name no transformer.
final class KeyedUnarchiveFromDataTransformer: ValueTransformer, ArchivingTransformer {
    /// Unarchives `value`, which must be `Data`; returns `nil` if it is not a keyed archive.
    override func transformedValue(_ value: Any?) -> Any? {
        guard let data = value as? Data else { return nil }
        return try? unarchivedValue(from: data)
    }

    /// Archives `value`; returns `nil` if it is `nil` or cannot be archived.
    override func reverseTransformedValue(_ value: Any?) -> Any? {
        guard let value else { return nil }
        return try? archivedData(from: value)
    }

    func unarchivedValue(from data: Data) throws -> Any? {
        try KeyedArchiveDecoder.decodeRootObject(from: data, allowedClasses: nil)
    }

    func archivedData(from value: Any) throws -> Data {
        try KeyedArchiveEncoder.archivedData(withRootObject: value, requiringSecureCoding: false, allowedRootClasses: nil)
    }
}
