/// A section of a fetched results controller's results.
public protocol NSFetchedResultsSectionInfo {
    /// The section's name: the value of the controller's `sectionNameKeyPath` shared by the
    /// section's objects (the empty string for the single section of a controller without one).
    var name: String { get }
    /// The section's title in the section index.
    var indexTitle: String? { get }
    /// The number of objects in the section.
    var numberOfObjects: Int { get }
    /// The section's objects, in order.
    var objects: [Any]? { get }
}
