extension NSManagedObject {
    /// Accesses the value of a property by its key, as `value(forKey:)` and `setValue(_:forKey:)`
    /// do: `object["title"] = "Alien"` sets the value with change tracking, inverse relationship
    /// upkeep and undo, and `object["title"]` reads it, firing a fault.
    public subscript(key: String) -> Any? {
        get { value(forKey: key) }
        set { setValue(newValue, forKey: key) }
    }
}
