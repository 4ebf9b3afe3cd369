/// The objects of the stores that hear of registrations (`NSIncrementalStore`) that a context
/// registered and unregistered since it last told them, to tell each store in one call of each
/// kind (`managedObjectContextDidRegisterObjects(with:)` and its counterpart).
struct RegistrationReports {
    var registered: [NSManagedObjectID] = []
    var unregistered: [NSManagedObjectID] = []

    var isEmpty: Bool {
        registered.isEmpty && unregistered.isEmpty
    }

    /// The reports with each ID's registrations and unregistrations set off against each other,
    /// in their order: an object registered and released within one operation (a fault that an
    /// incremental store made for a fetch and the fetch dropped for the object of its row) is
    /// not reported, and an ID is reported at most as often as it changed.
    func balanced() -> RegistrationReports {
        var net: [NSManagedObjectID: Int] = [:]
        for objectID in registered { net[objectID, default: 0] += 1 }
        for objectID in unregistered { net[objectID, default: 0] -= 1 }
        var balanced = RegistrationReports()
        for objectID in registered where net[objectID, default: 0] > 0 {
            balanced.registered.append(objectID)
            net[objectID, default: 0] -= 1
        }
        for objectID in unregistered where net[objectID, default: 0] < 0 {
            balanced.unregistered.append(objectID)
            net[objectID, default: 0] += 1
        }
        return balanced
    }
}
