import CoreData
import Testing

/// The XML store's file is Apple's XML store format: files Apple's Core Data wrote are read, and
/// the files written have their shape.
@Suite struct XMLStoreTests {
    typealias Kit = ModelFixtureKit

    /// Vehicle and VehiclePicture, as in the store below (its property names were written
    /// lower-cased, so the model's camel case must match them without regard to case).
    private static func vehicleModel() -> NSManagedObjectModel {
        let vehicle = Kit.entity("Vehicle", [
            Kit.attribute("make", .stringAttributeType), Kit.attribute("model", .stringAttributeType),
            Kit.attribute("nickname", .stringAttributeType), Kit.attribute("year", .integer32AttributeType),
        ])
        let picture = Kit.entity("VehiclePicture", [
            Kit.attribute("pictureName", .stringAttributeType), Kit.attribute("sequence", .integer32AttributeType),
            Kit.attribute("taken", .dateAttributeType), Kit.attribute("imageData", .binaryDataAttributeType),
        ])
        let pictures = Kit.relationship("vehiclePictures", to: picture, maxCount: 0)
        let vehicleOfPicture = Kit.relationship("picturesForVehicle", to: vehicle, maxCount: 1)
        Kit.inverse(pictures, vehicleOfPicture)
        vehicle.properties.append(pictures)
        picture.properties.append(vehicleOfPicture)
        return Kit.model([vehicle, picture])
    }

    /// A store Apple's Core Data wrote (posted to a mailing list, 2006), with a date and a binary
    /// value written as Apple's files hold them added to its pictures. Its metadata is empty, as
    /// in files of that time, so it is opened ignoring versions.
    private static let applesFile = """
        <?xml version="1.0"?>
        <!DOCTYPE database SYSTEM "file:///System/Library/DTDs/CoreData.dtd">

        <database>
            <databaseInfo>
                <version>134481920</version>
                <UUID>343C8D7F-A000-42C4-8463-43FA1E5EF3FB</UUID>
                <nextObjectID>104</nextObjectID>
                <metadata></metadata>
            </databaseInfo>
            <object type="VEHICLEPICTURE" id="z103">
                <attribute name="picturename" type="string">picture_1</attribute>
                <attribute name="sequence" type="int32">0</attribute>
                <attribute name="taken" type="date">336046917.00164198875427246094</attribute>
                <relationship name="picturesforvehicle" type="1/1" destination="VEHICLE" idrefs="z102"></relationship>
            </object>
            <object type="VEHICLEPICTURE" id="z104">
                <attribute name="picturename" type="string">picture_2 picture name</attribute>
                <attribute name="sequence" type="int32">0</attribute>
                <attribute name="imagedata" type="binary">AAEC
                /w==
                </attribute>
                <relationship name="picturesforvehicle" type="1/1" destination="VEHICLE" idrefs="z102"></relationship>
            </object>
            <object type="VEHICLE" id="z102">
                <attribute name="make" type="string">manufacturer</attribute>
                <attribute name="model" type="string">model name</attribute>
                <attribute name="nickname" type="string">vehicle short name</attribute>
                <attribute name="year" type="int32">2006</attribute>
                <relationship name="vehiclepictures" type="0/0" destination="VEHICLEPICTURE" idrefs="z104 z103"></relationship>
            </object>
        </database>
        """

    @Test func aStoreWrittenByApplesCoreDataIsRead() throws {
        let directory = try CtxTemporaryDirectory()
        let url = directory.url.appendingPathComponent("Vehicles.xml")
        try Data(Self.applesFile.utf8).write(to: url)
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: Self.vehicleModel())
        let store = try coordinator.addPersistentStore(type: .xml, at: url, options: [NSIgnorePersistentStoreVersioningOption: true])
        #expect(store.identifier == "343C8D7F-A000-42C4-8463-43FA1E5EF3FB")
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            let vehicle = try #require(context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Vehicle")).first)
            #expect(vehicle.value(forKey: "year") as? Int == 2006)
            #expect(vehicle.value(forKey: "nickname") as? String == "vehicle short name")
            let pictures = try #require(vehicle.value(forKey: "vehiclePictures") as? Set<NSManagedObject>)
            let byName = Dictionary(uniqueKeysWithValues: pictures.map { ($0.value(forKey: "pictureName") as? String ?? "", $0) })
            #expect(byName.keys.sorted() == ["picture_1", "picture_2 picture name"])
            #expect((byName["picture_1"]?.value(forKey: "taken") as? Date)?.timeIntervalSinceReferenceDate == 336046917.00164198875427246094)
            #expect(byName["picture_2 picture name"]?.value(forKey: "imageData") as? Data == Data([0, 1, 2, 255]))
            #expect(byName["picture_1"]?.value(forKey: "picturesForVehicle") as? NSManagedObject === vehicle)

            // The file's counter says z104 was given out last.
            let picture = NSEntityDescription.insertNewObject(forEntityName: "VehiclePicture", into: context)
            picture.setValue(vehicle, forKey: "picturesForVehicle")
            try context.save()
            #expect(picture.objectID.uriRepresentation().lastPathComponent == "p105")
        }
    }

    @Test func aStoreIsWrittenInApplesFormat() throws {
        let directory = try CtxTemporaryDirectory()
        let url = directory.url.appendingPathComponent("Vehicles.xml")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: Self.vehicleModel())
        let store = try coordinator.addPersistentStore(type: .xml, at: url)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            let vehicle = NSEntityDescription.insertNewObject(forEntityName: "Vehicle", into: context)
            vehicle.setValue("Fish & <Chips>", forKey: "nickname")
            vehicle.setValue(2006, forKey: "year")
            let picture = NSEntityDescription.insertNewObject(forEntityName: "VehiclePicture", into: context)
            picture.setValue(Date(timeIntervalSinceReferenceDate: 336046917.5), forKey: "taken")
            picture.setValue(vehicle, forKey: "picturesForVehicle")
            try context.save()
        }
        let text = try String(contentsOf: url, encoding: .utf8)
        let expected = [
            "<?xml version=\"1.0\" standalone=\"yes\"?>\n<!DOCTYPE database SYSTEM \"file:///System/Library/DTDs/CoreData.dtd\">\n\n<database>\n    <databaseInfo>\n",
            "        <version>134481920</version>\n        <UUID>\(store.identifier ?? "")</UUID>\n        <nextObjectID>2</nextObjectID>\n",
            "<metadata>\n            <plist version=\"1.0\">\n", "<key>NSStoreModelVersionHashes</key>",
            "    <object type=\"VEHICLE\" id=\"z1\">\n",
            "        <attribute name=\"nickname\" type=\"string\">Fish &amp; &lt;Chips&gt;</attribute>\n",
            "        <attribute name=\"year\" type=\"int32\">2006</attribute>\n",
            "        <relationship name=\"vehiclepictures\" type=\"0/0\" destination=\"VEHICLEPICTURE\" idrefs=\"z2\"></relationship>\n",
            "        <attribute name=\"taken\" type=\"date\">336046917.50000000000000000000</attribute>\n",
            "        <relationship name=\"picturesforvehicle\" type=\"1/1\" destination=\"VEHICLE\" idrefs=\"z1\"></relationship>\n",
        ]
        for fragment in expected {
            #expect(text.contains(fragment), "\(fragment)")
        }
        #expect(!text.contains("<attribute name=\"make\""), "nil attributes are left out")
        #expect(!text.contains("<key>NSStoreUUID</key>"), "the UUID has its own element")
    }

    /// XML cannot hold every character: a string with one it does not allow is refused at save,
    /// rather than written into a file no XML reader accepts, and the file stays as it was.
    @Test func aStringWithACharacterXMLDoesNotAllowIsRefusedAtSave() throws {
        let directory = try CtxTemporaryDirectory()
        let url = directory.url.appendingPathComponent("Vehicles.xml")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: Self.vehicleModel())
        try coordinator.addPersistentStore(type: .xml, at: url)
        let before = try Data(contentsOf: url)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            let vehicle = NSEntityDescription.insertNewObject(forEntityName: "Vehicle", into: context)
            vehicle.setValue("bell\u{7}", forKey: "nickname")
            #expect { try context.save() } throws: { ($0 as NSError).code == NSPersistentStoreSaveError }
            #expect(vehicle.isInserted)
            #expect(try Data(contentsOf: url) == before)
            vehicle.setValue("bell", forKey: "nickname")
            try context.save()
        }
        #expect(try String(contentsOf: url, encoding: .utf8).contains(">bell</attribute>"))
    }
}
