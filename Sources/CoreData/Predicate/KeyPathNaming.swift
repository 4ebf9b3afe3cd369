/// Types that can tell which key-value coding key path a Swift key path into them reads, so that
/// a sort descriptor made from a Swift key path has a string key, which SQL fetches need.
///
/// `NSManagedObject` conforms; the Objects layer implements it, as this layer cannot see objects.
protocol KeyPathNaming {
    /// The dotted key path `keyPath` reads, or nil when it cannot be told.
    static func keyValueCodingKeyPath<Root, Value>(of keyPath: KeyPath<Root, Value>) -> String?
}
