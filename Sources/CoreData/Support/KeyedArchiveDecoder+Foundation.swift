// Building the Foundation classes of FoundationArchiveKind from an archived object's fields,
// in the layout Apple's and Linux's NSKeyedArchiver write, instead of calling Linux
// Foundation's init(coder:), which traps on malformed fields.
extension KeyedArchiveDecoder {
    /// Builds an instance of `kind` from the fields of the object being decoded; records a
    /// failure and returns `nil` if they do not describe one.
    func decodeFoundationObject(_ kind: FoundationArchiveKind) -> AnyObject? {
        switch kind {
        case .array: decodeElements().map { NSArray(array: $0) }
        case .mutableArray: decodeElements().map { NSMutableArray(array: $0) }
        case .set: decodeElements().map { NSSet(array: $0) }
        case .mutableSet: decodeElements().map { NSMutableSet(array: $0) }
        case .dictionary: decodeEntries().map { NSDictionary(objects: $0.values, forKeys: $0.keys) }
        case .mutableDictionary: decodeEntries().map { NSMutableDictionary(objects: $0.values, forKeys: $0.keys) }
        case .string: inlineString(forKey: "NS.string").map { NSString(string: $0) }
        case .mutableString: inlineString(forKey: "NS.string").map { NSMutableString(string: $0) }
        case .data: requiredData(forKey: "NS.data").map { NSData(data: $0) }
        case .mutableData: requiredData(forKey: "NS.data").map { NSMutableData(data: $0) }
        case .date: decodeDate()
        case .url: decodeURL()
        case .uuid: decodeUUID()
        case .null: NSNull()
        }
    }

    /// The elements of an array or set, under `NS.objects`, decoded with the classes the
    /// collection itself was admitted with (as Apple's collections decode their elements).
    private func decodeElements(forKey key: String = "NS.objects") -> [NSObject]? {
        let indexes: [Int]
        switch field(forKey: key) {
        case nil: indexes = []
        case .references(let references): indexes = references
        case .reference, .scalar:
            fail("the value for key '\(key)' is not an array of references")
            return nil
        }
        var elements: [NSObject] = []
        elements.reserveCapacity(indexes.count)
        for index in indexes {
            // A collection cannot hold nil, so "$null" (or a failed element) ends decoding.
            guard let element = object(at: index, allowedClasses: allowedClasses, key: key) as? NSObject else {
                fail("a collection's element under key '\(key)' is nil or could not be decoded")
                return nil
            }
            elements.append(element)
        }
        return elements
    }

    /// The keys (`NS.keys`) and values (`NS.objects`) of a dictionary, which must pair up.
    private func decodeEntries() -> (keys: [NSObject], values: [NSObject])? {
        guard let keys = decodeElements(forKey: "NS.keys"), let values = decodeElements(forKey: "NS.objects") else {
            return nil
        }
        guard keys.count == values.count else {
            fail("a dictionary has \(keys.count) keys but \(values.count) values")
            return nil
        }
        return (keys, values)
    }

    /// The text stored inline under `key` (how `NSMutableString` archives its contents).
    private func inlineString(forKey key: String) -> String? {
        guard case .scalar(.string(let string)) = field(forKey: key) else {
            fail("the value for key '\(key)' is not text")
            return nil
        }
        return string
    }

    /// The bytes under `key`, which must be present.
    private func requiredData(forKey key: String) -> Data? {
        guard let data = data(forKey: key) else {
            fail("the value for key '\(key)' is missing or not data")
            return nil
        }
        return data
    }

    /// An `NSDate` from `NS.time`, seconds since 2001 (zero when absent, as on Apple platforms).
    private func decodeDate() -> NSDate? {
        guard field(forKey: "NS.time") == nil || number(forKey: "NS.time") != nil else { return nil }
        return NSDate(timeIntervalSinceReferenceDate: decodeDouble(forKey: "NS.time"))
    }

    /// An `NSURL` from its string (`NS.relative`) and optional base URL (`NS.base`).
    ///
    /// The `NSURL` must also make a `URL` the way Linux Foundation bridges one (from its
    /// absolute string and base URL): `NSURL` accepts strings that `URL` rejects ("[:" becomes
    /// "%5B:"), and bridging such an `NSURL` to `URL`, which callers do, traps. So every `NSURL`
    /// decoded here, including `base`, bridges safely.
    private func decodeURL() -> NSURL? {
        let base = decodeObject(of: [NSURL.self], forKey: "NS.base") as? NSURL
        guard error == nil else { return nil }
        guard let relative = decodeObject(of: [NSString.self], forKey: "NS.relative") as? String else {
            fail("a URL has no string under key 'NS.relative'")
            return nil
        }
        guard let url = NSURL(string: relative, relativeTo: base.map { $0 as URL }),
              URL(string: url.absoluteString, relativeTo: url.baseURL) != nil else {
            fail("'\(relative)' is not a URL")
            return nil
        }
        return url
    }

    /// An `NSUUID` from its 16 bytes under `NS.uuidbytes`.
    private func decodeUUID() -> NSUUID? {
        guard let bytes = requiredData(forKey: "NS.uuidbytes") else { return nil }
        guard bytes.count == 16 else {
            fail("a UUID has \(bytes.count) bytes instead of 16")
            return nil
        }
        return NSUUID(uuidBytes: Array(bytes))
    }
}
