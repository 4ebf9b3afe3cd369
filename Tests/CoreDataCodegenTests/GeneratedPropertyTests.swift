import CoreData
import Testing

/// The generated properties store and return every kind of value, through a SQLite store.
@Suite struct GeneratedPropertyTests {
    @Test func attributesOfEveryKindSurviveASaveAndAReopening() throws {
        let store = CinemaStore()
        let identifier = UUID()
        let premiered = Date(timeIntervalSinceReferenceDate: 700_000_000)
        let context = try store.openContainer().viewContext
        let film = Film(context: context)
        film.title = "Arrival"
        film.releaseYear = 2016
        film.rating = 7.9
        film.isFeatured = true
        film.budget = NSDecimalNumber(string: "47000000.50")
        film.identifier = identifier
        film.premiered = premiered
        film.poster = Data([0xCA, 0xFE])
        film.website = URL(string: "https://example.com/arrival")
        film.default = "keyword-named"
        film.boxOffice = 203_400_000
        film.runtime = 116
        try context.save()

        let reopened = try store.openContainer().viewContext
        let fetched = try #require(try reopened.fetch(Film.fetchRequest()).first)
        #expect(fetched.title == "Arrival")
        #expect(fetched.releaseYear == 2016)
        #expect(fetched.rating == 7.9)
        #expect(fetched.isFeatured)
        #expect(fetched.budget == NSDecimalNumber(string: "47000000.50"))
        #expect(fetched.identifier == identifier)
        #expect(fetched.premiered == premiered)
        #expect(fetched.poster == Data([0xCA, 0xFE]))
        #expect(fetched.website == URL(string: "https://example.com/arrival"))
        #expect(fetched.default == "keyword-named")
        #expect(fetched.boxOffice == 203_400_000)
        #expect(fetched.runtime == 116)
    }

    @Test func transformablesHaveTheirCustomClass() throws {
        let store = CinemaStore()
        let context = try store.openContainer().viewContext
        let performer = Performer(context: context)
        performer.nicknames = ["Toni", "T. C."]
        try context.save()

        let reopened = try store.openContainer().viewContext
        let fetched = try #require(try reopened.fetch(Performer.fetchRequest() as NSFetchRequest<Performer>).first)
        #expect(fetched.nicknames == ["Toni", "T. C."])
    }

    @Test func subclassesOfHandWrittenClassesHaveBothsProperties() throws {
        let context = try CinemaStore().openContainer().viewContext
        let mood = Mood(context: context)
        mood.name = "eerie"
        #expect(mood.intensity == 1)
        mood.intensity = 3
        let film = Film(context: context)
        film.addToThemes(mood)
        #expect((film.themes?.anyObject() as? Mood)?.name == "eerie")
        #expect(Mood.propertyNamesByKeyPath[\Mood.intensity] == "intensity")
        #expect(Mood.propertyNamesByKeyPath[\Mood.name] == nil)
    }

    @Test func scalarsReadTheirDefaultsAndObjectsReadNil() throws {
        let context = try CinemaStore().openContainer().viewContext
        let series = Series(context: context)
        #expect(series.seasons == 1)
        #expect(series.releaseYear == 0)
        #expect(series.isFeatured == false)
        #expect(series.title == nil)
        #expect(series.studio == nil)
        #expect(series.credits?.count == 0)
        let film = Film(context: context)
        #expect(film.runtime == nil)
        film.runtime = NSNumber(value: 90)
        #expect(film.value(forKey: "runtime") as? NSNumber == 90)
        film.runtime = nil
        #expect(film.value(forKey: "runtime") == nil)
    }

    @Test func settersRecordChangesLikeSetValueForKey() throws {
        let context = try CinemaStore().openContainer().viewContext
        let studio = Studio(context: context)
        studio.name = "Lumière"
        try context.save()
        #expect(!studio.hasChanges)
        studio.name = "Pathé"
        #expect(studio.isUpdated)
        #expect(studio.changedValues()["name"] as? String == "Pathé")
    }

    @Test func toOneRelationshipsKeepTheirInverses() throws {
        let context = try CinemaStore().openContainer().viewContext
        let studio = Studio(context: context)
        let film = Film(context: context)
        film.studio = studio
        #expect(studio.productions?.contains(film) == true)
        film.studio = nil
        #expect(studio.productions?.count == 0)
    }
}
