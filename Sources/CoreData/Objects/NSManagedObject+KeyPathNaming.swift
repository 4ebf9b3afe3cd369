// Swift key paths into managed object subclasses name their properties by probing the
// subclass's accessors (see `KeyPathProbe`).
extension NSManagedObject: KeyPathNaming {
    static func keyValueCodingKeyPath<Root, Value>(of keyPath: KeyPath<Root, Value>) -> String? {
        KeyPathProbe.keyPath(of: keyPath)
    }
}
