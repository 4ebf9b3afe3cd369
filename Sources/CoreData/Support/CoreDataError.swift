/// Builds the `NSError`s Core Data reports, all in `NSCocoaErrorDomain`, each with the localized
/// description Apple's frameworks give it and printing as Apple's do (`FormattedNSError`).
package enum CoreDataError {
    /// The userInfo key under which Apple's Core Data explains an error (`reason`).
    static let reasonKey = "reason"

    /// An error with Apple's `code`, saying what went wrong, and extra userInfo entries.
    ///
    /// For Core Data's own codes the localized description is the one Apple's Core Data gives the
    /// code (`localizedDescription(ofCoreDataCode:validationKey:)`), and `reason` goes under
    /// `reason`, where Apple's Core Data explains its errors, unless `userInfo` has one already or
    /// `reason` says no more than the description. For Foundation's codes (a file, an archive, a
    /// format string), `reason` is the localized description: give Foundation's text for the code.
    package static func make(_ code: Int, _ reason: String, userInfo: [String: Any] = [:]) -> NSError {
        let validationKey = userInfo[NSValidationKeyErrorKey] as? String
        guard let description = localizedDescription(ofCoreDataCode: code, validationKey: validationKey) else {
            return make(code, localizedDescription: reason, userInfo: userInfo)
        }
        var info = userInfo
        if reason != description, info[reasonKey] == nil {
            info[reasonKey] = reason
        }
        return make(code, localizedDescription: description, userInfo: info)
    }

    /// An error whose localized description is `localizedDescription` as given: the error string
    /// a model gives one of its validation predicates, or a message of an API Apple does not have.
    package static func make(_ code: Int, localizedDescription: String, userInfo: [String: Any] = [:]) -> NSError {
        var info = userInfo
        info[NSLocalizedDescriptionKey] = localizedDescription
        return FormattedNSError(domain: NSCocoaErrorDomain, code: code, userInfo: info)
    }

    /// What an error explains: the reason a Core Data error gives, or its localized description,
    /// for a message that reports it inside another.
    static func reason(of error: any Error) -> String {
        (error as NSError).userInfo[reasonKey] as? String ?? error.localizedDescription
    }

    /// A general Core Data error (134060) for requests that cannot be carried out.
    static func invalidRequest(_ reason: String) -> NSError {
        make(NSCoreDataError, reason)
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
    package static func storeOpen(_ url: URL?, _ reason: String, underlying: Error? = nil) -> NSError {
        var info: [String: Any] = [:]
        if let url { info[NSURLErrorKey] = url; info[NSFilePathErrorKey] = url.path }
        if let underlying { info[NSUnderlyingErrorKey] = underlying }
        let path = url.map { " at \(location(of: $0))" } ?? ""
        return make(NSPersistentStoreOpenError, "The persistent store\(path) could not be opened: \(reason)", userInfo: info)
    }

    /// Where a store is, as a message names it: a file's path, or a server's URL without its
    /// password.
    private static func location(of url: URL) -> String {
        guard !url.isFileURL, var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url.path }
        components.password = nil
        return components.string ?? url.path
    }

    /// The error for a store file that does not exist: `NSFileReadNoSuchFileError` (260), with
    /// Foundation's description naming the file, as Apple's Core Data reports it.
    static func noSuchFile(_ url: URL) -> NSError {
        file(NSFileReadNoSuchFileError, url: url, userInfo: [NSUnderlyingErrorKey: NSError(domain: NSPOSIXErrorDomain, code: Int(ENOENT))])
    }

    /// Foundation's error for a store file the file system refused to read or change
    /// (`NSFileReadNoSuchFileError`, `NSFileReadNoPermissionError`, `NSFileWriteNoPermissionError`,
    /// `NSFileWriteOutOfSpaceError`, `NSFileWriteVolumeReadOnlyError`), with Foundation's
    /// description naming the file, the file's URL and path, and what failed under `reason`.
    static func file(_ code: Int, url: URL, reason: String? = nil, userInfo: [String: Any] = [:]) -> NSError {
        var info = userInfo
        info[NSURLErrorKey] = url
        info[NSFilePathErrorKey] = url.path
        if let reason { info[reasonKey] = reason }
        return make(code, localizedDescription: fileDescription(code, url: url), userInfo: info)
    }

    /// Foundation's English description of a file error about `url`.
    private static func fileDescription(_ code: Int, url: URL) -> String {
        let name = url.lastPathComponent
        switch code {
        case NSFileReadNoSuchFileError:
            return "The file “\(name)” couldn’t be opened because there is no such file."
        case NSFileReadNoPermissionError:
            return "The file “\(name)” couldn’t be opened because you don’t have permission to view it."
        case NSFileWriteNoPermissionError:
            return "You don’t have permission to save the file “\(name)” in the folder “\(url.deletingLastPathComponent().lastPathComponent)”."
        case NSFileWriteOutOfSpaceError:
            return "The file “\(name)” couldn’t be saved because there isn’t enough space."
        case NSFileWriteVolumeReadOnlyError:
            return "The file “\(name)” couldn’t be saved because the volume is read only."
        default:
            return "The operation couldn’t be completed. (Cocoa error \(code).)"
        }
    }
}
