@testable import CoreData
import CoreDataPostgreSQL
import Testing

/// A relational store's fetch (SQLite, and PostgreSQL when there is a server) orders objects
/// exactly as sorting them in memory does, for every comparison selector, both directions, and
/// keys through a to-one relationship: SQLite orders strings by collations that run the in-memory
/// comparison, and by byte order for `compare:`, which sorting in memory uses too; PostgreSQL
/// orders by byte order in SQL and sorts by the other comparison methods in memory.
/// Descriptors SQL cannot order by throw.
@Suite struct SQLiteSortAgreementTests {
    /// Strings whose orders differ between comparisons and from byte order: case, accents
    /// (precomposed and decomposed), numbers inside names, full-width letters, characters at
    /// the top of the Unicode range, an embedded NUL, the empty string and nil.
    static let allNames: [String?] = [
        "file10", "file2", "File2", "file02", "file1", "ｆｉｌｅ3",
        "Éclair", "eclair", "Eclair", "\u{e9}clair", "e\u{301}clair", "e\u{301}x", "\u{e9}a",
        "zebra", "Zebra", "a", "B", "b", "ä", "A",
        "Ab\u{10FFFF}z", "Ab\u{FFFD}z", nulName, "Nul", "10", "9", "", nil,
    ]
    static let nulName = "Nul\u{0}Byte"

    /// The names a store of the type holds: PostgreSQL's text cannot hold NUL (README, PostgreSQL).
    static func names(for storeType: String) -> [String?] {
        storeType == NSPostgreSQLStoreType ? allNames.filter { $0 != nulName } : allNames
    }

    static let selectors: [Selector] = [
        "compare:", "caseInsensitiveCompare:", "localizedCompare:", "localizedCaseInsensitiveCompare:", "localizedStandardCompare:",
    ]

    /// `Item` (name, rank, owner) → to-one `Owner` (label); rank is unique and breaks ties.
    static func model() -> NSManagedObjectModel {
        let item = ModelFixtureKit.entity("Item")
        let owner = ModelFixtureKit.entity("Owner")
        let toOwner = ModelFixtureKit.relationship("owner", to: owner, maxCount: 1)
        let items = ModelFixtureKit.relationship("items", to: item, maxCount: 0)
        ModelFixtureKit.inverse(toOwner, items)
        item.properties = [ModelFixtureKit.attribute("name", .stringAttributeType), ModelFixtureKit.attribute("rank", .integer64AttributeType), toOwner]
        owner.properties = [ModelFixtureKit.attribute("label", .stringAttributeType), items]
        return ModelFixtureKit.model([item, owner])
    }

    /// A store holding one item per name (those of its own type unless given); item `i` belongs
    /// to an owner labelled with the name seven places on, except every fifth item, which has no owner.
    static func stack(_ storeType: String, holding names: [String?]? = nil) throws -> CtxStack {
        let names = names ?? Self.names(for: storeType)
        let stack = try CtxStack(model: model(), storeType: storeType)
        try stack.context.performAndWait { () throws in
            for (rank, name) in names.enumerated() {
                let item = ctxInsert("Item", into: stack.context, ["rank": rank])
                if let name { item.setValue(name, forKey: "name") }
                guard rank % 5 != 4 else { continue }
                let owner = ctxInsert("Owner", into: stack.context)
                if let label = names[(rank + 7) % names.count] { owner.setValue(label, forKey: "label") }
                item.setValue(owner, forKey: "owner")
            }
            try stack.context.save()
        }
        return storeType == NSInMemoryStoreType ? stack : try stack.reopened()
    }

    /// The ranks of the items a fetch returns, in its order.
    static func ranks(_ stack: CtxStack, sortedBy descriptors: [NSSortDescriptor]) throws -> [Int] {
        try stack.context.performAndWait { () throws in
            let request = NSFetchRequest<NSManagedObject>(entityName: "Item")
            request.sortDescriptors = descriptors
            // No unsaved changes: the order is the store's own.
            request.includesPendingChanges = false
            return try stack.context.fetch(request).map(rank)
        }
    }

    static func rank(_ item: NSManagedObject) -> Int {
        (item.value(forKey: "rank") as? NSNumber)?.intValue ?? -1
    }

    static func fetchError(_ stack: CtxStack, sortedBy descriptors: [NSSortDescriptor]) -> NSError? {
        ctxError { _ = try ranks(stack, sortedBy: descriptors) }
    }

    // MARK: Agreement

    @Test(arguments: selectors, MigrationScenario.relationalStoreTypes)
    func theStoreOrdersAsMemoryDoes(selector: Selector, storeType: String) throws {
        let names = Self.names(for: storeType)
        let relational = try Self.stack(storeType)
        let memory = try Self.stack(NSInMemoryStoreType, holding: names)
        for (key, ascending) in [("name", true), ("name", false), ("owner.label", true), ("owner.label", false)] {
            let descriptors = [NSSortDescriptor(key: key, ascending: ascending, selector: selector), NSSortDescriptor(key: "rank", ascending: true)]
            let fetched = try Self.ranks(relational, sortedBy: descriptors)
            let sortedInMemory = try relational.context.performAndWait { () throws in
                let items = try ctxFetch("Item", in: relational.context)
                return try SortOrdering.sorted(items, by: descriptors).map(Self.rank)
            }
            let pairwise = try relational.context.performAndWait { () throws in
                try ctxFetch("Item", in: relational.context).sorted { lhs, rhs in
                    for descriptor in descriptors {
                        let order = descriptor.compare(lhs, to: rhs)
                        if order != .orderedSame { return order == .orderedAscending }
                    }
                    return false
                }.map(Self.rank)
            }
            let label = "\(selector) \(key) \(ascending ? "ascending" : "descending")"
            #expect(fetched.count == names.count)
            #expect(fetched == sortedInMemory, "\(label)")
            #expect(fetched == pairwise, "\(label)")
            #expect(try Self.ranks(memory, sortedBy: descriptors) == fetched, "the in-memory store agrees: \(label)")
        }
    }

    @Test(arguments: MigrationScenario.relationalStoreTypes)
    func comparisonsOrderAsFoundationDoes(storeType: String) throws {
        let stack = try Self.stack(storeType)
        let stored = Self.names(for: storeType)
        func names(_ selector: Selector) throws -> [String?] {
            let descriptors = [NSSortDescriptor(key: "name", ascending: true, selector: selector), NSSortDescriptor(key: "rank", ascending: true)]
            return try Self.ranks(stack, sortedBy: descriptors).map { stored[$0] }
        }
        let standard = try names("localizedStandardCompare:")
        #expect(standard.first == .some(nil), "nil sorts first")
        #expect(standard.dropFirst().first == "", "then the empty string")
        let files = standard.compactMap { $0 }.filter { $0.lowercased().hasPrefix("file") }
        #expect(files.firstIndex(of: "file2")! < files.firstIndex(of: "file10")!, "numbers inside names by value")
        let caseInsensitive = try names("caseInsensitiveCompare:")
        #expect(caseInsensitive.firstIndex(of: "B")! < caseInsensitive.firstIndex(of: "zebra")!)
        let binary = try names("compare:")
        #expect(binary.firstIndex(of: "B")! < binary.firstIndex(of: "a")!, "compare: is case-sensitive")
        #expect(binary.firstIndex(of: "e\u{301}x")! < binary.firstIndex(of: "\u{e9}a")!, "compare: is byte order, as in Apple's store")
    }

    // MARK: Refused descriptors

    @Test(arguments: MigrationScenario.relationalStoreTypes)
    func comparatorDescriptorsCannotSortASQLiteFetch(storeType: String) throws {
        let stack = try Self.stack(storeType)
        let descriptor = NSSortDescriptor(key: "name", ascending: true) { lhs, rhs in
            ((lhs as? String) ?? "").count < ((rhs as? String) ?? "").count ? .orderedAscending : .orderedSame
        }
        let error = try #require(Self.fetchError(stack, sortedBy: [descriptor]))
        #expect(error.domain == NSCocoaErrorDomain)
        #expect(error.code == NSCoreDataError)
        #expect(error.explanation.contains("comparator"))
    }

    @Test func comparatorDescriptorsSortTheInMemoryStore() throws {
        let stack = try Self.stack(NSInMemoryStoreType)
        let byLength = NSSortDescriptor(key: "name", ascending: false) { lhs, rhs in
            let lhs = (lhs as? String)?.count ?? 0
            let rhs = (rhs as? String)?.count ?? 0
            return lhs < rhs ? .orderedAscending : lhs > rhs ? .orderedDescending : .orderedSame
        }
        let ranks = try Self.ranks(stack, sortedBy: [byLength, NSSortDescriptor(key: "rank", ascending: true)])
        let lengths = ranks.map { Self.allNames[$0]?.count ?? -1 }
        #expect(lengths == lengths.sorted(by: >), "longest first, nil last")
        #expect(lengths.last == -1)
    }

    @Test(arguments: MigrationScenario.relationalStoreTypes + [NSInMemoryStoreType])
    func unknownSelectorsMakeFetchesThrow(storeType: String) throws {
        let stack = try Self.stack(storeType)
        let descriptor = NSSortDescriptor(key: "name", ascending: true, selector: Selector("compareBackwards:"))
        let error = try #require(Self.fetchError(stack, sortedBy: [descriptor]))
        #expect(error.domain == NSCocoaErrorDomain)
        #expect(error.explanation.contains("compareBackwards:"))
    }

    @Test(arguments: MigrationScenario.relationalStoreTypes)
    func sortingByAStringAttributeThroughAToOneRelationshipJoins(storeType: String) throws {
        let stack = try Self.stack(storeType)
        let names = Self.names(for: storeType)
        let ranks = try Self.ranks(stack, sortedBy: [NSSortDescriptor(key: "owner.label", ascending: true), NSSortDescriptor(key: "rank", ascending: true)])
        // Items without an owner (every fifth) and owners without a label read as nil: first.
        let ownerless = names.indices.filter { $0 % 5 == 4 || names[($0 + 7) % names.count] == nil }
        #expect(Array(ranks.prefix(ownerless.count)) == ownerless)
    }
}
