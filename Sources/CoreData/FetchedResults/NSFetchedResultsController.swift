import Foundation

/// Manages the results of a fetch request for a list: its objects in sections, their index paths,
/// and, while it has a delegate, the changes the managed object context makes to them.
///
/// The request must have at least one sort descriptor; with a `sectionNameKeyPath`, the first
/// sort descriptor must order the objects by section. Call `performFetch()`, then read
/// `sections`, `object(at:)` and `indexPath(forObject:)`. With a delegate, the controller
/// follows the context's `NSManagedObjectContextObjectsDidChange` notifications (which the
/// context posts when it processes pending changes, saves, or merges other contexts' saves) and
/// reports each batch of changes; without one, the results stay as fetched.
///
/// Index paths have two indexes, section and row (`IndexPath(row:section:)`). The order among
/// objects with equal sort keys is the store's at the fetch; an object that changes goes after
/// the objects it ties with. `fetchLimit` and `fetchOffset` apply at `performFetch()` only: while
/// tracking, objects that start matching are added whatever the limit, as on Apple platforms.
///
/// The controller belongs to its context's queue: use it from blocks given to the context's
/// `perform(_:)` or `performAndWait(_:)` (or from the main thread for the main-queue context).
open class NSFetchedResultsController<ResultType: NSFetchRequestResult>: NSObject {
    /// The request the controller fetches; change it and call `performFetch()` again to change
    /// the results (after `deleteCache(withName:)` when the controller has a cache).
    public let fetchRequest: NSFetchRequest<ResultType>

    let engine: FetchedResultsEngine
    /// The view of this controller that delegates receive, when `ResultType` is not
    /// `NSFetchRequestResult` (then the controller is its own view).
    private var erasedView: NSFetchedResultsController<NSFetchRequestResult>?

    /// Creates a controller.
    ///
    /// - Parameters:
    ///   - fetchRequest: The request, with at least one sort descriptor.
    ///   - context: The context that fetches and whose changes are tracked.
    ///   - sectionNameKeyPath: The key path (through relationships too) whose value names each
    ///     object's section; nil for a single section.
    ///   - name: The name of the cache of the sections, or nil for none.
    public init(fetchRequest: NSFetchRequest<ResultType>, managedObjectContext context: NSManagedObjectContext, sectionNameKeyPath: String?, cacheName name: String?) {
        self.fetchRequest = fetchRequest
        engine = FetchedResultsEngine(context: context, sectionNameKeyPath: sectionNameKeyPath, cacheName: name) {
            fetchRequest.converted(to: NSManagedObject.self)
        }
        super.init()
        if let view = self as? NSFetchedResultsController<NSFetchRequestResult> {
            engine.delegateView = view
        } else {
            let view = NSFetchedResultsController<NSFetchRequestResult>(sharing: engine, request: fetchRequest.converted(to: NSFetchRequestResult.self))
            erasedView = view
            engine.delegateView = view
        }
        engine.defaultIndexTitle = { [unowned self] in sectionIndexTitle(forSectionName: $0) }
    }

    /// A view of another controller's engine, for its delegate.
    private init(sharing engine: FetchedResultsEngine, request: NSFetchRequest<ResultType>) {
        self.fetchRequest = request
        self.engine = engine
        super.init()
    }

    /// The context the controller fetches in and follows.
    public var managedObjectContext: NSManagedObjectContext { engine.context }

    /// The key path that names each object's section, or nil for a single section.
    public var sectionNameKeyPath: String? { engine.sectionNameKeyPath }

    /// The name of the controller's cache, or nil.
    public var cacheName: String? { engine.cacheName }

    /// The object told of changes to the results. The controller tracks changes only while it has
    /// a delegate.
    public weak var delegate: (any NSFetchedResultsControllerDelegate)? {
        get { engine.delegate }
        set { engine.delegate = newValue }
    }

    /// Fetches the request's results and computes their sections.
    ///
    /// - Throws: an error when the request has no sort descriptor (Apple's controller raises at
    ///   init), 134060 when the section key path does not follow the sort (a section name comes
    ///   back after another), or the fetch's error.
    open func performFetch() throws {
        try engine.performFetch()
    }

    /// The fetched objects in order, or nil before `performFetch()`.
    public var fetchedObjects: [ResultType]? {
        engine.content?.objects.compactMap { $0 as? ResultType }
    }

    /// The sections, or nil before `performFetch()`. A controller without a section key path has
    /// exactly one section, even when it has no objects.
    public var sections: [any NSFetchedResultsSectionInfo]? {
        engine.content?.sections
    }

    /// The object at an index path.
    ///
    /// - Precondition: The index path names an object of the results (Apple's controller raises
    ///   otherwise).
    public func object(at indexPath: IndexPath) -> ResultType {
        guard let sections = engine.content?.sections, sections.indices.contains(indexPath.section),
              sections[indexPath.section].entries.indices.contains(indexPath.row),
              let object = sections[indexPath.section].object(at: indexPath.row) as? ResultType else {
            preconditionFailure("no object at index \(indexPath.row) in section at index \(indexPath.section)")
        }
        return object
    }

    /// The index path of an object, or nil when it is not in the results.
    public func indexPath(forObject object: ResultType) -> IndexPath? {
        guard let object = object as? NSManagedObject else { return nil }
        return engine.content?.indexPath(of: object)
    }

    // MARK: Section index

    /// The index title of a section: by default the first letter of its name, capitalized.
    /// Subclasses may override it; a delegate's `controller(_:sectionIndexTitleForSectionName:)`
    /// takes precedence.
    open func sectionIndexTitle(forSectionName sectionName: String) -> String? {
        sectionName.first.map { String($0).uppercased() }
    }

    /// The titles of the section index: each section's index title, once, in section order.
    open var sectionIndexTitles: [String] {
        var seen = Set<String>()
        return (engine.content?.sections ?? []).compactMap(\.indexTitle).filter { seen.insert($0).inserted }
    }

    /// The section of a title of the section index: the first section with that index title
    /// (the position in the index is not the section number, as titles appear once), or 0 for a
    /// title no section has.
    open func section(forSectionIndexTitle title: String, at sectionIndex: Int) -> Int {
        engine.content?.sections.firstIndex { $0.indexTitle == title } ?? 0
    }

    // MARK: Cache

    /// Deletes the cache with a name, or every cache when `name` is nil.
    public class func deleteCache(withName name: String?) {
        FetchedResultsCache.delete(named: name)
    }
}
