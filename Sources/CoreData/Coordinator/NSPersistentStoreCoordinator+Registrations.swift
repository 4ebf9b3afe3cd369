// Telling stores which of their objects contexts register and unregister, for the stores that
// hear of it (`NSIncrementalStore`'s `managedObjectContextDidRegisterObjects(with:)` and its
// counterpart).
extension NSPersistentStoreCoordinator {
    /// Tells each store which of its objects a context registered and unregistered, from the
    /// reports `take` gives. While a store answers a request on this thread (its subclass making
    /// objects in `execute(_:with:)`), `take` is not called: the reports wait for the context's
    /// next operation, so that a store hears of a fetch's objects once, after the fetch.
    func reportRegistrations(_ take: () -> RegistrationReports?) {
        storeLock.withLock {
            guard requestingContext == nil, let reports = take()?.balanced() else { return }
            for store in persistentStores {
                guard let engine = store as? PersistentStoreEngine else { continue }
                let registered = reports.registered.filter { $0.storeNumber == store.storeNumber }
                let unregistered = reports.unregistered.filter { $0.storeNumber == store.storeNumber }
                guard !registered.isEmpty || !unregistered.isEmpty else { continue }
                engine.contextDidChangeRegistrations(registered: registered, unregistered: unregistered)
            }
        }
    }
}
