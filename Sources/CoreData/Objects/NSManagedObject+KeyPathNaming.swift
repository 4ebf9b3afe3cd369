// Swift key paths into managed object subclasses name their properties from the class's own
// table (generated classes have one) or else by probing the subclass's accessors (see
// `KeyPathProbe`).
extension NSManagedObject: KeyPathNaming {
    static func keyValueCodingKeyPath<Root, Value>(of keyPath: KeyPath<Root, Value>) -> String? {
        if let rootClass = Root.self as? NSManagedObject.Type, let name = KeyPathTables.shared.table(of: rootClass)[keyPath] {
            return name
        }
        return KeyPathProbe.keyPath(of: keyPath)
    }
}
