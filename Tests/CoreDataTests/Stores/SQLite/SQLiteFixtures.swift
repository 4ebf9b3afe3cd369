import CoreData

/// A model that exercises Apple's SQLite layout rules (spec/store-format.md §2.3–2.6).
///
/// ```
/// account            title: String                          (lower-case name: numbering is case-insensitive)
///                    members: to-many Person  ⟷  Person.accounts (ordered to-many)   → join table
/// Person             name: String
///                    accounts: ordered to-many account
///                    vehicles: ORDERED to-many Vehicle  ⟷  Vehicle.owner (to-one)     → Z_FOK_OWNER
///                    favoriteVehicle: to-one Vehicle  ⟷  Vehicle.fans (to-many)       → typed column
/// Vehicle            plate: String, owner, fans
/// ├─ car             seats: Integer 16
/// │  └─ SportsCar    topSpeed: Double
/// └─ Truck           load: Double
/// ```
/// Apple's numbering (pre-order, case-insensitive name order): account 1, Person 2, Vehicle 3,
/// car 4, SportsCar 5, Truck 6.
enum SQLiteGarageModel {
    static func make() -> NSManagedObjectModel {
        let account = ModelFixtureKit.entity("account")
        let person = ModelFixtureKit.entity("Person")
        let vehicle = ModelFixtureKit.entity("Vehicle")
        let car = ModelFixtureKit.entity("car")
        let sportsCar = ModelFixtureKit.entity("SportsCar")
        let truck = ModelFixtureKit.entity("Truck")

        let members = ModelFixtureKit.relationship("members", to: person, maxCount: 0)
        let accounts = ModelFixtureKit.relationship("accounts", to: account, maxCount: 0, ordered: true)
        ModelFixtureKit.inverse(members, accounts)
        let vehicles = ModelFixtureKit.relationship("vehicles", to: vehicle, maxCount: 0, ordered: true)
        let owner = ModelFixtureKit.relationship("owner", to: person, maxCount: 1)
        ModelFixtureKit.inverse(vehicles, owner)
        let favorite = ModelFixtureKit.relationship("favoriteVehicle", to: vehicle, maxCount: 1)
        let fans = ModelFixtureKit.relationship("fans", to: person, maxCount: 0)
        ModelFixtureKit.inverse(favorite, fans)

        account.properties = [ModelFixtureKit.attribute("title", .stringAttributeType), members]
        person.properties = [ModelFixtureKit.attribute("name", .stringAttributeType), accounts, vehicles, favorite]
        vehicle.properties = [ModelFixtureKit.attribute("plate", .stringAttributeType), owner, fans]
        car.properties = [ModelFixtureKit.attribute("seats", .integer16AttributeType)]
        sportsCar.properties = [ModelFixtureKit.attribute("topSpeed", .doubleAttributeType)]
        truck.properties = [ModelFixtureKit.attribute("load", .doubleAttributeType)]

        vehicle.subentities = [car, truck]
        car.subentities = [sportsCar]
        // Deliberately not in name order: the numbering must not depend on declaration order.
        return ModelFixtureKit.model([vehicle, truck, sportsCar, person, car, account])
    }
}

/// One entity, `Sample`, with an optional attribute of every storable type, plus `key` to find rows.
enum SQLiteAllTypesModel {
    static let attributes: [(name: String, type: NSAttributeType)] = [
        ("key", .stringAttributeType),
        ("int16Value", .integer16AttributeType),
        ("int32Value", .integer32AttributeType),
        ("int64Value", .integer64AttributeType),
        ("decimalValue", .decimalAttributeType),
        ("doubleValue", .doubleAttributeType),
        ("floatValue", .floatAttributeType),
        ("stringValue", .stringAttributeType),
        ("boolValue", .booleanAttributeType),
        ("dateValue", .dateAttributeType),
        ("binaryValue", .binaryDataAttributeType),
        ("uuidValue", .UUIDAttributeType),
        ("uriValue", .URIAttributeType),
        ("transformableValue", .transformableAttributeType),
        ("defaultTransformableValue", .transformableAttributeType),
    ]

    static func make() -> NSManagedObjectModel {
        let sample = ModelFixtureKit.entity("Sample", attributes.map { ModelFixtureKit.attribute($0.name, $0.type) })
        if let secure = sample.attributesByName["transformableValue"] {
            secure.valueTransformerName = "NSSecureUnarchiveFromDataTransformer"
            secure.attributeValueClassName = "NSDictionary"
        }
        return ModelFixtureKit.model([sample])
    }
}
