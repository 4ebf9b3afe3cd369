@testable import CoreData
import Testing

/// `value as CVarArg`, the spelling tutorials use for `NSPredicate(format:)` arguments: it compiles
/// for `Date`, `UUID`, `URL`, `Data`, `Decimal`, collections and every `NSObject` (managed
/// objects and IDs included), as on Apple platforms, and C-variadic calls such as
/// `String(format:)` format those values with `%@` as Apple's `description` would, never crashing.
@Suite("CVarArg arguments")
struct FoundationCVarArgTests {
    private static let uuid = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!

    /// `%@` prints each value's Foundation `description`, repeatedly, so that an object freed too
    /// early would show.
    @Test func stringFormatPrintsTheDescriptions() {
        let cases: [(CVarArg, String)] = [
            (Date(timeIntervalSinceReferenceDate: 0) as CVarArg, "2001-01-01 00:00:00 +0000"),
            (Self.uuid as CVarArg, Self.uuid.uuidString),
            (URL(string: "https://example.com/a")! as CVarArg, "https://example.com/a"),
            (Decimal(string: "12.5")! as CVarArg, "12.5"),
            ([1, 2] as CVarArg, NSArray(array: [1, 2]).description),
            (Set(["a"]) as CVarArg, NSSet(array: ["a"]).description),
            (["k": 1] as CVarArg, NSDictionary(dictionary: ["k": 1]).description),
            (Data([1, 2]) as CVarArg, NSData(data: Data([1, 2])).description),
            (NSNumber(value: 3), "3"),
            (NSUUID(uuidString: Self.uuid.uuidString)!, NSUUID(uuidString: Self.uuid.uuidString)!.description),
            (NSNull(), "<null>"),
            (NSString(string: "ns"), "ns"),
            ("plain", "plain"),
        ]
        for _ in 0..<100 {
            for (argument, expected) in cases {
                #expect(String(format: "[%@]", argument) == "[\(expected)]")
            }
        }
        #expect(String(format: "%d %@ %.1f %@", 7, Self.uuid as CVarArg, 2.5, NSNumber(value: 9)) == "7 \(Self.uuid.uuidString) 2.5 9")
    }

    /// Managed objects and their IDs, as `NSPredicate(format: "movie == %@", movie as CVarArg)`
    /// and `objectID as CVarArg` write them, in a SQLite fetch and in `String(format:)`.
    @Test func managedObjectsAndIDs() throws {
        let stack = try CtxStack(model: MovieModel.make())
        try stack.context.performAndWait { () throws in
            let movie = ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            ctxInsert("Character", into: stack.context, ["name": "Ripley", "movie": movie])
            try stack.context.save()
            let characters = NSFetchRequest<NSManagedObject>(entityName: "Character")
            characters.predicate = NSPredicate(format: "movie == %@", movie as CVarArg)
            #expect(try stack.context.fetch(characters).count == 1)
            let movies = NSFetchRequest<NSManagedObject>(entityName: "Movie")
            movies.predicate = NSPredicate(format: "SELF == %@", movie.objectID as CVarArg)
            #expect(try stack.context.fetch(movies) == [movie])
            #expect(String(format: "%@", movie.objectID) == movie.objectID.description)
            #expect(String(format: "%@", movie) == movie.description)
        }
    }
}
