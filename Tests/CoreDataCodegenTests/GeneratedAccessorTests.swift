import CoreData
import Testing

/// The generated to-many accessors edit relationships and their inverses.
@Suite struct GeneratedAccessorTests {
    @Test func setAccessorsAddAndRemoveOneObjectOrASet() throws {
        let context = try CinemaStore().openContainer().viewContext
        let film = Film(context: context)
        let drama = Theme(context: context)
        let mystery = Theme(context: context)
        let comedy = Theme(context: context)
        film.addToThemes(drama)
        film.addToThemes(NSSet(array: [mystery, comedy]))
        #expect(film.themes?.count == 3)
        #expect(mystery.value(forKey: "productions") as? NSSet == NSSet(object: film))
        film.removeFromThemes(drama)
        film.removeFromThemes(NSSet(array: [comedy]))
        #expect(film.themes == NSSet(object: mystery))
        #expect((drama.value(forKey: "productions") as? NSSet)?.count == 0)
    }

    @Test func relationshipsToObjectsWithoutAClassUseNSManagedObject() throws {
        let context = try CinemaStore().openContainer().viewContext
        let film = Film(context: context)
        let keyword = NSEntityDescription.insertNewObject(forEntityName: "Keyword", into: context)
        film.addToKeywords(keyword)
        #expect(film.keywords == NSSet(object: keyword))
    }

    @Test func orderedAccessorsInsertRemoveAndReplaceByIndex() throws {
        let context = try CinemaStore().openContainer().viewContext
        let film = Film(context: context)
        let credits = (0..<6).map { index -> Credit in
            let credit = Credit(context: context)
            credit.role = "role \(index)"
            return credit
        }
        func roles() -> [String] {
            (film.credits?.array as? [Credit] ?? []).map { $0.role ?? "" }
        }
        film.addToCredits(credits[0])
        film.insertIntoCredits(credits[1], at: 0)
        film.addToCredits(NSOrderedSet(array: [credits[2], credits[3]]))
        #expect(roles() == ["role 1", "role 0", "role 2", "role 3"])
        #expect(credits[2].production == film)

        film.insertIntoCredits([credits[4], credits[5]], at: NSIndexSet(indexSet: IndexSet([1, 3])))
        #expect(roles() == ["role 1", "role 4", "role 0", "role 5", "role 2", "role 3"])
        film.removeFromCredits(at: NSIndexSet(indexSet: IndexSet([0, 2])))
        #expect(roles() == ["role 4", "role 5", "role 2", "role 3"])
        film.removeFromCredits(at: 3)
        #expect(roles() == ["role 4", "role 5", "role 2"])
        #expect(credits[3].production == nil)

        film.replaceCredits(at: 0, with: credits[0])
        #expect(roles() == ["role 0", "role 5", "role 2"])
        film.replaceCredits(at: NSIndexSet(indexSet: IndexSet([1, 2])), with: [credits[1], credits[3]])
        #expect(roles() == ["role 0", "role 1", "role 3"])

        film.removeFromCredits(credits[1])
        film.removeFromCredits(NSOrderedSet(array: [credits[0]]))
        #expect(roles() == ["role 3"])
        #expect(credits[0].production == nil)
    }

    @Test func orderedRelationshipsKeepTheirOrderInTheStore() throws {
        let store = CinemaStore()
        let context = try store.openContainer().viewContext
        let studio = Studio(context: context)
        studio.name = "Ghibli"
        let film = Film(context: context)
        film.title = "Spirited Away"
        film.studio = studio
        for role in ["Chihiro", "Haku", "Yubaba"] {
            let credit = Credit(context: context)
            credit.role = role
            film.insertIntoCredits(credit, at: 0)
        }
        try context.save()

        let reopened = try store.openContainer().viewContext
        let fetched = try #require(try reopened.fetch(Film.fetchRequest()).first)
        #expect((fetched.credits?.array as? [Credit])?.map(\.role) == ["Yubaba", "Haku", "Chihiro"])
        #expect(fetched.studio?.name == "Ghibli")
    }
}
