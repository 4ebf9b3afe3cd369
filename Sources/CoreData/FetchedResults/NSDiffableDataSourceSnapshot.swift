import Foundation

/// The content of a sectioned list at one moment: section identifiers in order, each with its item
/// identifiers in order, and the items marked for reloading. Linux has no UIKit; this value
/// carries the queries of UIKit's snapshot so that a fetched results controller's delegate can
/// read the whole content it is given.
public struct NSDiffableDataSourceSnapshot<SectionIdentifierType: Hashable, ItemIdentifierType: Hashable> {
    private var sections: [(identifier: SectionIdentifierType, items: [ItemIdentifierType])] = []
    /// The items marked for reloading (changed without moving).
    public private(set) var reloadedItemIdentifiers: [ItemIdentifierType] = []

    /// An empty snapshot.
    public init() {}

    /// The number of items in all sections.
    public var numberOfItems: Int { sections.reduce(0) { $0 + $1.items.count } }

    /// The number of sections.
    public var numberOfSections: Int { sections.count }

    /// The section identifiers, in order.
    public var sectionIdentifiers: [SectionIdentifierType] { sections.map(\.identifier) }

    /// The item identifiers of all sections, in order.
    public var itemIdentifiers: [ItemIdentifierType] { sections.flatMap(\.items) }

    /// The number of items in a section; 0 for a section the snapshot does not have.
    public func numberOfItems(inSection identifier: SectionIdentifierType) -> Int {
        itemIdentifiers(inSection: identifier).count
    }

    /// The item identifiers of a section, in order; empty for a section the snapshot does not have.
    public func itemIdentifiers(inSection identifier: SectionIdentifierType) -> [ItemIdentifierType] {
        sections.first { $0.identifier == identifier }?.items ?? []
    }

    /// The section that holds an item.
    public func sectionIdentifier(containingItem identifier: ItemIdentifierType) -> SectionIdentifierType? {
        sections.first { $0.items.contains(identifier) }?.identifier
    }

    /// The position of an item among the items of all sections.
    public func indexOfItem(_ identifier: ItemIdentifierType) -> Int? {
        itemIdentifiers.firstIndex(of: identifier)
    }

    /// The position of a section.
    public func indexOfSection(_ identifier: SectionIdentifierType) -> Int? {
        sections.firstIndex { $0.identifier == identifier }
    }

    /// Adds sections at the end.
    public mutating func appendSections(_ identifiers: [SectionIdentifierType]) {
        sections += identifiers.map { ($0, []) }
    }

    /// Adds items at the end of a section (the last section when nil).
    public mutating func appendItems(_ identifiers: [ItemIdentifierType], toSection section: SectionIdentifierType? = nil) {
        let index = section.flatMap(indexOfSection) ?? sections.count - 1
        guard sections.indices.contains(index) else { return }
        sections[index].items += identifiers
    }

    /// Marks items for reloading.
    public mutating func reloadItems(_ identifiers: [ItemIdentifierType]) {
        reloadedItemIdentifiers += identifiers
    }
}

/// The snapshot a fetched results controller hands its delegate: section names and the object
/// IDs of each section (Apple's `NSDiffableDataSourceSnapshotReference`). Read it, or turn it into
/// the value type with `NSDiffableDataSourceSnapshot(_:)`.
public final class NSDiffableDataSourceSnapshotReference: @unchecked Sendable {
    // Immutable once made.
    let snapshot: NSDiffableDataSourceSnapshot<String, NSManagedObjectID>

    init(_ snapshot: NSDiffableDataSourceSnapshot<String, NSManagedObjectID>) {
        self.snapshot = snapshot
    }

    public var numberOfItems: Int { snapshot.numberOfItems }
    public var numberOfSections: Int { snapshot.numberOfSections }
    public var sectionIdentifiers: [String] { snapshot.sectionIdentifiers }
    public var itemIdentifiers: [NSManagedObjectID] { snapshot.itemIdentifiers }
    public var reloadedItemIdentifiers: [NSManagedObjectID] { snapshot.reloadedItemIdentifiers }

    public func numberOfItemsInSection(withIdentifier identifier: String) -> Int {
        snapshot.numberOfItems(inSection: identifier)
    }

    public func itemIdentifiersInSection(withIdentifier identifier: String) -> [NSManagedObjectID] {
        snapshot.itemIdentifiers(inSection: identifier)
    }

    public func sectionIdentifierForSection(containingItemIdentifier identifier: NSManagedObjectID) -> String? {
        snapshot.sectionIdentifier(containingItem: identifier)
    }

    public func index(ofItemIdentifier identifier: NSManagedObjectID) -> Int {
        snapshot.indexOfItem(identifier) ?? NSNotFound
    }

    public func index(ofSectionIdentifier identifier: String) -> Int {
        snapshot.indexOfSection(identifier) ?? NSNotFound
    }
}

extension NSDiffableDataSourceSnapshot where SectionIdentifierType == String, ItemIdentifierType == NSManagedObjectID {
    /// The value of a controller's snapshot reference (on Apple platforms, a bridging cast).
    public init(_ reference: NSDiffableDataSourceSnapshotReference) {
        self = reference.snapshot
    }
}
