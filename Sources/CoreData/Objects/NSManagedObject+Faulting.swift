// Faulting: an object's values load from its snapshot, or from the store, on first access.
extension NSManagedObject {
    /// Loads the object's values when it is a fault; `slot` is the property whose access fired
    /// it, when known, which the context hands on if the object's row is gone.
    @inline(__always)
    func fireFault(triggeredBy slot: Int? = nil) {
        if flags.contains(.fault) { fulfillFault(triggeredBy: slot) }
    }

    private func fulfillFault(triggeredBy slot: Int?) {
        CoreDataMetrics.faultsFired.increment()
        guard let unretainedContext = contextLink?.unretainedContext else {
            materializeEmpty()
            return
        }
        // The staleness check runs no code of the app, so the context outlives it unretained
        // (retaining the context takes the runtime's slow path: it has weak references).
        if let snapshot, !unretainedContext._withUnsafeGuaranteedRef({ $0.isStale(snapshot) }) {
            materialize(from: snapshot)
            return
        }
        let context = unretainedContext.takeUnretainedValue()
        switch context.loadFault(self) {
        case .row(let snapshot): materialize(from: snapshot)
        case .missing: context.handleInaccessibleFault(self, triggeredBy: slot.map { layout.slots[$0].property })
        case .failed(let error):
            ReadErrorLog.shared.report(error, reading: "the values of \(objectID)")
            materializeEmpty()
        }
    }

    /// Makes a fault hold a row's values, sharing the row's storage until a value changes or a
    /// to-one is first read:
    /// to-one destinations stay object IDs until they are read (see `toOneDestination(atSlot:)`)
    /// and to-many relationships stay unloaded until they are accessed.
    func materialize(from snapshot: RowSnapshot) {
        self.snapshot = snapshot
        values = snapshot.values
        flags.remove(.fault)
        faultBatch = nil
        awakeFromFetch()
    }

    /// Gives an object whose row is gone nil values everywhere, as Apple does for inaccessible faults.
    func materializeEmpty() {
        values = SlotValues(plan: layout.storagePlan)
        flags.remove(.fault)
    }

    /// Turns the object back into a fault, discarding its values (and, unless they are kept by the
    /// caller, its changes).
    func turnIntoFault(keeping snapshot: RowSnapshot?) {
        guard !flags.contains(.fault) else { return }
        willTurnIntoFault()
        values = SlotValues()
        self.snapshot = snapshot
        fetchedPropertyValues = [:]
        changedSlots.removeAll()
        invalidSlots.removeAll()
        flags.remove(.updated)
        flags.insert(.fault)
        didTurnIntoFault()
    }
}
