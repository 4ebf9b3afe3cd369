@testable import CoreData
import Testing

/// Fetched properties run their request when first read, with `$FETCH_SOURCE` bound to the
/// object, and keep the results until the object is refreshed.
@Suite struct FetchedPropertyTests {
    private static func stack() throws -> CtxStack {
        let model = MovieModel.make()
        let actor = try #require(model.entitiesByName["Actor"])
        let films = NSFetchedPropertyDescription()
        films.name = "films"
        let request = NSFetchRequest<NSFetchRequestResult>(entityName: "Movie")
        request.predicate = NSPredicate(format: "ANY characters.actor == $FETCH_SOURCE")
        films.fetchRequest = request
        actor.properties += [films]
        let stack = try CtxStack(model: model)
        try stack.context.performAndWait {
            let weaver = ctxInsert("Actor", into: stack.context, ["name": "Sigourney Weaver"])
            for title in ["Alien", "Aliens"] {
                let movie = ctxInsert("Movie", into: stack.context, ["title": title])
                ctxInsert("Character", into: stack.context, ["name": "Ripley", "movie": movie, "actor": weaver])
            }
            ctxInsert("Movie", into: stack.context, ["title": "Heat"])
            try stack.context.save()
        }
        return try stack.reopened()
    }

    @Test func aFetchedPropertyFetchesWhenFirstReadAndKeepsItsResultsUntilRefreshed() throws {
        let stack = try Self.stack()
        let store = try #require(stack.store as? SQLiteStore)
        let queries = CtxLog<String>()
        try stack.context.performAndWait {
            let weaver = try #require(ctxFetch("Actor", in: stack.context).first)
            _ = weaver.value(forKey: "name")
            store.statementObserver = { queries.append($0) }
            defer { store.statementObserver = nil }

            let films = weaver.value(forKey: "films") as? [NSManagedObject] ?? []
            #expect(Set(films.compactMap { $0.value(forKey: "title") as? String }) == ["Alien", "Aliens"])
            let afterFirstRead = queries.elements.count
            #expect(afterFirstRead >= 1)
            _ = weaver.value(forKey: "films")
            #expect(queries.elements.count == afterFirstRead, "the results are kept")

            stack.context.refresh(weaver, mergeChanges: false)
            _ = weaver.value(forKey: "films")
            #expect(queries.elements.count > afterFirstRead, "a refresh fetches again")
        }
    }
}
