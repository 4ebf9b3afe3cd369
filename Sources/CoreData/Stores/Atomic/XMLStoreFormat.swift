/// The file format of the XML store (`NSXMLStoreType`), as Apple's Core Data writes it.
///
/// Apple does not document the format; what files written by Apple's Core Data show is
/// followed:
///
///     <?xml version="1.0" standalone="yes"?>
///     <!DOCTYPE database SYSTEM "file:///System/Library/DTDs/CoreData.dtd">
///
///     <database>
///         <databaseInfo>
///             <version>134481920</version>
///             <UUID>the store's UUID</UUID>
///             <nextObjectID>the last object number given out</nextObjectID>
///             <metadata><plist version="1.0"> the rest of the metadata </plist></metadata>
///         </databaseInfo>
///         <object type="ENTITY" id="z102">
///             <attribute name="year" type="int32">2006</attribute>
///             <relationship name="pictures" type="0/0" destination="PICTURE" idrefs="z103 z104"></relationship>
///         </object>
///     </database>
///
/// Entity names are written upper-cased and property names lower-cased, and read back without
/// regard to case. Object numbers are unique in the file. Nil attributes are left out. A
/// relationship's `type` is `1/1` for a to-one and `0/0` for a to-many, and its `idrefs` list
/// the destinations in order (for an ordered relationship, its order). Attribute value types
/// seen in Apple's files: `string`, `int16`, `int32`, `bool` (0 or 1), `float`, `date` (seconds
/// since 2001, with 20 decimals) and `binary` (Base64 in lines of 76 characters). The other
/// types' names are ours (see `XMLStoreValueCodec`).
enum XMLStoreFormat: AtomicStoreFileFormat {
    /// The constant of `<version>` in every file Apple's Core Data has been seen to write.
    static let version = "134481920"

    /// How the file's document is written.
    static let writingStyle = XMLDocumentElement.WritingStyle(
        prologue: "<?xml version=\"1.0\" standalone=\"yes\"?>\n<!DOCTYPE database SYSTEM \"file:///System/Library/DTDs/CoreData.dtd\">\n\n",
        closesEmptyElementsInTheTag: false
    )

    /// The `<database>` element of a file, and what its `<databaseInfo>` says.
    struct File {
        let database: XMLDocumentElement
        let metadata: [String: Any]
        let lastKey: Int64?
    }

    static func file(from data: Data, url: URL) throws -> File {
        let database: XMLDocumentElement
        do {
            database = try XMLDocumentParser.parse(Array(data))
        } catch {
            throw CoreDataError.storeOpen(url, "the file is not an XML store (line \(error.line): \(error.message)).")
        }
        guard database.name == "database", let information = database.child(named: "databaseInfo") else {
            throw CoreDataError.storeOpen(url, "the file is not an XML store.")
        }
        let lastKey = information.child(named: "nextObjectID").flatMap { Int64($0.text.trimmingCharacters(in: .whitespacesAndNewlines)) }
        return File(database: database, metadata: try metadata(of: information, url: url), lastKey: lastKey)
    }

    static func metadata(of file: File) -> [String: Any] {
        file.metadata
    }

    static func data(of file: File, replacingMetadataWith metadata: [String: Any]) throws -> Data {
        var database = file.database
        let information = try informationElement(metadata: metadata, lastKey: file.lastKey ?? 0)
        database.children = database.children.map { $0.name == "databaseInfo" ? information : $0 }
        return Data(database.document(writingStyle).utf8)
    }

    static func contents(of file: File, url: URL, model: NSManagedObjectModel) throws -> AtomicStoreContents {
        let reader = try XMLStoreObjectReader(database: file.database, model: model, url: url)
        return AtomicStoreContents(metadata: file.metadata, objects: try reader.objects(), lastKey: file.lastKey)
    }

    static func data(of contents: AtomicStoreContents) throws -> Data {
        var database = XMLDocumentElement(name: "database")
        database.children.append(try informationElement(metadata: contents.metadata, lastKey: contents.lastKey ?? 0))
        for object in contents.objects {
            database.children.append(try XMLStoreObjectWriter.element(of: object))
        }
        return Data(database.document(writingStyle).utf8)
    }

    /// An object's `id`: `z` and its number, or a string reference as it is.
    static func identifier(of key: Any) -> String {
        (key as? NSNumber).map { "z\($0.int64Value)" } ?? "\(key)"
    }

    /// The reference object an `id` names.
    static func key(of identifier: String) -> Any {
        identifier.first == "z" ? Int64(identifier.dropFirst()).map { NSNumber(value: $0) } ?? identifier : identifier
    }

    // MARK: Metadata

    /// The metadata: the property list of `<metadata>`, with the store's UUID and type.
    ///
    /// - Throws: `NSPersistentStoreOpenError` (134080) for metadata that is not a property list.
    private static func metadata(of information: XMLDocumentElement, url: URL) throws -> [String: Any] {
        var metadata: [String: Any] = [:]
        if let plist = information.child(named: "metadata")?.child(named: "plist") {
            let text = plist.document(XMLDocumentElement.WritingStyle(prologue: "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", closesEmptyElementsInTheTag: true))
            do {
                guard let dictionary = try PropertyListSerialization.propertyList(from: Data(text.utf8), format: nil) as? [String: Any] else {
                    throw CoreDataError.storeOpen(url, "the XML store's metadata is not a dictionary.")
                }
                metadata = dictionary
            } catch {
                throw CoreDataError.storeOpen(url, "the XML store's metadata is not a readable property list.", underlying: error)
            }
        }
        metadata[NSStoreTypeKey] = NSXMLStoreType
        if let uuid = information.child(named: "UUID")?.text, !uuid.isEmpty {
            metadata[NSStoreUUIDKey] = uuid
        }
        return metadata
    }

    /// `<databaseInfo>` for metadata: the UUID in its own element, the rest as a property list.
    private static func informationElement(metadata: [String: Any], lastKey: Int64) throws -> XMLDocumentElement {
        var listed = metadata
        listed[NSStoreUUIDKey] = nil
        listed[NSStoreTypeKey] = nil
        let plist: XMLDocumentElement
        do {
            let data = try PropertyListSerialization.data(fromPropertyList: listed, format: .xml, options: 0)
            plist = try XMLDocumentParser.parse(Array(data))
        } catch {
            throw CoreDataError.make(NSPersistentStoreSaveError, "The XML store's metadata cannot be written as a property list.", userInfo: [NSUnderlyingErrorKey: error])
        }
        return XMLDocumentElement(name: "databaseInfo", children: [
            XMLDocumentElement(name: "version", text: version),
            XMLDocumentElement(name: "UUID", text: metadata[NSStoreUUIDKey] as? String ?? ""),
            XMLDocumentElement(name: "nextObjectID", text: "\(lastKey)"),
            XMLDocumentElement(name: "metadata", children: [plist]),
        ])
    }
}
