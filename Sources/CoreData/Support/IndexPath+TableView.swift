// UIKit's and AppKit's IndexPath additions for table and collection views, which
// NSFetchedResultsController's API uses. Linux Foundation declares none of them.
extension IndexPath {
    /// Creates an index path that refers to a row in a section of a table view.
    public init(row: Int, section: Int) {
        self.init(indexes: [section, row])
    }

    /// Creates an index path that refers to an item in a section of a collection view.
    public init(item: Int, section: Int) {
        self.init(indexes: [section, item])
    }

    /// The section: the first index.
    ///
    /// - Precondition: The index path has exactly two indexes, as on Apple platforms.
    public var section: Int {
        get {
            precondition(count == 2, "An index path used with sections must contain exactly two indexes")
            return self[0]
        }
        set {
            precondition(count == 2, "An index path used with sections must contain exactly two indexes")
            self[0] = newValue
        }
    }

    /// The row within the section: the second index.
    ///
    /// - Precondition: The index path has exactly two indexes, as on Apple platforms.
    public var row: Int {
        get {
            precondition(count == 2, "An index path used with rows must contain exactly two indexes")
            return self[1]
        }
        set {
            precondition(count == 2, "An index path used with rows must contain exactly two indexes")
            self[1] = newValue
        }
    }

    /// The item within the section: the second index, the same as `row`.
    ///
    /// - Precondition: The index path has exactly two indexes, as on Apple platforms.
    public var item: Int {
        get { row }
        set { row = newValue }
    }
}
