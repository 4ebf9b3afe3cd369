import Foundation
import SwiftData
import Testing

// Venues: a model whose `Codable` structures SwiftData stores as composite attributes, as Apple's
// SwiftData does: a column per member, named after the member.
struct VenueCoordinate: Codable, Equatable {
    var latitude: Double
    var longitude: Double
}

struct VenueAddress: Codable, Equatable {
    var street: String
    var city: String
    var postcode: Int?
    var location: VenueCoordinate
}

@Model final class Venue {
    var name: String
    var address: VenueAddress
    var billing: VenueAddress?

    init(name: String, address: VenueAddress, billing: VenueAddress? = nil) {
        self.name = name
        self.address = address
        self.billing = billing
    }
}

struct OpeningHours: Codable, Equatable {
    var opens: Int?
    var closes: Int?
}

@Model final class Shop {
    var name: String
    var hours: OpeningHours
    init(name: String, hours: OpeningHours) {
        self.name = name
        self.hours = hours
    }
}

@Suite struct CompositeStructureTests {
    let store = TemporaryStore()

    static let louvre = VenueAddress(street: "Rue de Rivoli", city: "Paris", postcode: 75001, location: VenueCoordinate(latitude: 48.86, longitude: 2.34))
    static let prado = VenueAddress(street: "Calle de Ruiz de Alarcón", city: "Madrid", postcode: nil, location: VenueCoordinate(latitude: 40.41, longitude: -3.69))

    private func makeContainer() throws -> ModelContainer {
        try ModelContainer(for: Venue.self, configurations: ModelConfiguration(url: store.url))
    }

    private func saveVenues() throws {
        let context = ModelContext(try makeContainer())
        context.insert(Venue(name: "Louvre", address: Self.louvre, billing: Self.prado))
        context.insert(Venue(name: "Prado", address: Self.prado))
        try context.save()
    }

    @Test func eachMemberIsAColumnNamedAfterIt() throws {
        try saveVenues()
        let columns = try StoreFile.columns(store.url, table: "ZVENUE")
        #expect(columns == ["Z_PK", "Z_ENT", "Z_OPT", "ZSTREET", "ZCITY", "ZPOSTCODE", "ZLATITUDE", "ZLONGITUDE",
                            "ZSTREET1", "ZCITY1", "ZPOSTCODE1", "ZLATITUDE1", "ZLONGITUDE1", "ZNAME"])
        let louvre = try StoreFile.rows(store.url, "SELECT ZCITY, ZPOSTCODE, ZLONGITUDE, ZCITY1, ZPOSTCODE1 FROM ZVENUE WHERE ZNAME = 'Louvre'", width: 5)
        #expect(louvre == [["Paris", "75001", "2.34", "Madrid", "NULL"]])
    }

    @Test func structuresAreReadBackByANewContainer() throws {
        try saveVenues()
        let venues = try ModelContext(try makeContainer()).fetch(FetchDescriptor<Venue>(sortBy: [SortDescriptor(\.name)]))
        #expect(venues.map(\.address) == [Self.louvre, Self.prado])
        #expect(venues.map(\.billing) == [Self.prado, nil])
    }

    @Test func predicatesAndSortsReachTheMembers() throws {
        try saveVenues()
        let context = ModelContext(try makeContainer())
        let inParis = FetchDescriptor<Venue>(predicate: #Predicate { $0.address.city == "Paris" })
        #expect(try context.fetch(inParis).map(\.name) == ["Louvre"])
        let west = FetchDescriptor<Venue>(predicate: #Predicate { $0.address.location.longitude < 0 })
        #expect(try context.fetch(west).map(\.name) == ["Prado"])
        let billedInMadrid = FetchDescriptor<Venue>(predicate: #Predicate { $0.billing?.city == "Madrid" })
        #expect(try context.fetch(billedInMadrid).map(\.name) == ["Louvre"])
        let byLatitude = FetchDescriptor<Venue>(sortBy: [SortDescriptor(\.address.location.latitude)])
        #expect(try context.fetch(byLatitude).map(\.name) == ["Prado", "Louvre"])
    }

    @Test func aChangedStructureIsSavedAgain() throws {
        try saveVenues()
        let context = ModelContext(try makeContainer())
        let prado = try #require(try context.fetch(FetchDescriptor<Venue>(predicate: #Predicate { $0.name == "Prado" })).first)
        prado.address.postcode = 28014
        try context.save()
        #expect(try StoreFile.rows(store.url, "SELECT ZPOSTCODE FROM ZVENUE WHERE ZNAME = 'Prado'", width: 1) == [["28014"]])
    }

    @Test func aStructureOfNilMembersIsReadBackAndSavesAgain() throws {
        let container = try ModelContainer(for: Shop.self, configurations: ModelConfiguration(url: store.url))
        let context = ModelContext(container)
        context.insert(Shop(name: "Closed", hours: OpeningHours(opens: nil, closes: nil)))
        try context.save()
        let other = ModelContext(container)
        let shop = try #require(try other.fetch(FetchDescriptor<Shop>()).first)
        #expect(shop.hours == OpeningHours(opens: nil, closes: nil))
        shop.name = "Still closed"
        try other.save()
    }
}
