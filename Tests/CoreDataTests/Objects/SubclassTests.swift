import CoreData
import Testing

/// A hand-written subclass for the Movie entity, with typed accessors over key-value coding, as
/// Xcode's generated classes have.
final class MovieObject: NSManagedObject {
    var title: String? {
        get { value(forKey: "title") as? String }
        set { setValue(newValue, forKey: "title") }
    }

    var year: Int16 {
        get { (value(forKey: "year") as? Int16) ?? 0 }
        set { setValue(newValue, forKey: "year") }
    }

    var rating: Double? {
        get { value(forKey: "rating") as? Double }
        set { setValue(newValue, forKey: "rating") }
    }

    var characters: Set<NSManagedObject> {
        Set(ctxObjects(value(forKey: "characters")))
    }
}

/// Used only under its module-qualified name written as `String(reflecting:)`.
final class ReflectedMovieObject: NSManagedObject {
    var title: String? { value(forKey: "title") as? String }
}

/// Used only as an entity class under its unqualified name.
final class UnqualifiedMovieObject: NSManagedObject {
    var title: String? { value(forKey: "title") as? String }
}

/// Registers the test module with class resolution (through `init(context:)`) in the
/// unqualified-name test.
final class QualifiedActorObject: NSManagedObject {}

/// Used only as the class of a model built for the `entity()` / `fetchRequest()` test.
final class ClassMethodsMovieObject: NSManagedObject {}

/// Class resolution and subclasses: `managedObjectClassName` (module-qualified or not) names the
/// class fetched and inserted objects get; `init(context:)`, `entity()` and `fetchRequest()`
/// find the entity of a class; an unknown class name falls back to NSManagedObject.
@Suite struct SubclassTests {
    /// The movie model with the Movie entity's (and optionally the Actor entity's) class names set.
    static func model(movieClass: String, actorClass: String? = nil) -> NSManagedObjectModel {
        let model = MovieModel.make()
        for entity in model.entities {
            if entity.name == "Movie" { entity.managedObjectClassName = movieClass }
            if entity.name == "Actor", let actorClass { entity.managedObjectClassName = actorClass }
        }
        return model
    }

    @Test func qualifiedClassNameFromNSStringFromClass() throws {
        let className = NSStringFromClass(MovieObject.self)
        #expect(className.hasSuffix("MovieObject"))
        let stack = try CtxStack(model: Self.model(movieClass: className))
        try stack.context.performAndWait { () throws in
            let inserted = NSEntityDescription.insertNewObject(forEntityName: "Movie", into: stack.context)
            let movie = try #require(inserted as? MovieObject)
            movie.title = "Alien"
            movie.year = 1979
            movie.rating = 8.5
            #expect(movie.value(forKey: "title") as? String == "Alien")
            #expect(movie.year == 1979)
            #expect(movie.rating == 8.5)
            // Other entities keep NSManagedObject.
            let actor = ctxInsert("Actor", into: stack.context, ["name": "Sigourney Weaver"])
            #expect(type(of: actor) == NSManagedObject.self)
            try stack.context.save()
        }
        let reopened = try stack.reopened()
        try reopened.context.performAndWait { () throws in
            let movies = try reopened.context.fetch(NSFetchRequest<MovieObject>(entityName: "Movie"))
            #expect(movies.count == 1)
            #expect(movies.first?.title == "Alien")
            #expect(movies.first?.year == 1979)
            let untyped = try ctxFetch("Movie", in: reopened.context)
            #expect(untyped.first is MovieObject)
            let id = try #require(movies.first?.objectID)
            let other = reopened.newContext()
            other.performAndWait {
                #expect(other.object(with: id) is MovieObject)
            }
        }
    }

    @Test func qualifiedClassNameFromStringReflecting() throws {
        let className = String(reflecting: ReflectedMovieObject.self)
        #expect(className.contains("."))
        let stack = try CtxStack(model: Self.model(movieClass: className))
        try stack.context.performAndWait { () throws in
            ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            try stack.context.save()
        }
        let reopened = try stack.reopened()
        try reopened.context.performAndWait { () throws in
            let movie = try #require(try ctxFetch("Movie", in: reopened.context).first)
            #expect(movie is ReflectedMovieObject)
            #expect((movie as? ReflectedMovieObject)?.title == "Alien")
        }
    }

    @Test func unqualifiedClassNameResolvesInAModuleCoreDataHasSeen() throws {
        let model = Self.model(movieClass: "UnqualifiedMovieObject", actorClass: String(reflecting: QualifiedActorObject.self))
        let stack = try CtxStack(model: model)
        try stack.context.performAndWait { () throws in
            // Creating an object of a class of this module tells Core Data about the module.
            let actor = QualifiedActorObject(context: stack.context)
            actor.setValue("Sigourney Weaver", forKey: "name")
            let movie = ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            #expect(movie is UnqualifiedMovieObject)
            try stack.context.save()
        }
        let reopened = try stack.reopened()
        try reopened.context.performAndWait { () throws in
            #expect(try ctxFetch("Movie", in: reopened.context).first is UnqualifiedMovieObject)
        }
    }

    @Test func initWithContextFindsTheEntityOfTheClass() throws {
        let stack = try CtxStack(model: Self.model(movieClass: NSStringFromClass(MovieObject.self)))
        try stack.context.performAndWait { () throws in
            let movie = MovieObject(context: stack.context)
            #expect(movie.entity.name == "Movie")
            #expect(movie.managedObjectContext === stack.context)
            #expect(movie.isInserted)
            #expect(stack.context.insertedObjects.contains(movie))
            movie.title = "Alien"
            try stack.context.save()
        }
        let reopened = try stack.reopened()
        try reopened.context.performAndWait { () throws in
            #expect(try reopened.context.fetch(NSFetchRequest<MovieObject>(entityName: "Movie")).first?.title == "Alien")
        }
    }

    @Test func initWithEntityInsertIntoNilMakesAnUnmanagedObject() throws {
        let model = Self.model(movieClass: NSStringFromClass(MovieObject.self))
        let stack = try CtxStack(model: model)
        try stack.context.performAndWait { () throws in
            let entity = try #require(NSEntityDescription.entity(forEntityName: "Movie", in: stack.context))
            let movie = MovieObject(entity: entity, insertInto: nil)
            #expect(movie.managedObjectContext == nil)
            movie.title = "Floating"
            #expect(movie.title == "Floating")
            stack.context.insert(movie)
            #expect(movie.managedObjectContext === stack.context)
            #expect(movie.isInserted)
            try stack.context.save()
            #expect(try ctxStoredCount("Movie", in: stack.context) == 1)
        }
    }

    @Test func entityAndFetchRequestClassMethods() throws {
        let stack = try CtxStack(model: Self.model(movieClass: NSStringFromClass(ClassMethodsMovieObject.self)))
        try stack.context.performAndWait { () throws in
            ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            try stack.context.save()

            let entity = ClassMethodsMovieObject.entity()
            #expect(entity.name == "Movie")
            #expect(entity.managedObjectClassName == NSStringFromClass(ClassMethodsMovieObject.self))

            let request = ClassMethodsMovieObject.fetchRequest()
            #expect(request.entityName == "Movie")
            let results = try stack.context.fetch(request)
            #expect(results.count == 1)
            #expect(results.first is ClassMethodsMovieObject)
        }
    }

    @Test func anUnresolvableClassNameFallsBackToNSManagedObject() throws {
        let stack = try CtxStack(model: Self.model(movieClass: "NoSuchModule.NoSuchMovieClass"))
        try stack.context.performAndWait { () throws in
            let movie = ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            #expect(type(of: movie) == NSManagedObject.self)
            try stack.context.save()
        }
        let reopened = try stack.reopened()
        try reopened.context.performAndWait { () throws in
            let movie = try #require(try ctxFetch("Movie", in: reopened.context).first)
            #expect(type(of: movie) == NSManagedObject.self)
            #expect(movie.value(forKey: "title") as? String == "Alien")
        }
    }

    @Test func typedAccessorsMaintainInverses() throws {
        let stack = try CtxStack(model: Self.model(movieClass: NSStringFromClass(MovieObject.self)))
        stack.context.performAndWait {
            let movie = MovieObject(context: stack.context)
            movie.title = "Alien"
            let ripley = ctxInsert("Character", into: stack.context, ["name": "Ripley", "movie": movie])
            #expect(movie.characters == [ripley])
            #expect(ripley.value(forKey: "movie") as? MovieObject === movie)
        }
    }
}
