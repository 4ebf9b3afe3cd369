import Foundation
import Synchronization

/// The state and behaviour of a fetched results controller, shared by the typed controller the
/// program made and the `NSFetchedResultsController<NSFetchRequestResult>` view its delegate
/// receives.
// Confined to the context's queue, as the controller is.
final class FetchedResultsEngine: @unchecked Sendable {
    /// Delegate methods whose implementation decides what the controller calls.
    enum DelegateMethod: Hashable {
        case sectionIndexTitle, snapshot, difference
    }

    let context: NSManagedObjectContext
    let sectionNameKeyPath: String?
    let cacheName: String?
    /// The request the program gave, as a request for managed objects, copied at each fetch so
    /// that changes the program makes to it take effect at the next `performFetch()`.
    let currentRequest: () -> NSFetchRequest<NSManagedObject>
    /// What decides, while tracking, whether an object belongs in the results.
    private(set) var membership: FetchedResultsMembership?
    /// The objects of other entities the sort and section key paths read.
    private(set) var dependencies = FetchedResultsDependencies(keyPaths: [], entity: nil)

    var content: FetchedResultsContent?
    weak var delegate: (any NSFetchedResultsControllerDelegate)? {
        didSet { observeContextIfNeeded() }
    }
    /// The controller the delegate receives.
    weak var delegateView: NSFetchedResultsController<NSFetchRequestResult>?
    /// The section index title of the typed controller (which subclasses may override).
    var defaultIndexTitle: (String) -> String? = { _ in nil }
    private var observer: (any NSObjectProtocol)?
    /// What each delegate class was found to implement, or not.
    private static let knownMethods = Mutex<[ObjectIdentifier: [DelegateMethod: Bool]]>([:])
    /// Set by the protocol's default implementations while one runs.
    private var lackedMethod: DelegateMethod?

    init(context: NSManagedObjectContext, sectionNameKeyPath: String?, cacheName: String?, currentRequest: @escaping () -> NSFetchRequest<NSManagedObject>) {
        self.context = context
        self.sectionNameKeyPath = sectionNameKeyPath
        self.cacheName = cacheName
        self.currentRequest = currentRequest
    }

    deinit {
        if let observer { NotificationCenter.default.removeObserver(observer) }
    }

    // MARK: Fetching

    func performFetch() throws {
        let request = currentRequest()
        guard let descriptors = request.sortDescriptors, !descriptors.isEmpty else {
            let reason = "An instance of NSFetchedResultsController requires a fetch request with sort descriptors"
            throw CoreDataError.make(NSCoreDataError, reason, userInfo: ["reason": reason])
        }
        let order = try FetchedResultsOrder(descriptors: descriptors, sectionNameKeyPath: sectionNameKeyPath)
        // Nil when the model lacks the entity, which the fetch reports.
        let entity = request.entity ?? request.entityName.flatMap { context.managedObjectModel?.entitiesByName[$0] }
        let dependencies = FetchedResultsDependencies(keyPaths: descriptors.compactMap(\.key) + [sectionNameKeyPath].compactMap { $0 }, entity: entity)
        content = try fetchContent(of: request, entity: entity, order: order, dependencies: dependencies)
        membership = FetchedResultsMembership(request: request, entity: entity)
        self.dependencies = dependencies
        observeContextIfNeeded()
        deliverSnapshotAfterFetch()
    }

    // MARK: Section index titles

    func indexTitle(forSectionName name: String) -> String? {
        var title: String?
        if let delegate, let view = delegateView,
           call(.sectionIndexTitle, on: delegate, { title = delegate.controller(view, sectionIndexTitleForSectionName: name) }) {
            return title
        }
        return defaultIndexTitle(name)
    }

    // MARK: Delegate methods

    /// Records that the delegate runs the protocol's default implementation of a method.
    func delegateLacks(_ method: DelegateMethod) {
        lackedMethod = method
    }

    /// Whether the delegate's class is known to implement a method (true), known not to (false),
    /// or not called with it yet (nil).
    func implements(_ method: DelegateMethod, _ delegate: any NSFetchedResultsControllerDelegate) -> Bool? {
        Self.knownMethods.withLock { $0[ObjectIdentifier(type(of: delegate))]?[method] }
    }

    func lacks(_ method: DelegateMethod, _ delegate: any NSFetchedResultsControllerDelegate) -> Bool {
        implements(method, delegate) == false
    }

    /// Calls a delegate method that the protocol implements by default, unless the delegate is
    /// known not to implement it; returns whether the delegate implements it (and so received
    /// the call), which is remembered for its class.
    func call(_ method: DelegateMethod, on delegate: any NSFetchedResultsControllerDelegate, _ body: () -> Void) -> Bool {
        guard !lacks(method, delegate) else { return false }
        lackedMethod = nil
        body()
        let implemented = lackedMethod != method
        lackedMethod = nil
        Self.knownMethods.withLock { $0[ObjectIdentifier(type(of: delegate)), default: [:]][method] = implemented }
        return implemented
    }

    // MARK: Observing the context

    /// Observes the context's changes while there are results and a delegate.
    func observeContextIfNeeded() {
        let wanted = delegate != nil && content != nil
        if wanted == (observer != nil) { return }
        if let observer {
            NotificationCenter.default.removeObserver(observer)
            self.observer = nil
            return
        }
        // Posted on the context's queue, where the controller is used.
        observer = NotificationCenter.default.addObserver(forName: .NSManagedObjectContextObjectsDidChange, object: context, queue: nil) { [weak self] notification in
            self?.contextDidChange(notification)
        }
    }
}
