import CoreData
import Testing

/// Runs the snippet of the CoreData catalog's article "Generated Classes"
/// (`Sources/CoreData/CoreData.docc/GeneratedClasses.md`), so that it stays true.
@Suite("Generated Classes article")
struct GeneratedClassesArticleTests {
    @Test func generatedClassesAsTheArticleUsesThem() throws {
        let store = CinemaStore()
        let context = try store.openContainer().viewContext
        let credit = Credit(context: context)
        credit.role = "Louise Banks"

        let film = Film(context: context)        // typed properties, as Xcode generates them
        film.title = "Arrival"
        film.releaseYear = 2016                  // Int16: the attribute uses a scalar type
        film.addToCredits(credit)                // Xcode's to-many accessors
        try context.save()

        let request: NSFetchRequest<Film> = Film.fetchRequest()
        request.sortDescriptors = [NSSortDescriptor(keyPath: \Film.releaseYear, ascending: false)]
        let films = try context.fetch(request)
        print(films.map(\.title))                // [Optional("Arrival")]

        #expect(films.map(\.title) == ["Arrival"])
        #expect(credit.production == film)
    }
}
