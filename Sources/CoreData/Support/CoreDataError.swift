/// Builds the `NSError`s Core Data reports, all in `NSCocoaErrorDomain`.
enum CoreDataError {
    /// An error with Apple's `code`, a readable description, and extra userInfo entries.
    static func make(_ code: Int, _ description: String, userInfo: [String: Any] = [:]) -> NSError {
        var info = userInfo
        info[NSLocalizedDescriptionKey] = description
        return NSError(domain: NSCocoaErrorDomain, code: code, userInfo: info)
    }

    /// A general Core Data error (134060) for requests that cannot be carried out.
    static func invalidRequest(_ description: String) -> NSError {
        make(NSCoreDataError, description)
    }

    /// The error for a key that the entity does not know, raised by fetches and predicates.
    static func unknownKey(_ key: String, entity: String) -> NSError {
        make(
            NSCoreDataError,
            "keypath \(key) not found in entity \(entity)",
            userInfo: [NSValidationKeyErrorKey: key]
        )
    }

    /// A store that cannot be opened (134080), with the file's path and the reason.
    static func storeOpen(_ url: URL?, _ reason: String, underlying: Error? = nil) -> NSError {
        var info: [String: Any] = [:]
        if let url { info[NSURLErrorKey] = url; info[NSFilePathErrorKey] = url.path }
        if let underlying { info[NSUnderlyingErrorKey] = underlying }
        let path = url.map { " at \($0.path)" } ?? ""
        return make(NSPersistentStoreOpenError, "The persistent store\(path) could not be opened: \(reason)", userInfo: info)
    }
}
