extension Set {
    /// A set of a collection's elements in a table with twice the room they need.
    ///
    /// Inserting compares the element with every taken bucket it probes, and for managed objects
    /// and object IDs each comparison is a dynamically dispatched `isEqual(_:)`; a sparser table
    /// has fewer taken buckets in the way. For the large, short-lived sets of save notifications.
    init<Elements: Collection<Element>>(sparselyHolding elements: Elements) {
        self.init(minimumCapacity: elements.count * 2)
        for element in elements { insert(element) }
    }
}
