import CoreData
import Foundation
import Testing

/// Every public member of the proxies `mutableOrderedSetValue(forKey:)` and
/// `mutableSetValue(forKey:)` return, against the relationship's actual contents: reads answer
/// from the relationship, edits change it (inverses and change tracking included), and after each
/// member the members Foundation answers from its own storage (`array`, `firstObject`, iteration…)
/// still agree with the relationship.
///
/// Each row starts from a saved owner with destinations `a`, `b`, `c`, added through a proxy made
/// before the save, and two more objects `d`, `e` outside the relationship.
@Suite struct RelationshipProxyTests {
    // MARK: Fixture

    final class Fixture {
        let stack: CtxStack
        let owner: NSManagedObject
        /// `a` … `e`.
        let objects: [NSManagedObject]
        let key: String
        let inverseKey: String
        let nameKey: String
        let ordered: NSMutableOrderedSet?
        let unordered: NSMutableSet?

        init(ordered isOrdered: Bool) throws {
            stack = try CtxStack(model: CtxGraphModel.make(), storeType: NSInMemoryStoreType)
            let (ownerEntity, entity, key, nameKey) = isOrdered ? ("Playlist", "Song", "songs", "title") : ("Person", "Pet", "pets", "name")
            (self.key, self.nameKey, inverseKey) = (key, nameKey, isOrdered ? "playlist" : "owner")
            let context = stack.context
            owner = ctxInsert(ownerEntity, into: context)
            objects = ["a", "b", "c", "d", "e"].map { ctxInsert(entity, into: context, [nameKey: $0]) }
            ordered = isOrdered ? owner.mutableOrderedSetValue(forKey: key) : nil
            unordered = isOrdered ? nil : owner.mutableSetValue(forKey: key)
            let first = Array(objects.prefix(3))
            if let ordered { ordered.addObjects(from: first) } else { unordered?.addObjects(from: first) }
            try context.save()
        }

        subscript(name: String) -> NSManagedObject {
            objects.first { $0.value(forKey: nameKey) as? String == name }!
        }

        func names(_ elements: [Any]) -> [String] {
            elements.map { ($0 as? NSManagedObject)?.value(forKey: nameKey) as? String ?? "?" }
        }

        func objects(_ names: String) -> [NSManagedObject] {
            names.map { self[String($0)] }
        }

        /// The relationship's destinations as the owner reports them.
        var relationship: [NSManagedObject] {
            ctxObjects(owner.value(forKey: key))
        }

        /// The names of the relationship's destinations: in order, or sorted when it is unordered.
        var contents: String {
            let names = names(relationship)
            return (ordered == nil ? names.sorted() : names).joined()
        }

        /// Orders managed objects by name.
        var byName: (Any, Any) -> ComparisonResult {
            { [nameKey] lhs, rhs in
                let (left, right) = ((lhs as? NSManagedObject)?.value(forKey: nameKey) as? String ?? "", (rhs as? NSManagedObject)?.value(forKey: nameKey) as? String ?? "")
                return left < right ? .orderedAscending : left > right ? .orderedDescending : .orderedSame
            }
        }

        var byNameDescending: (Any, Any) -> ComparisonResult {
            { [byName] in byName($1, $0) }
        }
    }

    struct Row: Sendable, CustomTestStringConvertible {
        let member: String
        let body: @Sendable (Fixture) throws -> Void
        var testDescription: String { member }

        init(_ member: String, _ body: @escaping @Sendable (Fixture) throws -> Void) {
            self.member = member
            self.body = body
        }
    }

    /// Runs a row and checks what every row must leave true.
    private static func run(_ row: Row, ordered: Bool) throws {
        let fixture = try Fixture(ordered: ordered)
        try fixture.stack.context.performAndWait {
            try row.body(fixture)
            expectProxyAgreesWithRelationship(fixture)
            expectInversesAndChangeTracking(fixture)
        }
    }

    /// The members that read Foundation's storage, and the primitive ones, give the relationship.
    private static func expectProxyAgreesWithRelationship(_ f: Fixture) {
        let relationship = f.relationship
        let expected = f.names(relationship)
        if let proxy = f.ordered {
            #expect(proxy.count == relationship.count)
            #expect(f.names(proxy.array) == expected, "array")
            #expect(f.names(Array(proxy)) == expected, "iteration")
            #expect(f.names(proxy.objectEnumerator().allObjects) == expected, "objectEnumerator()")
            #expect(f.names(proxy.reverseObjectEnumerator().allObjects) == expected.reversed(), "reverseObjectEnumerator()")
            #expect(f.names(proxy.firstObject.map { [$0] } ?? []) == Array(expected.prefix(1)), "firstObject")
            #expect(f.names(proxy.lastObject.map { [$0] } ?? []) == Array(expected.suffix(1)), "lastObject")
            #expect(f.names(Array(proxy.set)).sorted() == expected.sorted(), "set")
            #expect(f.objects.allSatisfy { proxy.contains($0) == relationship.contains($0) }, "contains")
            #expect(relationship.enumerated().allSatisfy { proxy.index(of: $1) == $0 }, "index(of:)")
        } else if let proxy = f.unordered {
            #expect(proxy.count == relationship.count)
            #expect(f.names(Array(proxy)).sorted() == expected.sorted(), "iteration")
            #expect(f.names(proxy.allObjects).sorted() == expected.sorted(), "allObjects")
            #expect(f.objects.allSatisfy { proxy.contains($0) == relationship.contains($0) }, "contains")
        }
    }

    /// Every destination points back at the owner and no other object does; a changed
    /// relationship is a change of the owner.
    private static func expectInversesAndChangeTracking(_ f: Fixture) {
        let relationship = f.relationship
        for object in f.objects {
            let pointsBack = (object.value(forKey: f.inverseKey) as? NSManagedObject) === f.owner
            #expect(pointsBack == relationship.contains { $0 === object }, "inverse of \(f.names([object]))")
        }
        if f.contents != "abc" {
            #expect(f.owner.changedValues()[f.key] != nil, "the owner's change is tracked")
            #expect(f.stack.context.updatedObjects.contains(f.owner))
        }
    }

    // MARK: Ordered

    @Test(arguments: orderedRows)
    func theOrderedProxy(_ row: Row) throws {
        try Self.run(row, ordered: true)
    }

    static let orderedRows: [Row] = orderedReads + orderedEdits + orderedChangesMadeElsewhere

    static let orderedReads: [Row] = [
        Row("count") { #expect($0.ordered!.count == 3) },
        Row("object(at:)") { #expect($0.names([$0.ordered!.object(at: 1)]) == ["b"]) },
        Row("subscript get") { #expect($0.names([$0.ordered![2]]) == ["c"]) },
        Row("index(of:)") { f in
            #expect(f.ordered!.index(of: f["c"]) == 2)
            #expect(f.ordered!.index(of: f["d"]) == NSNotFound)
        },
        Row("contains(_:)") { f in #expect(f.ordered!.contains(f["b"]) && !f.ordered!.contains(f["d"])) },
        Row("firstObject, lastObject") { f in
            #expect(f.names([f.ordered!.firstObject as Any, f.ordered!.lastObject as Any]) == ["a", "c"])
        },
        Row("array") { #expect($0.names($0.ordered!.array) == ["a", "b", "c"]) },
        Row("set") { #expect($0.names(Array($0.ordered!.set)).sorted() == ["a", "b", "c"]) },
        Row("makeIterator()") { #expect($0.names(Array($0.ordered!)) == ["a", "b", "c"]) },
        Row("objectEnumerator()") { #expect($0.names($0.ordered!.objectEnumerator().allObjects) == ["a", "b", "c"]) },
        Row("reverseObjectEnumerator()") { #expect($0.names($0.ordered!.reverseObjectEnumerator().allObjects) == ["c", "b", "a"]) },
        Row("reversed") { #expect($0.names($0.ordered!.reversed.array) == ["c", "b", "a"]) },
        Row("objects(at:)") { #expect($0.names($0.ordered!.objects(at: [0, 2])) == ["a", "c"]) },
        Row("isEqual(to:)") { f in
            #expect(f.ordered!.isEqual(to: NSOrderedSet(array: f.objects("abc"))))
            #expect(!f.ordered!.isEqual(to: NSOrderedSet(array: f.objects("acb"))))
        },
        Row("isEqual(_:)") { f in
            #expect(f.ordered!.isEqual(NSOrderedSet(array: f.objects("abc"))))
            #expect(NSOrderedSet(array: f.objects("abc")).isEqual(f.ordered!))
        },
        Row("intersects(_:)") { f in
            #expect(f.ordered!.intersects(NSOrderedSet(array: f.objects("dc"))))
            #expect(!f.ordered!.intersects(NSOrderedSet(array: f.objects("de"))))
        },
        Row("intersectsSet(_:)") { f in
            #expect(f.ordered!.intersectsSet(Set(f.objects("dc"))))
            #expect(!f.ordered!.intersectsSet(Set(f.objects("de"))))
        },
        Row("isSubset(of: NSOrderedSet)") { f in
            #expect(f.ordered!.isSubset(of: NSOrderedSet(array: f.objects("dcba"))))
            #expect(!f.ordered!.isSubset(of: NSOrderedSet(array: f.objects("ab"))))
        },
        Row("isSubset(of: Set)") { f in
            #expect(f.ordered!.isSubset(of: Set(f.objects("dcba"))))
            #expect(!f.ordered!.isSubset(of: Set(f.objects("ab"))))
        },
        Row("enumerateObjects(_:)") { f in
            var seen: [Any] = []
            f.ordered!.enumerateObjects { object, _, _ in seen.append(object) }
            #expect(f.names(seen) == ["a", "b", "c"])
        },
        Row("enumerateObjects(options:using:)") { f in
            var seen: [Any] = []
            f.ordered!.enumerateObjects(options: []) { object, _, _ in seen.append(object) }
            #expect(f.names(seen) == ["a", "b", "c"])
        },
        Row("enumerateObjects(at:options:using:)") { f in
            var seen: [Any] = []
            f.ordered!.enumerateObjects(at: [1, 2], options: []) { object, _, _ in seen.append(object) }
            #expect(f.names(seen) == ["b", "c"])
        },
        Row("index(ofObjectPassingTest:)") { f in
            #expect(f.ordered!.index { object, _, _ in f.names([object]) == ["c"] } == 2)
        },
        Row("index(_:ofObjectPassingTest:)") { f in
            #expect(f.ordered!.index([]) { object, _, _ in f.names([object]) == ["b"] } == 1)
        },
        Row("index(ofObjectAt:options:passingTest:)") { f in
            #expect(f.ordered!.index(ofObjectAt: [1, 2], options: []) { object, _, _ in f.names([object]) != ["b"] } == 2)
        },
        Row("indexes(ofObjectsPassingTest:)") { f in
            #expect(f.ordered!.indexes { object, _, _ in f.names([object]) != ["b"] } == [0, 2])
        },
        Row("indexes(options:ofObjectsPassingTest:)") { f in
            #expect(f.ordered!.indexes(options: []) { object, _, _ in f.names([object]) != ["a"] } == [1, 2])
        },
        Row("indexes(ofObjectsAt:options:passingTest:)") { f in
            #expect(f.ordered!.indexes(ofObjectsAt: [0, 1], options: []) { _, _, _ in true } == [0, 1])
        },
        Row("index(of:inSortedRange:options:usingComparator:)") { f in
            #expect(f.ordered!.index(of: f["b"], inSortedRange: NSRange(location: 0, length: 3), options: [], usingComparator: f.byName) == 1)
        },
        Row("sortedArray(comparator:)") { #expect($0.names($0.ordered!.sortedArray(comparator: $0.byNameDescending)) == ["c", "b", "a"]) },
        Row("sortedArray(options:usingComparator:)") { #expect($0.names($0.ordered!.sortedArray(options: [.stable], usingComparator: $0.byNameDescending)) == ["c", "b", "a"]) },
        Row("sortedArray(using:)") { f in
            let descriptor = Foundation.NSSortDescriptor(keyPath: \NSManagedObject.self, ascending: false, comparator: f.byName)
            #expect(f.names(f.ordered!.sortedArray(using: [descriptor])) == ["c", "b", "a"])
        },
        Row("description") { #expect($0.ordered!.description == NSOrderedSet(array: $0.objects("abc")).description) },
        Row("description(withLocale:)") { #expect($0.ordered!.description(withLocale: nil) == NSOrderedSet(array: $0.objects("abc")).description(withLocale: nil)) },
        Row("description(withLocale:indent:)") { #expect($0.ordered!.description(withLocale: nil, indent: 1) == NSOrderedSet(array: $0.objects("abc")).description(withLocale: nil, indent: 1)) },
        Row("copy(), copy(with:)") { f in
            #expect(f.names((f.ordered!.copy() as? NSOrderedSet)?.array ?? []) == ["a", "b", "c"])
            #expect(f.names((f.ordered!.copy(with: nil) as? NSOrderedSet)?.array ?? []) == ["a", "b", "c"])
        },
        Row("mutableCopy(), mutableCopy(with:)") { f in
            let copy = try #require(f.ordered!.mutableCopy() as? NSMutableOrderedSet)
            copy.removeAllObjects()
            #expect(f.names((f.ordered!.mutableCopy(with: nil) as? NSOrderedSet)?.array ?? []) == ["a", "b", "c"])
            #expect(f.contents == "abc", "a copy is not a proxy")
        },
        Row("customMirror") { #expect($0.names(Mirror(reflecting: $0.ordered!).children.map(\.value)) == ["a", "b", "c"]) },
    ]

    static let orderedEdits: [Row] = [
        Row("add(_:)") { f in
            f.ordered!.add(f["d"])
            f.ordered!.add(f["b"])
            #expect(f.contents == "abcd")
        },
        Row("add(_:count:)") { f in
            let objects: [AnyObject] = f.objects("de")
            objects.withUnsafeBufferPointer { f.ordered!.add($0.baseAddress, count: 2) }
            #expect(f.contents == "abcde")
        },
        Row("addObjects(from:)") { f in
            f.ordered!.addObjects(from: f.objects("ea"))
            #expect(f.contents == "abce")
        },
        Row("insert(_:at:)") { f in
            f.ordered!.insert(f["d"], at: 1)
            f.ordered!.insert(f["c"], at: 0)
            #expect(f.contents == "adbc")
        },
        Row("insert(_:at: IndexSet)") { f in
            f.ordered!.insert(f.objects("de"), at: [0, 2])
            #expect(f.contents == "daebc")
        },
        Row("removeObject(at:)") { f in
            f.ordered!.removeObject(at: 1)
            #expect(f.contents == "ac")
        },
        Row("replaceObject(at:with:)") { f in
            f.ordered!.replaceObject(at: 1, with: f["d"])
            #expect(f.contents == "adc")
        },
        Row("subscript set") { f in
            f.ordered![0] = f["e"]
            #expect(f.contents == "ebc")
        },
        Row("setObject(_:at:)") { f in
            f.ordered!.setObject(f["d"], at: 3)
            f.ordered!.setObject(f["e"], at: 0)
            #expect(f.contents == "ebcd")
        },
        Row("exchangeObject(at:withObjectAt:)") { f in
            f.ordered!.exchangeObject(at: 0, withObjectAt: 2)
            #expect(f.contents == "cba")
        },
        Row("moveObjects(at:to:)") { f in
            f.ordered!.moveObjects(at: [0], to: 2)
            #expect(f.contents == "bca")
        },
        Row("replaceObjects(in:with:count:)") { f in
            let objects: [AnyObject] = f.objects("de")
            objects.withUnsafeBufferPointer { f.ordered!.replaceObjects(in: NSRange(location: 0, length: 2), with: $0.baseAddress, count: 2) }
            #expect(f.contents == "dec")
        },
        Row("replaceObjects(at:with:)") { f in
            f.ordered!.replaceObjects(at: [0, 2], with: f.objects("de"))
            #expect(f.contents == "dbe")
        },
        Row("removeObjects(in: NSRange)") { f in
            f.ordered!.removeObjects(in: NSRange(location: 0, length: 2))
            #expect(f.contents == "c")
        },
        Row("removeObjects(at:)") { f in
            f.ordered!.removeObjects(at: [0, 2])
            #expect(f.contents == "b")
        },
        Row("removeAllObjects()") { f in
            f.ordered!.removeAllObjects()
            #expect(f.contents == "")
        },
        Row("remove(_:)") { f in
            f.ordered!.remove(f["b"])
            #expect(f.contents == "ac")
        },
        Row("remove(_:), then add(_:) again") { f in
            f.ordered!.remove(f["a"])
            f.ordered!.add(f["a"])
            #expect(f.contents == "bca")
        },
        Row("removeObjects(in: [Any])") { f in
            f.ordered!.removeObjects(in: f.objects("acd"))
            #expect(f.contents == "b")
        },
        Row("intersect(_:)") { f in
            f.ordered!.intersect(NSOrderedSet(array: f.objects("cae")))
            #expect(f.contents == "ac")
        },
        Row("minus(_:)") { f in
            f.ordered!.minus(NSOrderedSet(array: f.objects("be")))
            #expect(f.contents == "ac")
        },
        Row("union(_:)") { f in
            f.ordered!.union(NSOrderedSet(array: f.objects("ead")))
            #expect(f.contents == "abced")
        },
        Row("intersectSet(_:)") { f in
            f.ordered!.intersectSet(Set(f.objects("ca")))
            #expect(f.contents == "ac")
        },
        Row("minusSet(_:)") { f in
            f.ordered!.minusSet(Set(f.objects("a")))
            #expect(f.contents == "bc")
        },
        Row("unionSet(_:)") { f in
            f.ordered!.unionSet(Set(f.objects("d")))
            #expect(f.contents == "abcd")
        },
        Row("sort(comparator:)") { f in
            f.ordered!.sort(comparator: f.byNameDescending)
            #expect(f.contents == "cba")
        },
        Row("sort(options:usingComparator:)") { f in
            f.ordered!.sort(options: [.stable], usingComparator: f.byNameDescending)
            #expect(f.contents == "cba")
        },
        Row("sortRange(_:options:usingComparator:)") { f in
            f.ordered!.sortRange(NSRange(location: 1, length: 2), options: [], usingComparator: f.byNameDescending)
            #expect(f.contents == "acb")
        },
        Row("sort(using:)") { f in
            f.ordered!.sort(using: [Foundation.NSSortDescriptor(keyPath: \NSManagedObject.self, ascending: false, comparator: f.byName)])
            #expect(f.contents == "cba")
        },
    ]

    /// The proxy is live: changes made without it show in every member.
    static let orderedChangesMadeElsewhere: [Row] = [
        Row("an inverse joins") { f in
            f["d"].setValue(f.owner, forKey: "playlist")
            #expect(f.names(f.ordered!.array) == ["a", "b", "c", "d"])
        },
        Row("an inverse leaves") { f in
            f["b"].setValue(nil, forKey: "playlist")
            #expect(f.names(Array(f.ordered!)) == ["a", "c"])
        },
        Row("setValue(_:forKey:)") { f in
            f.owner.setValue(NSOrderedSet(array: f.objects("ec")), forKey: "songs")
            #expect(f.names(f.ordered!.array) == ["e", "c"])
        },
        Row("rollback()") { f in
            f.ordered!.removeObject(at: 0)
            f.stack.context.rollback()
            #expect(f.names(f.ordered!.array) == ["a", "b", "c"])
        },
        Row("undo") { f in
            f.stack.context.undoManager = UndoManager()
            f.ordered!.exchangeObject(at: 0, withObjectAt: 2)
            f.stack.context.processPendingChanges()
            f.stack.context.undoManager?.undo()
            #expect(f.names(f.ordered!.array) == ["a", "b", "c"])
        },
        Row("a refresh, then a primitive read") { f in
            f.ordered!.removeObject(at: 0)
            f.stack.context.refresh(f.owner, mergeChanges: false)
            f.stack.context.refresh(f["a"], mergeChanges: false)
            #expect(f.ordered!.count == 3)
            #expect(f.names(f.ordered!.array) == ["a", "b", "c"])
        },
    ]

    // MARK: Unordered

    @Test(arguments: unorderedRows)
    func theUnorderedProxy(_ row: Row) throws {
        try Self.run(row, ordered: false)
    }

    static let unorderedRows: [Row] = unorderedReads + unorderedEdits + unorderedChangesMadeElsewhere

    static let unorderedReads: [Row] = [
        Row("count") { #expect($0.unordered!.count == 3) },
        Row("member(_:)") { f in
            #expect(f.unordered!.member(f["a"]) as? NSManagedObject === f["a"])
            #expect(f.unordered!.member(f["d"]) == nil)
        },
        Row("contains(_:)") { f in #expect(f.unordered!.contains(f["b"]) && !f.unordered!.contains(f["d"])) },
        Row("objectEnumerator()") { #expect($0.names($0.unordered!.objectEnumerator().allObjects).sorted() == ["a", "b", "c"]) },
        Row("makeIterator()") { #expect($0.names(Array($0.unordered!)).sorted() == ["a", "b", "c"]) },
        Row("allObjects") { #expect($0.names($0.unordered!.allObjects).sorted() == ["a", "b", "c"]) },
        Row("anyObject()") { #expect(["a", "b", "c"].contains($0.names([$0.unordered!.anyObject() as Any]).first ?? "")) },
        Row("intersects(_:)") { f in
            #expect(f.unordered!.intersects(Set(f.objects("dc"))))
            #expect(!f.unordered!.intersects(Set(f.objects("de"))))
        },
        Row("isEqual(to:)") { f in
            #expect(f.unordered!.isEqual(to: Set(f.objects("cab"))))
            #expect(!f.unordered!.isEqual(to: Set(f.objects("ab"))))
        },
        Row("isEqual(_:)") { f in
            #expect(f.unordered!.isEqual(NSSet(array: f.objects("cab"))))
            #expect(NSSet(array: f.objects("cab")).isEqual(f.unordered!))
            #expect(f.unordered!.isEqual(f.owner.mutableSetValue(forKey: "pets")))
            #expect(!f.unordered!.isEqual(NSSet(array: f.objects("ab"))))
        },
        Row("isSubset(of:)") { f in
            #expect(f.unordered!.isSubset(of: Set(f.objects("abcd"))))
            #expect(!f.unordered!.isSubset(of: Set(f.objects("ab"))))
        },
        Row("adding(_:)") { #expect($0.names(Array($0.unordered!.adding($0["d"]))).sorted() == ["a", "b", "c", "d"]) },
        Row("addingObjects(from: Set)") { #expect($0.names(Array($0.unordered!.addingObjects(from: Set($0.objects("de"))))).sorted() == ["a", "b", "c", "d", "e"]) },
        Row("addingObjects(from: [Any])") { #expect($0.names(Array($0.unordered!.addingObjects(from: $0.objects("ea")))).sorted() == ["a", "b", "c", "e"]) },
        Row("enumerateObjects(_:)") { f in
            var seen: [Any] = []
            f.unordered!.enumerateObjects { object, _ in seen.append(object) }
            #expect(f.names(seen).sorted() == ["a", "b", "c"])
        },
        Row("enumerateObjects(options:using:)") { f in
            var seen: [Any] = []
            f.unordered!.enumerateObjects(options: []) { object, _ in seen.append(object) }
            #expect(f.names(seen).sorted() == ["a", "b", "c"])
        },
        Row("objects(passingTest:)") { f in
            #expect(f.names(Array(f.unordered!.objects { object, _ in f.names([object]) != ["b"] })).sorted() == ["a", "c"])
        },
        Row("objects(options:passingTest:)") { f in
            #expect(f.names(Array(f.unordered!.objects(options: []) { object, _ in f.names([object]) != ["a"] })).sorted() == ["b", "c"])
        },
        Row("sortedArray(using:)") { f in
            let descriptor = Foundation.NSSortDescriptor(keyPath: \NSManagedObject.self, ascending: false, comparator: f.byName)
            #expect(f.names(f.unordered!.sortedArray(using: [descriptor])) == ["c", "b", "a"])
        },
        Row("description, description(withLocale:)") { f in
            let lines = { (text: String) in text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces.union(.init(charactersIn: ","))) }.sorted() }
            #expect(lines(f.unordered!.description) == lines(NSSet(array: f.objects("abc")).description))
            #expect(lines(f.unordered!.description(withLocale: nil)) == lines(NSSet(array: f.objects("abc")).description(withLocale: nil)))
        },
        Row("hash") { #expect($0.unordered!.hash == NSSet(array: $0.objects("abc")).hash) },
        Row("copy(), copy(with:)") { f in
            #expect(f.names((f.unordered!.copy() as? NSSet)?.allObjects ?? []).sorted() == ["a", "b", "c"])
            #expect(f.names((f.unordered!.copy(with: nil) as? NSSet)?.allObjects ?? []).sorted() == ["a", "b", "c"])
        },
        Row("mutableCopy(), mutableCopy(with:)") { f in
            let copy = try #require(f.unordered!.mutableCopy() as? NSMutableSet)
            copy.removeAllObjects()
            #expect(f.names((f.unordered!.mutableCopy(with: nil) as? NSSet)?.allObjects ?? []).sorted() == ["a", "b", "c"])
            #expect(f.contents == "abc", "a copy is not a proxy")
        },
    ]

    static let unorderedEdits: [Row] = [
        Row("add(_:)") { f in
            f.unordered!.add(f["d"])
            f.unordered!.add(f["a"])
            #expect(f.contents == "abcd")
        },
        Row("addObjects(from:)") { f in
            f.unordered!.addObjects(from: f.objects("ea"))
            #expect(f.contents == "abce")
        },
        Row("remove(_:)") { f in
            f.unordered!.remove(f["b"])
            f.unordered!.remove(f["d"])
            #expect(f.contents == "ac")
        },
        Row("removeAllObjects()") { f in
            f.unordered!.removeAllObjects()
            #expect(f.contents == "")
        },
        Row("intersect(_:)") { f in
            f.unordered!.intersect(Set(f.objects("cae")))
            #expect(f.contents == "ac")
        },
        Row("minus(_:)") { f in
            f.unordered!.minus(Set(f.objects("be")))
            #expect(f.contents == "ac")
        },
        Row("union(_:)") { f in
            f.unordered!.union(Set(f.objects("ead")))
            #expect(f.contents == "abcde")
        },
        Row("setSet(_:)") { f in
            f.unordered!.setSet(Set(f.objects("ce")))
            #expect(f.contents == "ce")
        },
    ]

    static let unorderedChangesMadeElsewhere: [Row] = [
        Row("an inverse joins") { f in
            f["d"].setValue(f.owner, forKey: "owner")
            #expect(f.names(Array(f.unordered!)).sorted() == ["a", "b", "c", "d"])
        },
        Row("an inverse leaves") { f in
            f["b"].setValue(nil, forKey: "owner")
            #expect(f.names(f.unordered!.allObjects).sorted() == ["a", "c"])
        },
    ]
}
