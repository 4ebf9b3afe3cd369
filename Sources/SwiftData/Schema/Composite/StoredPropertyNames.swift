@_spi(Reflection) import Swift

/// The stored properties of structures, by the key paths that read them: what a predicate's key
/// path into a composite attribute's structure names.
enum StoredPropertyNames {
    /// The name of the stored property that a key path of a structure reads directly, if any.
    static func name(of keyPath: AnyKeyPath, in type: Any.Type) -> String? {
        guard let offset = offset(of: keyPath, in: type) else { return nil }
        var found: String?
        _ = _forEachField(of: type) { name, fieldOffset, _, _ in
            guard fieldOffset == offset else { return true }
            found = String(cString: name)
            return false
        }
        return found
    }

    private static func offset(of keyPath: AnyKeyPath, in type: Any.Type) -> Int? {
        func offset<Root>(in root: Root.Type) -> Int? {
            (keyPath as? PartialKeyPath<Root>).flatMap { MemoryLayout<Root>.offset(of: $0) }
        }
        return offset(in: type)
    }
}
