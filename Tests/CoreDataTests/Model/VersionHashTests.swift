@testable import CoreData
import Testing

// Version hashes, checked against literal test vectors computed OUTSIDE the library with Python's
// hashlib from the byte layouts of spec/store-format.md §3.1–3.3 (all integers little-endian,
// strings UTF-8 without terminator or length prefix):
//
//   base(p)   = SHA256( name || u16(flags: bit0 isOptional, bit1 isTransient) || modifier? )
//   attr(a)   = SHA256( base(a) || u32(NSAttributeType raw value) || [01 if preservesValueInHistoryOnDeletion] )
//   rel(r)    = SHA256( base(r) || destination name || inverse name? || u32(maxCount) || u32(minCount)
//                       || [01 00 if ordered] )            (to-many unbounded: max 0; Int.max → FFFFFFFF)
//   entity(e) = SHA256( name || u8(isAbstract) || entity(superentity)?
//                       || hash(p) for every non-transient attribute/relationship, inherited included,
//                          sorted by name in code-point order
//                       || entity versionHashModifier?
//                       || each own uniqueness constraint joined with ".", sorted, non-empty )
//   digest    = base64( SHA512( for names in code-point order: name || entity hash ) )
//   checksum  = base64( SHA256( for names in code-point order: entity hash ) )
//
// The script (kept out of the repository) is essentially:
//   def base(n, opt, tr=False, mod=None): return sha256(n.encode() + pack('<H', opt | tr << 1) + (mod or '').encode())
//   def attr(n, t, opt, mod=None, keep=False): return sha256(base(n, opt, False, mod) + pack('<I', t) + (b'\1' if keep else b''))
//   def rel(n, opt, dest, inv, mx, mn, ordered=False):
//       return sha256(base(n, opt) + dest.encode() + (inv or '').encode() + pack('<II', mx & 0xFFFFFFFF, mn) + (b'\1\0' if ordered else b''))

@Suite("Version hashes (spec §3.1–3.3)")
struct VersionHashTests {
    // MARK: Property base hash (§3.1.1)

    private func property(_ name: String, optional: Bool, transient: Bool = false, modifier: String? = nil) -> NSAttributeDescription {
        let attribute = NSAttributeDescription()
        attribute.name = name
        attribute.attributeType = .stringAttributeType
        attribute.isOptional = optional
        attribute.isTransient = transient
        attribute.versionHashModifier = modifier
        return attribute
    }

    @Test("base hash: name || u16 flags 00 00 (required, persistent)")
    func baseRequired() {
        // SHA256("title" 00 00)
        #expect(Data(VersionHash.base(property("title", optional: false))).hashTestHex
                == "722335ce2829c8d4941030eba0200fa9adf82fdc0b73af682b41f1da29c08f37")
    }

    @Test("base hash: optional sets bit 0 (01 00)")
    func baseOptional() {
        #expect(Data(VersionHash.base(property("title", optional: true))).hashTestHex
                == "0397aa96725bae2f8f6b826a9e84add445339b3d020c4a9473594914106fb5b8")
    }

    @Test("base hash: transient sets bit 1 (02 00), both give 03 00")
    func baseTransient() {
        #expect(Data(VersionHash.base(property("title", optional: false, transient: true))).hashTestHex
                == "89c851f3e0c57a101ece85e53edd2c2b190c833d65f7ecb3ece24e8aba6af538")
        #expect(Data(VersionHash.base(property("title", optional: true, transient: true))).hashTestHex
                == "ba98c19afc19d327e04622a74cea46da30c4100c5e397bb1d19f1255814cc2ca")
    }

    @Test("base hash: versionHashModifier is appended after the flags")
    func baseModifier() {
        // SHA256("title" 01 00 "v2")
        #expect(Data(VersionHash.base(property("title", optional: true, modifier: "v2"))).hashTestHex
                == "ce2346a599c87789bd97e8ee141e6eb037db8b954f8ca31abd0714e803264715")
        // An empty modifier contributes no bytes: same as no modifier.
        #expect(Data(VersionHash.base(property("title", optional: true, modifier: ""))).hashTestHex
                == "0397aa96725bae2f8f6b826a9e84add445339b3d020c4a9473594914106fb5b8")
    }

    // MARK: Attribute hash (§3.1.2)

    private func attribute(_ name: String, _ type: NSAttributeType, optional: Bool, modifier: String? = nil, preserve: Bool = false) -> NSAttributeDescription {
        let attribute = NSAttributeDescription()
        attribute.name = name
        attribute.attributeType = type
        attribute.isOptional = optional
        attribute.versionHashModifier = modifier
        attribute.preservesValueInHistoryOnDeletion = preserve
        return attribute
    }

    @Test("attribute hash: base || u32 type code")
    func attributeTypeCode() {
        // SHA256(base("title", required) || BC 02 00 00)   (700 = 0x2BC)
        #expect(attribute("title", .stringAttributeType, optional: false).versionHash.hashTestHex
                == "4abd1a08114b450802745e4b10da04f2afb71e7cf7b2d53ab19a21a2d75c2568")
        // SHA256(base("count", optional) || 64 00 00 00)    (100)
        #expect(attribute("count", .integer16AttributeType, optional: true).versionHash.hashTestHex
                == "00675f2c8a75d631091120b1ea98a022f04d66ea9cc7ee2ee7ba69acf98d9368")
        // UUID 1100 = 0x44C, Transformable 1800 = 0x708
        #expect(attribute("identifier", .UUIDAttributeType, optional: true).versionHash.hashTestHex
                == "bb1cfcadb38818e7592beefa209da3c46695d3e1ea8da5aa311796f0cf76bcb2")
        #expect(attribute("payload", .transformableAttributeType, optional: true).versionHash.hashTestHex
                == "e080951545809a25f337e16b5420f486a6c2b8e7f93811346414299c46ba1520")
    }

    @Test("attribute hash: modifier goes into the base hash")
    func attributeModifier() {
        #expect(attribute("title", .stringAttributeType, optional: false, modifier: "v2").versionHash.hashTestHex
                == "cf85dc751dd26f9cf4847b0a2ad9d50f48afc4972625a22f32e2db9cbf7e9f2a")
    }

    @Test("attribute hash: preservesValueInHistoryOnDeletion appends one 01 byte")
    func attributePreserve() {
        #expect(attribute("isbn", .stringAttributeType, optional: true, preserve: true).versionHash.hashTestHex
                == "933bbced4c5f611f101697c2b8743427781ebc3db1dc8dad0a61c5ff8e403d05")
    }

    /// Apple's own hashes show the byte: every store of wireapp/wire-ios-data-model's
    /// `Tests/Resources` written with a model whose `User` has `allowsExternalBinaryDataStorage`
    /// attributes (frameworks 641 to 866) stores the `User` hash this layout gives, and only it.
    @Test("attribute hash: allowsExternalBinaryDataStorage appends one 01 byte")
    func attributeExternalStorage() {
        let value = attribute("photo", .binaryDataAttributeType, optional: true)
        #expect(value.versionHash.hashTestHex == "f58c9041f3d4ec66da48580354ffbfe490da7830d488293eb80b1e38ad9eacf0")
        value.allowsExternalBinaryDataStorage = true
        // SHA256(base("photo", optional) || E8 03 00 00 || 01)
        #expect(value.versionHash.hashTestHex == "60f200c81238248b51a6405b33f8a327dec1999ec898f8a19cab0a45073bd82a")
        value.preservesValueInHistoryOnDeletion = true
        // … || 01 || 01: both flags add one byte each.
        #expect(value.versionHash.hashTestHex == "6b4fa9d9d7d504745c790083f785105bbf6ba541284b16e4c38531442a5cdbed")
    }

    @Test("the internal attribute hash and the public versionHash agree")
    func attributeInternalMatchesPublic() {
        let value = attribute("title", .stringAttributeType, optional: false)
        #expect(Data(VersionHash.attribute(value)) == value.versionHash)
        #expect(Data(VersionHash.property(value)) == value.versionHash)
    }

    // MARK: Relationship hash (§3.1.3)

    /// A relationship from a throw-away source to an entity named `destination`, with an inverse named `inverse`.
    private func relationship(_ name: String, optional: Bool, destination: String, inverse: String?, maxCount: Int, minCount: Int, ordered: Bool = false) -> (NSRelationshipDescription, NSManagedObjectModel) {
        let source = NSEntityDescription()
        source.name = "Source"
        let target = NSEntityDescription()
        target.name = destination
        let relationship = NSRelationshipDescription()
        relationship.name = name
        relationship.isOptional = optional
        relationship.destinationEntity = target
        relationship.maxCount = maxCount
        relationship.minCount = minCount
        relationship.isOrdered = ordered
        var targetProperties: [NSPropertyDescription] = []
        if let inverse {
            let back = NSRelationshipDescription()
            back.name = inverse
            back.destinationEntity = source
            back.maxCount = 0
            back.inverseRelationship = relationship
            relationship.inverseRelationship = back
            targetProperties.append(back)
        }
        source.properties = [relationship]
        target.properties = targetProperties
        let model = NSManagedObjectModel()
        model.entities = [source, target]
        return (relationship, model)
    }

    @Test("relationship hash: to-one, required, minCount 1 → … 'Author' 'books' 01000000 01000000")
    func relationshipToOne() {
        let (value, model) = relationship("author", optional: false, destination: "Author", inverse: "books", maxCount: 1, minCount: 1)
        #expect(value.versionHash.hashTestHex == "26ad7a96ba08389896ffaba0c5b44e2ec3bdab2b3781e4ed35fa71c38c038a5c")
        withExtendedLifetime(model) {}
    }

    @Test("relationship hash: unbounded to-many writes maxCount 0")
    func relationshipToManyUnbounded() {
        let (value, model) = relationship("books", optional: true, destination: "Book", inverse: "author", maxCount: 0, minCount: 0)
        #expect(value.versionHash.hashTestHex == "0b0bc887e4f05f7c20846674ea2e87e615d4fa54d2df8dbfd747af7b053c65f2")
        withExtendedLifetime(model) {}
    }

    @Test("relationship hash: ordered appends 01 00")
    func relationshipOrdered() {
        let (value, model) = relationship("shelves", optional: true, destination: "Shelf", inverse: "books", maxCount: 0, minCount: 0, ordered: true)
        #expect(value.versionHash.hashTestHex == "086e3b8abfab5840bbaa1887575b100f29bcd23f86d4b484e455c4926379ed7c")
        withExtendedLifetime(model) {}
    }

    @Test("relationship hash: maxCount Int.max truncates to FFFFFFFF; no inverse adds no bytes")
    func relationshipIntMax() {
        let (value, model) = relationship("awards", optional: true, destination: "Shelf", inverse: nil, maxCount: Int.max, minCount: 2)
        #expect(value.versionHash.hashTestHex == "a934acc3975899bb62a71b31a9362e525487b6cd1031818cf17a31783353c54c")
        withExtendedLifetime(model) {}
    }

    @Test("relationship hash: bounded to-many (max 10000, min 1)")
    func relationshipBounded() {
        let (value, model) = relationship("books", optional: true, destination: "Book", inverse: "shelves", maxCount: 10000, minCount: 1)
        #expect(value.versionHash.hashTestHex == "077716c65da6c64bd0c9af4bb2db6a610c1b34615a91c629b7b28032db3622c9")
        withExtendedLifetime(model) {}
    }

    @Test("relationship hash: to-one without inverse")
    func relationshipNoInverse() {
        let (value, model) = relationship("favorite", optional: true, destination: "Shelf", inverse: nil, maxCount: 1, minCount: 0)
        #expect(value.versionHash.hashTestHex == "680288cde30be2be99030d2e585106afbfc127c55ef4702ebf2b444ec6086bfc")
        withExtendedLifetime(model) {}
    }

    // MARK: Entity hash (§3.1.6)

    @Test("entity hashes of the vector model", arguments: ["Media", "Book", "Comic", "Author", "Shelf"])
    func entityVectors(name: String) throws {
        let model = HashVectorModel.make()
        let entity = try #require(model.entitiesByName[name])
        #expect(entity.versionHash.hashTestHex == HashVectorModel.expectedEntityHashes[name])
    }

    @Test("entityVersionHashesByName holds every entity, abstract and sub-entities included")
    func entityVersionHashesByName() {
        let model = HashVectorModel.make()
        let hashes = model.entityVersionHashesByName
        #expect(Set(hashes.keys) == Set(HashVectorModel.expectedEntityHashes.keys))
        for (name, hex) in HashVectorModel.expectedEntityHashes {
            #expect(hashes[name]?.hashTestHex == hex, "entity \(name)")
            #expect(hashes[name]?.count == 32)
        }
    }

    @Test("an entity with no properties: name || abstract byte")
    func emptyEntity() {
        let plain = NSEntityDescription()
        plain.name = "Empty"
        // SHA256("Empty" 00)
        #expect(plain.versionHash.hashTestHex == "f019701373eabe1e3c1f44e204705a843c59c9659f7e5d520a8e92399a99bc4f")
        let abstract = NSEntityDescription()
        abstract.name = "Empty"
        abstract.isAbstract = true
        // SHA256("Empty" 01)
        #expect(abstract.versionHash.hashTestHex == "583b3550f1d93e5c4936feb0520177ed5b972503c16320f0f2adfa98e69691bc")
    }

    @Test("properties are sorted in code-point order, not case-insensitively")
    func codePointOrder() throws {
        // Media's vector hashes "Zeta" before "createdAt" ('Z' = 0x5A < 'c' = 0x63). Declaring the
        // properties in the other order must not matter.
        let model = HashVectorModel.make()
        let media = try #require(model.entitiesByName["Media"])
        let reversed = NSEntityDescription()
        reversed.name = "Media"
        reversed.isAbstract = true
        reversed.properties = media.properties.reversed().compactMap { $0.copy() as? NSPropertyDescription }
        #expect(reversed.versionHash == media.versionHash)
        #expect(reversed.versionHash.hashTestHex == HashVectorModel.expectedEntityHashes["Media"])
    }

    @Test("uniqueness constraints are order-independent (sorted) and only the entity's own count")
    func constraintsSorted() throws {
        let model = HashVectorModel.make()
        let book = try #require(model.entitiesByName["Book"])
        let before = book.versionHash
        book.uniquenessConstraints = [["isbn"], ["title", "isbn"]]
        #expect(book.versionHash == before)
        // Comic inherits Book's constraints through Book's hash only.
        let comic = try #require(model.entitiesByName["Comic"])
        #expect(comic.versionHash.hashTestHex == HashVectorModel.expectedEntityHashes["Comic"])
        // Joining order inside one constraint matters ("isbn.title" ≠ "title.isbn").
        book.uniquenessConstraints = [["isbn", "title"], ["isbn"]]
        #expect(book.versionHash != before)
    }

    // MARK: Derived attributes (§3.1.4)

    private func derived(_ name: String, _ type: NSAttributeType, optional: Bool, expression: NSExpression) -> NSDerivedAttributeDescription {
        let attribute = NSDerivedAttributeDescription()
        attribute.name = name
        attribute.attributeType = type
        attribute.isOptional = optional
        attribute.derivationExpression = expression
        return attribute
    }

    @Test("derived attribute: SHA256(predicateFormat of the derivation) only; name, type and optionality do not count")
    func derivedKeyPath() {
        // SHA256("name")
        let expected = "82a3537ff0dbce7eec35d69edc3a189ee6f17d82f353a553f9aa96cb0be3ce89"
        #expect(derived("nameCopy", .stringAttributeType, optional: true, expression: NSExpression(forKeyPath: "name")).versionHash.hashTestHex == expected)
        #expect(derived("other", .integer64AttributeType, optional: false, expression: NSExpression(forKeyPath: "name")).versionHash.hashTestHex == expected)
    }

    @Test("derived attribute: pages.@count hashes as its function form count:(pages)")
    func derivedCount() {
        // SHA256("count:(pages)"), verified against Apple-written stores (spec §3.1.4).
        let attribute = derived("pagesCount", .integer64AttributeType, optional: true, expression: NSExpression(forKeyPath: "pages.@count"))
        #expect(attribute.versionHash.hashTestHex == "50081597fb1d6648429c1b37f73bc6bf63299d160cd6f0d555919fd143a9296e")
    }

    @Test("an entity hash includes a derived attribute through its derivation hash")
    func entityWithDerived() {
        let entity = NSEntityDescription()
        entity.name = "Item"
        let name = NSAttributeDescription()
        name.name = "name"
        name.attributeType = .stringAttributeType
        name.isOptional = true
        entity.properties = [derived("nameCopy", .stringAttributeType, optional: true, expression: NSExpression(forKeyPath: "name")), name]
        // SHA256("Item" 00 || attr(name) || SHA256("name"))
        #expect(entity.versionHash.hashTestHex == "01fcfdc9b6dca690aaac04cc4d9822f98418a6d47348bab2e5ac9750cd6acf98")
    }

    @Test("uniqueness constraints may name properties by string or by description")
    func constraintsWithDescriptions() throws {
        let model = HashVectorModel.make()
        let book = try #require(model.entitiesByName["Book"])
        let title = try #require(book.attributesByName["title"])
        let isbn = try #require(book.attributesByName["isbn"])
        book.uniquenessConstraints = [[title, isbn], [isbn]]
        #expect(book.versionHash.hashTestHex == HashVectorModel.expectedEntityHashes["Book"])
    }

    // MARK: Model digest and checksum (§3.3)

    @Test("NSStoreModelVersionHashesDigest and checksum of the vector model")
    func modelDigestAndChecksum() {
        let hashes = HashVectorModel.make().entityVersionHashesByName
        let digest = VersionHash.modelDigest(hashes)
        let checksum = VersionHash.modelChecksum(hashes)
        #expect(digest == HashVectorModel.expectedDigest)
        #expect(digest.count == 88)
        #expect(checksum == HashVectorModel.expectedChecksum)
        #expect(checksum.count == 44)
    }

    @Test("digest and checksum sort names by code point (SyncFeatureEntity before SyncableSettingsMetadata)")
    func digestOrder() {
        // Synthetic hashes; names sorted by code point: B, SyncFeatureEntity, SyncableSettingsMetadata, a, b.
        let hashes: [String: Data] = [
            "b": Data(repeating: 1, count: 32),
            "B": Data(repeating: 2, count: 32),
            "a": Data(repeating: 3, count: 32),
            "SyncableSettingsMetadata": Data(repeating: 4, count: 32),
            "SyncFeatureEntity": Data(repeating: 5, count: 32),
        ]
        #expect(VersionHash.modelDigest(hashes) == "FWgDzC6fSHFKSZ5TdBTYaf5FCzbqdBS2j+4q1S+JCc/51C5LvPX6h35X3pB0YmPSMjRD5kQUcvaR2MDjnu/BHA==")
        #expect(VersionHash.modelChecksum(hashes) == "+fS4P4G06IySRd06QeR9eDY0LvqV54ii7C3IHcD9S/o=")
    }

    @Test("digest and checksum of an empty model are those of empty input")
    func emptyDigest() {
        #expect(VersionHash.modelDigest([:]) == "z4PhNX7vuL3xVChQ1m2AB9Yg5AULVxXcg/SpIdNs6c5H0NE8XYXysP+DGNKHfuwvY7kxvUdBeoGlODJ6+SfaPg==")
        #expect(VersionHash.modelChecksum([:]) == "47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=")
    }

    // MARK: What does not change the hash

    /// Applies `change` to a fresh vector model and returns the entity hashes before and after.
    private func hashes(afterChanging change: (NSManagedObjectModel) throws -> Void) rethrows -> (before: [String: Data], after: [String: Data]) {
        let model = HashVectorModel.make()
        let before = model.entityVersionHashesByName
        try change(model)
        return (before, model.entityVersionHashesByName)
    }

    private func book(_ model: NSManagedObjectModel) -> NSEntityDescription { model.entitiesByName["Book"]! }
    private func author(_ model: NSManagedObjectModel) -> NSEntityDescription { model.entitiesByName["Author"]! }

    @Test("userInfo (entity, attribute, relationship) is not hashed")
    func userInfoNotHashed() {
        let (before, after) = hashes { model in
            book(model).userInfo = ["key": "value"]
            book(model).attributesByName["title"]?.userInfo = ["a": 1]
            author(model).relationshipsByName["books"]?.userInfo = ["r": true]
        }
        #expect(before == after)
    }

    @Test("defaultValue is not hashed")
    func defaultValueNotHashed() {
        let (before, after) = hashes { model in
            book(model).attributesByName["title"]?.defaultValue = "Untitled"
            model.entitiesByName["Media"]?.attributesByName["Zeta"]?.defaultValue = 42
        }
        #expect(before == after)
    }

    @Test("deleteRule is not hashed")
    func deleteRuleNotHashed() {
        let (before, after) = hashes { model in
            author(model).relationshipsByName["books"]?.deleteRule = .cascadeDeleteRule
            book(model).relationshipsByName["author"]?.deleteRule = .denyDeleteRule
        }
        #expect(before == after)
    }

    @Test("renamingIdentifier (entity and property) is not hashed")
    func renamingIdentifierNotHashed() {
        let (before, after) = hashes { model in
            book(model).renamingIdentifier = "Volume"
            book(model).attributesByName["isbn"]?.renamingIdentifier = "code"
            author(model).relationshipsByName["favorite"]?.renamingIdentifier = "preferred"
        }
        #expect(before == after)
    }

    @Test("managedObjectClassName is not hashed")
    func classNameNotHashed() {
        let (before, after) = hashes { model in
            book(model).managedObjectClassName = "MyApp.Book"
        }
        #expect(before == after)
    }

    @Test("validation predicates are not hashed")
    func validationNotHashed() {
        let (before, after) = hashes { model in
            book(model).attributesByName["title"]?.setValidationPredicates(
                [NSPredicate(format: "length > 2")], withValidationWarnings: ["too short"]
            )
        }
        #expect(before == after)
    }

    @Test("fetch indexes and isIndexed are not hashed")
    func indexesNotHashed() {
        let (before, after) = hashes { model in
            let title = book(model).attributesByName["title"]!
            let element = NSFetchIndexElementDescription(property: title, collationType: .binary)
            book(model).indexes = [NSFetchIndexDescription(name: "byTitle", elements: [element])]
            author(model).attributesByName["name"]?.isIndexed = true
        }
        #expect(before == after)
    }

    @Test("valueTransformerName, attributeValueClassName, spotlight and cloud encryption flags are not hashed")
    func transformerNotHashed() {
        let (before, after) = hashes { model in
            let label = model.entitiesByName["Shelf"]!.attributesByName["label"]!
            label.valueTransformerName = "NSSecureUnarchiveFromDataTransformer"
            label.attributeValueClassName = "NSString"
            label.isIndexedBySpotlight = true
            label.allowsCloudEncryption = true
        }
        #expect(before == after)
    }

    @Test("fetched and transient properties are not hashed; configuration membership is not hashed")
    func fetchedAndTransientNotHashed() {
        let (before, after) = hashes { model in
            let transient = NSAttributeDescription()
            transient.name = "scratch"
            transient.attributeType = .integer64AttributeType
            transient.isTransient = true
            let fetched = NSFetchedPropertyDescription()
            fetched.name = "related"
            fetched.fetchRequest = NSFetchRequest<NSFetchRequestResult>(entityName: "Author")
            author(model).properties = author(model).properties + [transient, fetched]
            model.setEntities([author(model)], forConfigurationName: "Authors")
        }
        #expect(before == after)
    }

    // MARK: What changes the hash

    @Test("making a persistent property transient removes it from the entity hash")
    func transientChangesEntityHash() {
        let (before, after) = hashes { model in
            author(model).attributesByName["name"]?.isTransient = true
        }
        #expect(before["Author"] != after["Author"])
        #expect(before["Book"] == after["Book"])
    }

    @Test("a superentity change reaches the sub-entities through the parent hash")
    func parentChangePropagates() {
        let (before, after) = hashes { model in
            model.entitiesByName["Media"]?.versionHashModifier = "2"
        }
        #expect(before["Media"] != after["Media"])
        #expect(before["Book"] != after["Book"])
        #expect(before["Comic"] != after["Comic"])
        #expect(before["Author"] == after["Author"])
    }

    @Test("each hashed input changes the entity hash")
    func hashedInputs() {
        let changes: [(String, (NSManagedObjectModel) -> Void)] = [
            ("attribute type", { $0.entitiesByName["Shelf"]!.attributesByName["label"]!.attributeType = .URIAttributeType }),
            ("optionality", { $0.entitiesByName["Shelf"]!.attributesByName["label"]!.isOptional = false }),
            ("property modifier", { $0.entitiesByName["Shelf"]!.attributesByName["label"]!.versionHashModifier = "x" }),
            ("preserve in history", { $0.entitiesByName["Shelf"]!.attributesByName["label"]!.preservesValueInHistoryOnDeletion = true }),
            ("ordered", { $0.entitiesByName["Shelf"]!.relationshipsByName["books"]!.isOrdered = true }),
            ("maxCount", { $0.entitiesByName["Shelf"]!.relationshipsByName["books"]!.maxCount = 9999 }),
            ("minCount", { $0.entitiesByName["Shelf"]!.relationshipsByName["books"]!.minCount = 0 }),
            ("abstract", { $0.entitiesByName["Shelf"]!.isAbstract = true }),
            ("entity modifier", { $0.entitiesByName["Shelf"]!.versionHashModifier = "x" }),
            ("uniqueness constraint", { $0.entitiesByName["Shelf"]!.uniquenessConstraints = [["label"]] }),
            ("inverse", { model in
                let shelf = model.entitiesByName["Shelf"]!
                shelf.relationshipsByName["books"]!.inverseRelationship = nil
            }),
        ]
        for (label, change) in changes {
            let (before, after) = hashes(afterChanging: change)
            #expect(before["Shelf"] != after["Shelf"], "changing \(label) must change Shelf's hash")
        }
    }
}
