import CoreData
import Testing

/// Key-value coding on managed objects: the types `value(forKey:)` returns (Apple's: NSNumber,
/// String, Date, Data, UUID, URL, NSDecimalNumber, NSSet, NSOrderedSet), the values `setValue`
/// accepts, key paths, primitive access and the relationship proxies.
///
/// Unknown keys are not tested: Apple raises `NSUnknownKeyException`, a programmer error that
/// cannot be caught in-process.
@Suite struct KeyValueCodingTests {
    private func makeStack(_ storeType: String = NSInMemoryStoreType) throws -> CtxStack {
        try CtxStack(model: CtxGraphModel.make(), storeType: storeType)
    }

    // MARK: Attribute types

    @Test func integersComeBackAsNSNumberAndCastToSwiftIntegers() throws {
        let stack = try makeStack()
        stack.context.performAndWait {
            let item = ctxInsert("Item", into: stack.context)
            item.setValue(12, forKey: "int16")
            item.setValue(Int32(100_000), forKey: "int32")
            item.setValue(Int64.max, forKey: "int64")

            let int16 = item.value(forKey: "int16")
            #expect(int16 is NSNumber)
            #expect(int16 as? Int == 12)
            #expect(int16 as? Int16 == 12)
            #expect((int16 as? NSNumber)?.int16Value == 12)
            #expect(item.value(forKey: "int32") as? Int32 == 100_000)
            #expect(item.value(forKey: "int32") is NSNumber)
            #expect(item.value(forKey: "int64") as? Int64 == Int64.max)
            #expect(item.value(forKey: "int64") is NSNumber)
        }
    }

    @Test func floatingPointAndBooleansComeBackAsNSNumber() throws {
        let stack = try makeStack()
        stack.context.performAndWait {
            let item = ctxInsert("Item", into: stack.context)
            item.setValue(2.5, forKey: "double")
            item.setValue(Float(1.25), forKey: "float")
            item.setValue(true, forKey: "bool")

            #expect(item.value(forKey: "double") is NSNumber)
            #expect(item.value(forKey: "double") as? Double == 2.5)
            #expect(item.value(forKey: "float") is NSNumber)
            #expect(item.value(forKey: "float") as? Float == 1.25)
            #expect(item.value(forKey: "bool") is NSNumber)
            #expect(item.value(forKey: "bool") as? Bool == true)

            item.setValue(false, forKey: "bool")
            #expect(item.value(forKey: "bool") as? Bool == false)
        }
    }

    @Test func decimalsComeBackAsNSDecimalNumber() throws {
        let stack = try makeStack()
        stack.context.performAndWait {
            let item = ctxInsert("Item", into: stack.context)
            item.setValue(Decimal(string: "12.34")!, forKey: "decimal")
            let value = item.value(forKey: "decimal")
            #expect(value is NSDecimalNumber)
            #expect((value as? NSDecimalNumber)?.decimalValue == Decimal(string: "12.34")!)

            item.setValue(NSDecimalNumber(string: "0.5"), forKey: "decimal")
            #expect((item.value(forKey: "decimal") as? NSDecimalNumber)?.decimalValue == Decimal(string: "0.5")!)
        }
    }

    @Test func stringDateDataUUIDAndURLComeBackAsTheirValueTypes() throws {
        let stack = try makeStack()
        let date = Date(timeIntervalSinceReferenceDate: 123_456)
        let data = Data([1, 2, 3])
        let uuid = UUID()
        let url = URL(string: "https://example.com/a")!
        stack.context.performAndWait {
            let item = ctxInsert("Item", into: stack.context)
            item.setValue("hello", forKey: "string")
            item.setValue(date, forKey: "date")
            item.setValue(data, forKey: "data")
            item.setValue(uuid, forKey: "uuid")
            item.setValue(url, forKey: "uri")

            #expect(item.value(forKey: "string") as? String == "hello")
            #expect(item.value(forKey: "date") as? Date == date)
            #expect(item.value(forKey: "data") as? Data == data)
            #expect(item.value(forKey: "uuid") as? UUID == uuid)
            #expect(item.value(forKey: "uri") as? URL == url)
        }
    }

    @Test func setValueAcceptsFoundationCounterparts() throws {
        let stack = try makeStack()
        let date = Date(timeIntervalSinceReferenceDate: 99)
        stack.context.performAndWait {
            let item = ctxInsert("Item", into: stack.context)
            item.setValue(NSNumber(value: 7), forKey: "int16")
            item.setValue(NSNumber(value: 3.5), forKey: "double")
            item.setValue(NSNumber(value: true), forKey: "bool")
            item.setValue(NSString(string: "bridged"), forKey: "string")
            item.setValue(NSDate(timeIntervalSinceReferenceDate: 99), forKey: "date")
            item.setValue(NSData(data: Data([9, 8])), forKey: "data")

            #expect(item.value(forKey: "int16") as? Int16 == 7)
            #expect(item.value(forKey: "double") as? Double == 3.5)
            #expect(item.value(forKey: "bool") as? Bool == true)
            #expect(item.value(forKey: "string") as? String == "bridged")
            #expect(item.value(forKey: "date") as? Date == date)
            #expect(item.value(forKey: "data") as? Data == Data([9, 8]))
        }
    }

    @Test func setValueAcceptsEverySwiftIntegerWidth() throws {
        let stack = try makeStack()
        stack.context.performAndWait {
            let item = ctxInsert("Item", into: stack.context)
            item.setValue(Int16(-3), forKey: "int16")
            #expect(item.value(forKey: "int16") as? Int == -3)
            item.setValue(Int64(40), forKey: "int32")
            #expect(item.value(forKey: "int32") as? Int == 40)
            item.setValue(Int(5), forKey: "int64")
            #expect(item.value(forKey: "int64") as? Int64 == 5)
            item.setValue(Int(2), forKey: "double")
            #expect(item.value(forKey: "double") as? Double == 2)
        }
    }

    @Test func nilAndNSNullClearAnAttribute() throws {
        let stack = try makeStack()
        stack.context.performAndWait {
            let item = ctxInsert("Item", into: stack.context, ["string": "x", "int16": 4])
            item.setValue(nil, forKey: "string")
            item.setValue(NSNull(), forKey: "int16")
            #expect(item.value(forKey: "string") == nil)
            #expect(item.value(forKey: "int16") == nil)
        }
    }

    @Test func everyTypeSurvivesASQLiteRoundTrip() throws {
        let stack = try makeStack(NSSQLiteStoreType)
        let date = Date(timeIntervalSinceReferenceDate: 654_321.5)
        let uuid = UUID()
        let url = URL(string: "https://example.com/path?q=1")!
        try stack.context.performAndWait { () throws in
            ctxInsert("Item", into: stack.context, [
                "int16": 16, "int32": 32, "int64": Int64(1) << 40, "double": 0.25, "float": Float(0.5),
                "bool": true, "decimal": Decimal(string: "3.14159")!, "string": "héllo",
                "date": date, "data": Data([0, 255, 7]), "uuid": uuid, "uri": url,
            ])
            try stack.context.save()
        }
        let reopened = try stack.reopened()
        try reopened.context.performAndWait { () throws in
            let item = try #require(try ctxFetch("Item", in: reopened.context).first)
            #expect(item.value(forKey: "int16") is NSNumber)
            #expect(item.value(forKey: "int16") as? Int16 == 16)
            #expect(item.value(forKey: "int16") as? Int == 16)
            #expect(item.value(forKey: "int32") as? Int32 == 32)
            #expect(item.value(forKey: "int64") as? Int64 == Int64(1) << 40)
            #expect(item.value(forKey: "double") as? Double == 0.25)
            #expect(item.value(forKey: "float") as? Float == 0.5)
            #expect(item.value(forKey: "bool") is NSNumber)
            #expect(item.value(forKey: "bool") as? Bool == true)
            #expect(item.value(forKey: "decimal") is NSDecimalNumber)
            #expect((item.value(forKey: "decimal") as? NSDecimalNumber)?.decimalValue == Decimal(string: "3.14159")!)
            #expect(item.value(forKey: "string") as? String == "héllo")
            #expect(item.value(forKey: "date") as? Date == date)
            #expect(item.value(forKey: "data") as? Data == Data([0, 255, 7]))
            #expect(item.value(forKey: "uuid") as? UUID == uuid)
            #expect(item.value(forKey: "uri") as? URL == url)
        }
    }

    // MARK: Relationships

    @Test func toManyIsAnNSSetOrderedToManyAnNSOrderedSetAndToOneTheObject() throws {
        let stack = try makeStack()
        stack.context.performAndWait {
            let person = ctxInsert("Person", into: stack.context)
            let pet = ctxInsert("Pet", into: stack.context)
            pet.setValue(person, forKey: "owner")
            #expect(person.value(forKey: "pets") is NSSet)
            #expect(!(person.value(forKey: "pets") is NSOrderedSet))
            #expect((person.value(forKey: "pets") as? NSSet)?.count == 1)
            #expect(pet.value(forKey: "owner") as? NSManagedObject === person)
            #expect(person.value(forKey: "passport") == nil)

            let playlist = ctxInsert("Playlist", into: stack.context)
            #expect(playlist.value(forKey: "songs") is NSOrderedSet)
            #expect((playlist.value(forKey: "songs") as? NSOrderedSet)?.count == 0)
            // An empty to-many of a new object is an empty set, not nil.
            #expect((person.value(forKey: "clubs") as? NSSet)?.count == 0)
        }
    }

    @Test func toManyAcceptsSetsArraysAndOrderedSets() throws {
        let stack = try makeStack()
        stack.context.performAndWait {
            let person = ctxInsert("Person", into: stack.context)
            let a = ctxInsert("Pet", into: stack.context)
            let b = ctxInsert("Pet", into: stack.context)
            person.setValue(NSSet(array: [a, b]), forKey: "pets")
            #expect(ctxObjects(person.value(forKey: "pets")).count == 2)
            person.setValue(Set([a]), forKey: "pets")
            #expect(ctxObjects(person.value(forKey: "pets")).count == 1)
            #expect(b.value(forKey: "owner") == nil)

            let playlist = ctxInsert("Playlist", into: stack.context)
            let s1 = ctxInsert("Song", into: stack.context)
            let s2 = ctxInsert("Song", into: stack.context)
            playlist.setValue(NSOrderedSet(array: [s2, s1]), forKey: "songs")
            #expect(ctxObjects(playlist.value(forKey: "songs")).map(ObjectIdentifier.init) == [s2, s1].map(ObjectIdentifier.init))
        }
    }

    // MARK: Key paths

    @Test func keyPathThroughToOne() throws {
        let stack = try CtxStack(model: MovieModel.make(), storeType: NSInMemoryStoreType)
        stack.context.performAndWait {
            let movie = ctxInsert("Movie", into: stack.context, ["title": "Alien", "year": 1979])
            let ripley = ctxInsert("Character", into: stack.context, ["name": "Ripley"])
            ripley.setValue(movie, forKey: "movie")
            #expect(ripley.value(forKeyPath: "movie.title") as? String == "Alien")
            #expect(ripley.value(forKeyPath: "movie.year") as? Int == 1979)
            #expect(ripley.value(forKeyPath: "name") as? String == "Ripley")
            // A nil step yields nil.
            #expect(ripley.value(forKeyPath: "actor.name") == nil)
        }
    }

    @Test func keyPathThroughToManyYieldsASet() throws {
        let stack = try CtxStack(model: MovieModel.make(), storeType: NSInMemoryStoreType)
        stack.context.performAndWait {
            let movie = ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            for name in ["Ripley", "Dallas", "Ash"] {
                ctxInsert("Character", into: stack.context, ["name": name, "movie": movie])
            }
            let names = movie.value(forKeyPath: "characters.name")
            #expect(names is NSSet)
            let strings = Set(((names as? NSSet)?.allObjects ?? []).compactMap { $0 as? String })
            #expect(strings == ["Ripley", "Dallas", "Ash"])
        }
    }

    @Test func setValueForKeyPathSetsTheValueAtTheEnd() throws {
        let stack = try CtxStack(model: MovieModel.make(), storeType: NSSQLiteStoreType)
        try stack.context.performAndWait { () throws in
            let movie = ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            let ripley = ctxInsert("Character", into: stack.context, ["name": "Ripley", "movie": movie])
            try stack.context.save()
            ripley.setValue("Aliens", forKeyPath: "movie.title")
            #expect(movie.value(forKey: "title") as? String == "Aliens")
            #expect(movie.isUpdated)
            #expect(stack.context.updatedObjects.contains(movie))
            ripley.setValue("Ellen Ripley", forKeyPath: "name")
            #expect(ripley.value(forKey: "name") as? String == "Ellen Ripley")
        }
    }

    @Test func setValueForKeyPathThroughAToManySetsEveryMember() throws {
        // NSSet's setValue(_:forKey:) sets the value on each member, so a key path through a
        // to-many relationship reaches every destination.
        let stack = try CtxStack(model: MovieModel.make(), storeType: NSInMemoryStoreType)
        stack.context.performAndWait {
            let movie = ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            let characters = ["Ripley", "Ash"].map { ctxInsert("Character", into: stack.context, ["name": $0, "movie": movie]) }
            movie.setValue("Extra", forKeyPath: "characters.name")
            #expect(characters.map { $0.value(forKey: "name") as? String } == ["Extra", "Extra"])
        }
    }

    // MARK: Primitive access

    @Test func setPrimitiveValueDoesNotDirtyUntilDidChangeValue() throws {
        let stack = try CtxStack(model: MovieModel.make(), storeType: NSSQLiteStoreType)
        try stack.context.performAndWait { () throws in
            let movie = ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            try stack.context.save()
            #expect(!stack.context.hasChanges)

            movie.willChangeValue(forKey: "title")
            movie.setPrimitiveValue("Aliens", forKey: "title")
            #expect(movie.primitiveValue(forKey: "title") as? String == "Aliens")
            #expect(movie.value(forKey: "title") as? String == "Aliens")
            #expect(!movie.isUpdated)
            #expect(!stack.context.hasChanges)

            movie.didChangeValue(forKey: "title")
            #expect(movie.isUpdated)
            #expect(stack.context.hasChanges)
            #expect(movie.changedValues()["title"] as? String == "Aliens")

            try stack.context.save()
        }
        let reopened = try stack.reopened()
        try reopened.context.performAndWait { () throws in
            let titles = try ctxFetch("Movie", in: reopened.context).compactMap { $0.value(forKey: "title") as? String }
            #expect(titles == ["Aliens"])
        }
    }

    @Test func primitiveValueReadsWhatSetValueWrote() throws {
        let stack = try makeStack()
        stack.context.performAndWait {
            let item = ctxInsert("Item", into: stack.context, ["int32": 41])
            #expect(item.primitiveValue(forKey: "int32") as? Int == 41)
            item.setPrimitiveValue(NSNumber(value: 42), forKey: "int32")
            #expect(item.value(forKey: "int32") as? Int == 42)
        }
    }

    @Test func setPrimitiveValueRecordsNoChange() throws {
        let stack = try CtxStack(model: MovieModel.make(), storeType: NSSQLiteStoreType)
        try stack.context.performAndWait { () throws in
            let movie = ctxInsert("Movie", into: stack.context, ["title": "Alien", "year": 1979])
            try stack.context.save()

            movie.setPrimitiveValue("Aliens", forKey: "title")
            #expect(movie.changedValues().isEmpty)
            movie.setValue(1986, forKey: "year")
            movie.setPrimitiveValue("Aliens 2", forKey: "title")
            #expect(Set(movie.changedValues().keys) == ["year"])
            #expect(movie.changedValues()["year"] as? Int == 1986)
        }
    }

    // MARK: Relationship proxies

    @Test
    func mutableSetValueEditsTheRelationshipAndItsInverse() throws {
        let stack = try CtxStack(model: MovieModel.make(), storeType: NSInMemoryStoreType)
        stack.context.performAndWait {
            let movie = ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            let ripley = ctxInsert("Character", into: stack.context, ["name": "Ripley"])
            let ash = ctxInsert("Character", into: stack.context, ["name": "Ash"])
            let proxy = movie.mutableSetValue(forKey: "characters")
            proxy.add(ripley)
            proxy.add(ash)
            #expect(proxy.count == 2)
            #expect(ripley.value(forKey: "movie") as? NSManagedObject === movie)
            #expect(ash.value(forKey: "movie") as? NSManagedObject === movie)
            #expect(ctxObjects(movie.value(forKey: "characters")).count == 2)

            proxy.remove(ash)
            #expect(ash.value(forKey: "movie") == nil)
            #expect(!ctxContains(movie.value(forKey: "characters"), ash))
            #expect(proxy.count == 1)
            #expect(proxy.contains(ripley))
            #expect(!proxy.contains(ash))
        }
    }

    @Test func mutableSetValueSeesChangesMadeElsewhere() throws {
        let stack = try CtxStack(model: MovieModel.make(), storeType: NSInMemoryStoreType)
        stack.context.performAndWait {
            let movie = ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            let proxy = movie.mutableSetValue(forKey: "characters")
            let ripley = ctxInsert("Character", into: stack.context, ["name": "Ripley"])
            ripley.setValue(movie, forKey: "movie")
            #expect(proxy.count == 1)
            #expect(proxy.contains(ripley))
        }
    }

    @Test
    func mutableSetValueOnManyToManyUpdatesBothSides() throws {
        let stack = try makeStack()
        stack.context.performAndWait {
            let person = ctxInsert("Person", into: stack.context)
            let club = ctxInsert("Club", into: stack.context)
            person.mutableSetValue(forKey: "clubs").add(club)
            #expect(ctxContains(club.value(forKey: "members"), person))
            club.mutableSetValue(forKey: "members").remove(person)
            #expect(!ctxContains(person.value(forKey: "clubs"), club))
        }
    }

    @Test func mutableOrderedSetValueAddAppendsAndSetsTheInverse() throws {
        let stack = try makeStack()
        stack.context.performAndWait {
            let playlist = ctxInsert("Playlist", into: stack.context)
            let songs = (0..<2).map { ctxInsert("Song", into: stack.context, ["title": "s\($0)"]) }
            let proxy = playlist.mutableOrderedSetValue(forKey: "songs")
            proxy.add(songs[0])
            proxy.add(songs[1])
            let titles = ctxObjects(playlist.value(forKey: "songs")).compactMap { $0.value(forKey: "title") as? String }
            #expect(titles == ["s0", "s1"])
            #expect(songs[1].value(forKey: "playlist") as? NSManagedObject === playlist)
            #expect(proxy.count == 2)
        }
    }

    @Test func mutableOrderedSetValueInsertAndRemoveAtIndexes() throws {
        let stack = try makeStack()
        stack.context.performAndWait {
            let playlist = ctxInsert("Playlist", into: stack.context)
            let songs = (0..<3).map { ctxInsert("Song", into: stack.context, ["title": "s\($0)"]) }
            let proxy = playlist.mutableOrderedSetValue(forKey: "songs")
            proxy.insert(songs[0], at: 0)
            proxy.insert(songs[1], at: 1)
            proxy.insert(songs[2], at: 0)
            let titles = { ctxObjects(playlist.value(forKey: "songs")).compactMap { $0.value(forKey: "title") as? String } }
            #expect(titles() == ["s2", "s0", "s1"])
            #expect(songs[2].value(forKey: "playlist") as? NSManagedObject === playlist)
            #expect(proxy.object(at: 0) as? NSManagedObject === songs[2])

            guard proxy.count == 3 else { return }
            proxy.removeObject(at: 1)
            #expect(titles() == ["s2", "s1"])
            #expect(songs[0].value(forKey: "playlist") == nil)
            #expect(proxy.count == 2)
        }
    }

    /// These reorderings run in Foundation's base class on its own storage, which the proxy
    /// leaves empty: they trapped, or changed nothing.
    @Test func mutableOrderedSetValueExchangeSortAndIntersectReorderTheRelationship() throws {
        let stack = try makeStack()
        stack.context.performAndWait {
            let playlist = ctxInsert("Playlist", into: stack.context)
            let songs = ["b", "c", "a", "d"].map { ctxInsert("Song", into: stack.context, ["title": $0]) }
            let proxy = playlist.mutableOrderedSetValue(forKey: "songs")
            proxy.addObjects(from: songs)
            let titles = { ctxObjects(playlist.value(forKey: "songs")).compactMap { $0.value(forKey: "title") as? String } }

            proxy.exchangeObject(at: 0, withObjectAt: 2)
            #expect(titles() == ["a", "c", "b", "d"])
            proxy.sort { lhs, rhs in
                let (left, right) = ((lhs as? NSManagedObject)?.value(forKey: "title") as? String ?? "", (rhs as? NSManagedObject)?.value(forKey: "title") as? String ?? "")
                return left < right ? .orderedAscending : left > right ? .orderedDescending : .orderedSame
            }
            #expect(titles() == ["a", "b", "c", "d"])
            proxy.intersect(NSOrderedSet(array: [songs[3], songs[0]]))
            #expect(titles() == ["b", "d"])
            #expect(songs[1].value(forKey: "playlist") == nil)
            #expect(stack.context.updatedObjects.contains(playlist) || playlist.isInserted)
        }
    }

    // MARK: Several keys

    @Test func setValuesForKeysAndDictionaryWithValues() throws {
        let stack = try CtxStack(model: MovieModel.make(), storeType: NSInMemoryStoreType)
        stack.context.performAndWait {
            let movie = ctxInsert("Movie", into: stack.context)
            movie.setValuesForKeys(["title": "Heat", "year": 1995, "rating": NSNull()])
            #expect(movie.value(forKey: "title") as? String == "Heat")
            #expect(movie.value(forKey: "year") as? Int == 1995)
            #expect(movie.value(forKey: "rating") == nil)

            let values = movie.dictionaryWithValues(forKeys: ["title", "year", "rating"])
            #expect(values.count == 3)
            #expect(values["title"] as? String == "Heat")
            #expect(values["year"] as? Int == 1995)
            #expect(values["rating"] is NSNull)
        }
    }

    // MARK: Wrong types

    @Test func aValueOfTheWrongTypeIsAcceptedAndFailsAtSaveWith1550() throws {
        let stack = try CtxStack(model: MovieModel.make(), storeType: NSSQLiteStoreType)
        stack.context.performAndWait {
            let movie = ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            movie.setValue("nineteen seventy-nine", forKey: "year")
            // setValue does not check: the value is kept as given.
            #expect(movie.value(forKey: "year") as? String == "nineteen seventy-nine")

            let error = ctxError { try stack.context.save() }
            #expect(error?.domain == NSCocoaErrorDomain)
            #expect(error?.code == NSManagedObjectValidationError)
            #expect(error?.code == 1550)
            #expect(error?.userInfo[NSValidationKeyErrorKey] as? String == "year")
            #expect(error?.userInfo[NSValidationObjectErrorKey] as? NSManagedObject === movie)
            #expect(error?.userInfo[NSValidationValueErrorKey] as? String == "nineteen seventy-nine")
            #expect(movie.isInserted)
        }
    }

    @Test func aNumberInAStringAttributeFailsAtSaveWith1550() throws {
        let stack = try CtxStack(model: MovieModel.make(), storeType: NSInMemoryStoreType)
        stack.context.performAndWait {
            let movie = ctxInsert("Movie", into: stack.context)
            movie.setValue(42, forKey: "title")
            let error = ctxError { try stack.context.save() }
            #expect(error?.code == 1550)
            #expect(error?.userInfo[NSValidationKeyErrorKey] as? String == "title")
        }
    }
}
